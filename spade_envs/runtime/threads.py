"""Run many environment sessions at once: the concurrency API for rollouts and evaluation.

Threading rules, in one place:

* a backend object may be shared by any number of threads;
* a session must be used by one thread at a time. ``SessionThreads`` guarantees this by construction:
  each job opens its own session, uses it and closes it on one worker thread.

What threads buy, measured on a 2-core VM: the ``wasm`` backend releases the GIL only while guest code
runs, and the ``process`` backend while it waits on its pipe. Everything else a step does on the host
(encoding the request, the C API's bookkeeping, decoding and checking the reply) holds the GIL. Two
threads stepping wasm sessions of a bundled game run 1.0-1.2x as fast as one, and no faster when a step
is the guest call alone (0.9-1.4x): what costs is handing the GIL over, not the host's work. With two
threads nearly every guest call's release and re-acquire of the GIL goes through the kernel, and waking a
blocked thread costs this VM 20-30 us, about as long as the guest call. Two worker *processes* share no
GIL and step it 1.4-2.0x as fast (``benchmarks/sandbox_bench.py --threads-only``, all measured
interleaved). Threads still overlap what waits (model calls, the sandbox's long steps), which is what
rollouts need them for; for CPU-bound parallelism over many environments (validation, pools) use one
process per core, as ``ValidationWorkers`` and ``--ray`` do.
(The ``inprocess`` backend runs Python under the GIL and enforces no time limit off the main thread.)

(A *pool* in this toolkit is always an exported set of environments, ``spade_envs.pool``; these are
threads.)
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, Self, TypeVar

from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.budget import MemoryBudget
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.session import EnvSession

Item = TypeVar("Item")
Result = TypeVar("Result")


class SessionThreads:
    """A fixed set of worker threads that run jobs, each against a session of its own."""

    def __init__(self, backend: ExecutionBackend, workers: int | None = None, *,
                 budget: MemoryBudget | None = None) -> None:
        """``budget``: the memory the sessions opened through ``session`` and ``run_holding_session`` may
        reach together, each counted at its cap (``ExecutionLimits.memory_mb``); None: no limit."""
        self.backend = backend
        self.workers = workers or os.cpu_count() or 1
        self.budget = budget
        self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="spade-env")

    @property
    def session_mb(self) -> int:
        """What one session counts against the budget: the backend's memory cap."""
        return getattr(self.backend, "limits", ExecutionLimits()).memory_mb

    @asynccontextmanager
    async def session(self, source: str, **session_options: Any) -> AsyncIterator[EnvSession]:
        """A session opened and closed off the event loop, within the budget: it waits, holding no thread,
        until its cap fits beside the open ones. ``EnvRuntimeError`` if it cannot be opened."""
        async with self._held():
            session = await self.run_async(lambda: self.backend.open_session(source, **session_options))
            try:
                yield session
            finally:
                await self.run_async(session.close)

    async def run_holding_session(self, func: Callable[..., Result], *args: Any) -> Result:
        """``run_async`` for a job that opens sessions of its own, one at a time: it holds one session's
        share of the budget while it runs."""
        async with self._held():
            return await self.run_async(func, *args)

    def _held(self) -> Any:
        if self.budget is None:
            return _nothing_held()
        return self.budget.hold(self.session_mb)

    def submit(
        self,
        job: Callable[[EnvSession, Item], Result],
        source: str,
        item: Item,
        *,
        class_name: str | None = None,
        max_turns: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
    ) -> Future[Result]:
        """Run ``job(session, item)`` on a worker with a fresh session of ``source``."""

        def run() -> Result:
            with self.backend.open_session(
                source, class_name=class_name, max_turns=max_turns, init_kwargs=init_kwargs
            ) as session:
                return job(session, item)

        return self._executor.submit(run)

    def map(
        self,
        job: Callable[[EnvSession, Item], Result],
        source: str,
        items: Iterable[Item],
        **session_options: Any,
    ) -> list[Result]:
        """``submit`` for every item; results in item order. The first job error is raised."""
        futures = [self.submit(job, source, item, **session_options) for item in items]
        return [future.result() for future in futures]

    async def run_async(self, func: Callable[..., Result], *args: Any) -> Result:
        """Run a blocking call (``session.step``, ``session.reset``) off the event loop.

        Async rollouts interleave model calls with environment steps; this keeps a slow environment
        from stalling every other coroutine. Await each call before the next on the same session.
        """
        return await asyncio.get_running_loop().run_in_executor(self._executor, func, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@asynccontextmanager
async def _nothing_held() -> AsyncIterator[None]:
    yield
