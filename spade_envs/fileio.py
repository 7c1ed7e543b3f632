"""Atomic file writes: a reader (or a crash) never sees half a file."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: str | bytes) -> None:
    """Write ``data`` to a temporary file beside ``path`` and rename it over ``path``.

    The temporary name includes the process id so that concurrent writers never share one.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    os.replace(tmp, path)
