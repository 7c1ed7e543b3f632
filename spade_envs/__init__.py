"""SPADE environment SDK: the contract for designer-written environments, checks and runtimes.

Typical use::

    from spade_envs import create_backend, validate_source
    report = validate_source(open("my_env.py").read(), create_backend("wasm"))
    print(report.ok, [f.message for f in report.failures])

The SDK is light on purpose: it never imports torch, Ray, OpenRLHF or a model client. Names are
loaded on first use, so a child process that only needs the runtime does not pay for pydantic.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "CheckConfig": "spade_envs.checks",
    "ValidatorConfig": "spade_envs.checks",
    "validate_file": "spade_envs.checks",
    "validate_source": "spade_envs.checks",
    "ToolUseBaseEnv": "spade_envs.contract",
    "episode_return": "spade_envs.contract",
    "extract_boxed": "spade_envs.contract",
    "solution_to_actions": "spade_envs.contract",
    "EnvEntry": "spade_envs.registry",
    "EnvRegistry": "spade_envs.registry",
    "bundled_registry": "spade_envs.registry",
    "EnvSession": "spade_envs.runtime",
    "ExecutionLimits": "spade_envs.runtime",
    "create_backend": "spade_envs.runtime",
    "EnvSpec": "spade_envs.spec",
    "EpisodeLog": "spade_envs.spec",
    "PoolManifest": "spade_envs.spec",
    "ValidationReport": "spade_envs.spec",
    "env_id_for": "spade_envs.spec",
}

__all__ = tuple(sorted(_EXPORTS))


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'spade_envs' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)


def __dir__() -> list[str]:
    return __all__
