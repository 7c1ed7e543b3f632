"""The environment pool as a Ray named actor, and the executor's client for it.

The driver starts one actor per run, named after the run directory, on its own node (the memory
database is a local SQLite file in the run directory); every rollout engine finds it by the name in its
rows' labels. The actor runs one call at a time, which is what the SQLite memory and the lease
bookkeeping want; calls are short (milliseconds), so it is not a bottleneck next to generation.
"""

from __future__ import annotations

import ctypes
import hashlib
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from spade_train.backends.openrlhf.pool import DesignPlan, DesignReport, EnvironmentPool, Lease
from spade_train.memory import NearDuplicate
from spade_train.run_config import RunConfig

NAMESPACE = "spade"


@contextmanager
def sandbox_trap_handlers_kept() -> Iterator[None]:
    """Put back, after the block, the native trap-signal handlers in place before it.

    wasmtime turns a trap in guest code (an abort, a stack overflow) into an error through its own
    SIGILL/SIGSEGV/SIGBUS/SIGFPE handlers, installed when the first engine is made. ``ray.init`` installs
    handlers over them (absl's failure handler in its core worker, Python's faulthandler) and
    ``ray.shutdown`` changes them again; from then on a trapping environment kills the whole process
    instead of raising ``EnvCrashError`` (measured with the hostile ``raise_signal`` program, in a script
    and in a pytest worker). Processes where Ray starts before any engine (Ray's workers and actors)
    never need this; a driver that validated environments before starting Ray does.
    """
    saved = _trap_handlers()
    try:
        yield
    finally:
        _restore_trap_handlers(saved)


def init_ray(**options: Any) -> None:
    """``ray.init`` that leaves this process's WebAssembly sandbox working (see above)."""
    import ray

    with sandbox_trap_handlers_kept():
        ray.init(**options)


def shutdown_ray() -> None:
    """``ray.shutdown`` that leaves this process's WebAssembly sandbox working (see above)."""
    import ray

    with sandbox_trap_handlers_kept():
        ray.shutdown()


_TRAP_SIGNALS = ("SIGILL", "SIGSEGV", "SIGBUS", "SIGFPE")
_SIGACTION_BYTES = 512
"""More than any platform's ``struct sigaction``: the handler is copied as opaque bytes."""


def _trap_handlers() -> dict[int, Any]:
    """The native handlers of the trap signals, as opaque ``struct sigaction`` buffers (POSIX only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        sigaction = libc.sigaction
    except (OSError, AttributeError):  # no sigaction (Windows): nothing to keep
        return {}
    saved = {}
    for name in _TRAP_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue
        buffer = ctypes.create_string_buffer(_SIGACTION_BYTES)
        if sigaction(int(number), None, buffer) == 0:
            saved[int(number)] = buffer
    return saved


def _restore_trap_handlers(saved: dict[int, Any]) -> None:
    if not saved:
        return
    sigaction = ctypes.CDLL(None, use_errno=True).sigaction
    for number, buffer in saved.items():
        sigaction(number, buffer, None)


def pool_actor_name(run_dir: Path) -> str:
    """A name unique to the run directory (its absolute path), readable in the Ray dashboard."""
    resolved = str(Path(run_dir).resolve())
    return f"spade-pool-{Path(resolved).name[:40]}-{hashlib.sha256(resolved.encode()).hexdigest()[:10]}"


def start_pool_actor(config: RunConfig, run_dir: Path, *, restore: bool, name: str | None = None) -> Any:
    """Create the run's pool actor on this node and wait until it is ready; returns its handle.

    Must be called where ``ray.init`` has run. ``restore`` continues from ``pool_state.json``.
    """
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    here = ray.get_runtime_context().get_node_id()
    actor_class = ray.remote(EnvironmentPool)
    handle = actor_class.options(
        name=name or pool_actor_name(run_dir), namespace=NAMESPACE, num_cpus=1, max_concurrency=1,
        scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=here, soft=False),
    ).remote(config, str(Path(run_dir).resolve()), restore=restore)
    ray.get(handle.summary.remote())  # surfaces a constructor error (bad pool directory) here
    return handle


class RayPoolClient:
    """A ``PoolClient`` over the named actor (awaitable calls from the executor's event loop)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    @classmethod
    def connect(cls, name: str, namespace: str = NAMESPACE) -> RayPoolClient:
        import ray

        return cls(ray.get_actor(name, namespace=namespace))

    async def settings(self) -> dict[str, Any]:
        return await self.handle.settings.remote()

    async def plan_design(self, row: int, samples: int, skill: str, kind: str) -> DesignPlan:
        return await self.handle.plan_design.remote(row, samples, skill, kind)

    def near_duplicates(self, code: str, threshold: float) -> list[NearDuplicate]:
        import ray

        return ray.get(self.handle.near_duplicates.remote(code, threshold))

    async def record_design(self, report: DesignReport) -> bool:
        return await self.handle.record_design.remote(report)

    async def lease(self, row: int, samples: int, hinted: bool) -> Lease:
        return await self.handle.lease.remote(row, samples, hinted)

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool) -> None:
        await self.handle.report_episode.remote(env_id, episode_return, won, env_error)
