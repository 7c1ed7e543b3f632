"""The ``wasm`` backend: environment code runs in CPython compiled to WebAssembly, under wasmtime.

This is the default for anything a model wrote. See ``host.py`` for what is isolated and how, and
``build.py`` for how the guest image is built and cached.
"""

from __future__ import annotations

from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.session import TransportBackend
from spade_envs.runtime.wasm.build import SandboxBuildError
from spade_envs.runtime.wasm.host import WasmConfig, WasmRuntime, WasmTransport

__all__ = ["SandboxBuildError", "WasmBackend", "WasmConfig", "WasmRuntime"]


class WasmBackend(TransportBackend):
    """Runs each environment in its own WebAssembly instance. Thread-safe; sessions are not."""

    name = "wasm"
    isolated = True

    def __init__(self, limits: ExecutionLimits | None = None, config: WasmConfig | None = None) -> None:
        super().__init__(limits)
        self.runtime = WasmRuntime(config)

    @property
    def instructions_executed(self) -> int | None:
        """Guest instructions all sessions of this backend have executed (see ``WasmRuntime``)."""
        return self.runtime.instructions_executed

    def open_transport(self) -> WasmTransport:
        return WasmTransport(self.runtime, self.limits)
