"""Skip a test module whose library is not installed, without importing the library.

``pytest.importorskip`` imports the library to find out, and every pytest-xdist worker collects every test
module: importing OpenEnv (gradio) or verifiers at collection cost each worker seconds, whether or not it
then runs those tests. A module that uses ``require`` imports its heavy library inside the tests instead.
"""

from __future__ import annotations

import importlib.util

import pytest


def require(*modules: str, reason: str | None = None) -> None:
    """Skip the calling module when any of ``modules`` cannot be found (it is not imported)."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(reason or f"{', '.join(missing)} is not installed", allow_module_level=True)
