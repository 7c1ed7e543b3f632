"""The execution-backend interface and the catalogue of backends.

The checker, rollouts and evaluation talk only to this interface, so a new backend (the WebAssembly
sandbox, a child process) plugs in without changing any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from spade_envs.runtime.inprocess import InProcessBackend
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.process import ProcessBackend
from spade_envs.runtime.session import EnvSession


class ExecutionBackend(Protocol):
    """Where environment code runs. ``open_session`` loads the source and constructs the environment."""

    name: str
    isolated: bool
    """Whether untrusted code is contained (False only for ``inprocess``)."""

    def open_session(
        self,
        source: str,
        *,
        class_name: str | None = None,
        max_turns: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
        clock_offset_s: float = 0.0,
        clock_tick_s: float = 0.001,
    ) -> EnvSession: ...


def _wasm(limits: ExecutionLimits) -> ExecutionBackend:
    from spade_envs.runtime.wasm import WasmBackend  # imported lazily: it loads the compiled guest

    return WasmBackend(limits)


BACKEND_FACTORIES: dict[str, Callable[[ExecutionLimits], ExecutionBackend]] = {
    "inprocess": InProcessBackend,
    "process": ProcessBackend,
    "wasm": _wasm,
}
"""Backend name -> constructor. Read-only by convention: extend it by passing your own backend object."""

DEFAULT_BACKEND = "wasm"
"""Model-written code is untrusted, so everything runs in the WebAssembly sandbox unless told otherwise."""


def backend_names() -> list[str]:
    return sorted(BACKEND_FACTORIES)


def create_backend(name: str, limits: ExecutionLimits | None = None) -> ExecutionBackend:
    """Build a backend by name; raises ValueError naming the choices for an unknown name."""
    try:
        factory = BACKEND_FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown sandbox backend {name!r}; choose one of: {', '.join(backend_names())}") from None
    return factory(limits or ExecutionLimits())
