"""Where environment code runs: one session API over several execution backends."""

from spade_envs.runtime.backend import (
    BACKEND_FACTORIES,
    DEFAULT_BACKEND,
    ExecutionBackend,
    backend_names,
    create_backend,
)
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvBackstopError,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvRuntimeError,
    EnvTimeoutError,
)
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.replies import ResetResult, StepResult
from spade_envs.runtime.session import EnvSession, LoadedEnv

__all__ = [
    "BACKEND_FACTORIES",
    "DEFAULT_BACKEND",
    "ContractViolation",
    "EnvBackstopError",
    "EnvCodeError",
    "EnvCrashError",
    "EnvLoadError",
    "EnvMemoryError",
    "EnvRuntimeError",
    "EnvSession",
    "EnvTimeoutError",
    "ExecutionBackend",
    "ExecutionLimits",
    "LoadedEnv",
    "ResetResult",
    "StepResult",
    "backend_names",
    "create_backend",
]
