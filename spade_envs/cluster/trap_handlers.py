"""Starting and stopping Ray without breaking this process's WebAssembly sandbox.

wasmtime turns a trap in guest code (an abort, a stack overflow, a signal the guest raises) into an
error through native handlers for SIGILL, SIGSEGV, SIGBUS and SIGFPE that it installs when the first
engine is made. ``ray.init`` installs its own handlers over them (its core worker's failure handler,
Python's faulthandler) and ``ray.shutdown`` changes them again; after either, a trapping environment
kills the whole process instead of raising ``EnvCrashError``. So a process that may have made an engine
starts and stops Ray inside ``trap_handlers_kept``, which copies the native handlers beforehand and
puts them back afterwards. (Ray's own workers start Ray before any engine, and validation workers are
separate processes that never start Ray: neither needs this.)
"""

from __future__ import annotations

import ctypes
import signal
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

TRAP_SIGNALS = ("SIGILL", "SIGSEGV", "SIGBUS", "SIGFPE")
SIGACTION_BUFFER_BYTES = 512
"""Larger than ``struct sigaction`` on any platform: the handler is saved as opaque bytes."""


def _sigaction() -> Any | None:
    try:
        return ctypes.CDLL(None, use_errno=True).sigaction
    except (OSError, AttributeError):  # no sigaction (not POSIX): nothing to keep
        return None


@contextmanager
def trap_handlers_kept() -> Iterator[None]:
    """Restore, when the block ends, the native handlers the trap signals had when it began."""
    sigaction = _sigaction()
    saved: list[tuple[int, Any]] = []
    if sigaction is not None:
        for name in TRAP_SIGNALS:
            number = getattr(signal, name, None)
            buffer = ctypes.create_string_buffer(SIGACTION_BUFFER_BYTES)
            if number is not None and sigaction(int(number), None, buffer) == 0:
                saved.append((int(number), buffer))
    try:
        yield
    finally:
        if sigaction is not None:
            for number, buffer in saved:
                sigaction(number, buffer, None)


def init_ray(**options: Any) -> None:
    """``ray.init(**options)``, keeping this process's sandbox trap handlers (and without Ray's notice
    about accelerator environment variables, which says nothing about a CPU-only validation)."""
    import ray

    with trap_handlers_kept(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module="ray")
        ray.init(**options)


def shutdown_ray() -> None:
    """``ray.shutdown()``, keeping this process's sandbox trap handlers."""
    import ray

    with trap_handlers_kept():
        ray.shutdown()
