"""The ``wasm`` backend: environment code runs in CPython compiled to WebAssembly, under wasmtime.

This is the default for anything a model wrote. See ``host.py`` for what is isolated and how, and
``build.py`` for how the guest image is built and cached.
"""

from __future__ import annotations

from typing import Any

from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.session import EnvSession
from spade_envs.runtime.wasm.build import SandboxBuildError
from spade_envs.runtime.wasm.host import WasmConfig, WasmRuntime, WasmTransport

__all__ = ["SandboxBuildError", "WasmBackend", "WasmConfig", "WasmRuntime"]


class WasmBackend:
    """Runs each environment in its own WebAssembly instance. Thread-safe; sessions are not."""

    name = "wasm"
    isolated = True

    def __init__(self, limits: ExecutionLimits | None = None, config: WasmConfig | None = None) -> None:
        self.limits = limits or ExecutionLimits()
        self.runtime = WasmRuntime(config)

    def open_session(
        self,
        source: str,
        *,
        class_name: str | None = None,
        max_turns: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
    ) -> EnvSession:
        return EnvSession(
            lambda: WasmTransport(self.runtime, self.limits),
            source,
            class_name=class_name,
            max_turns=max_turns,
            init_kwargs=init_kwargs,
        )
