"""Validate many environments at once, in parallel worker processes.

A designer batch is 24 environments; validating them one after another leaves cores idle. Each worker
process builds its backend once (from the cached sandbox image) and validates the environments it is
given. Reports come back in input order.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

from spade_envs.checks.validate import ValidatorConfig, validate_source
from spade_envs.runtime.backend import ExecutionBackend, create_backend
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import ValidationReport


@dataclass(frozen=True)
class ValidationJob:
    label: str
    source: str
    class_name: str | None = None
    tiers: tuple[str, ...] | None = None
    """Run only these tiers (None: the pool's configured ones)."""


class _WorkerState:
    """The backend of one worker process, created by the pool initializer."""

    backend: ExecutionBackend | None = None
    config: ValidatorConfig | None = None


def _init_worker(backend_name: str, limits: ExecutionLimits, config: ValidatorConfig) -> None:
    _WorkerState.backend = create_backend(backend_name, limits)
    _WorkerState.config = config
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True, name="parent-watch").start()


def _exit_with_parent(parent: int, interval_s: float = 1.0) -> None:
    """End this worker when the process that started it is gone (killed, not shut down cleanly):
    an idle worker of a spawn pool would otherwise live on, orphaned, holding its sandbox's memory."""
    while os.getppid() == parent:
        time.sleep(interval_s)
    os._exit(0)


def _run_job(job: ValidationJob) -> ValidationReport:
    assert _WorkerState.backend is not None and _WorkerState.config is not None
    config = _WorkerState.config if job.tiers is None else replace(_WorkerState.config, tiers=job.tiers)
    return validate_source(job.source, _WorkerState.backend, path=job.label, class_name=job.class_name,
                           config=config)


def default_jobs(count: int) -> int:
    return max(1, min(os.cpu_count() or 1, count))


def validate_many(
    jobs: Sequence[ValidationJob],
    backend_name: str,
    limits: ExecutionLimits,
    config: ValidatorConfig,
    *,
    workers: int = 1,
) -> Iterator[ValidationReport]:
    """Yield one report per job, in order, using ``workers`` processes (1: in this process)."""
    if workers <= 1 or len(jobs) <= 1:
        backend = create_backend(backend_name, limits)
        for job in jobs:
            yield validate_source(job.source, backend, path=job.label, class_name=job.class_name, config=config)
        return
    # spawn, not fork: the parent may hold a wasmtime engine and its ticker thread.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                             initargs=(backend_name, limits, config)) as pool:
        yield from pool.map(_run_job, jobs)


class ValidationPool:
    """Validation in worker processes for callers that produce environments one by one (the self-play loop).

    The fuzz tier is pure Python under the GIL, so threads cannot run two validations at once; worker
    processes can. ``validate`` is awaitable so an asyncio caller keeps its model calls going meanwhile.
    """

    def __init__(self, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                                         initargs=(backend_name, limits, config))

    async def validate(self, source: str, label: str | None = None,
                       tiers: tuple[str, ...] | None = None) -> ValidationReport:
        import asyncio

        job = ValidationJob(label or "<generated>", source, tiers=tiers)
        return await asyncio.get_running_loop().run_in_executor(self._pool, _run_job, job)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
