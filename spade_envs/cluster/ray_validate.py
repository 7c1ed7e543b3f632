"""Validate a pool on a Ray cluster: the same reports as a local run, from many machines.

Each Ray worker is a ``ValidationActor`` holding one supervised validation worker process
(``checks/batch.py``'s ``ValidationWorkers`` with a single worker), so every protection of a local run
holds on the cluster too: a file that crashes the checker, grows past its memory budget or runs past
its time limit gets its own failure report and a fresh worker, and one sandbox serves one file at a time.

The driver keeps every actor busy (two files in flight each, so none waits for the next) and yields
results as they finish. A Ray worker that dies (a lost node, a killed process) loses only the files it
held: Ray restarts the actor and those files are sent again; a file on whose account a worker died
``max_attempts`` times is reported as a ``runtime_limit`` failure, like a local worker that died.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Self

from spade_envs.checks.batch import JobResult, ValidationJob, ValidationWorkers, WorkerLimits, failure_report
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.cluster.trap_handlers import init_ray, shutdown_ray
from spade_envs.runtime.errors import EnvCrashError
from spade_envs.runtime.limits import ExecutionLimits

IN_FLIGHT_PER_WORKER = 2


@dataclass(frozen=True)
class RaySettings:
    address: str | None = None
    """A running cluster ("host:port", or "auto" for the one this machine belongs to); None starts a
    local cluster on this machine for the run."""
    workers: int | None = None
    """Validation workers (Ray actors of one CPU each); default: one per CPU of the cluster."""
    max_attempts: int = 3
    """Times a file may be sent again after the Ray worker holding it died."""

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"RaySettings.workers must be at least 1, got {self.workers}")
        if self.max_attempts < 1:
            raise ValueError(f"RaySettings.max_attempts must be at least 1, got {self.max_attempts}")


class ValidationActor:
    """A Ray worker's part: one supervised validation worker process, fed one file at a time."""

    def __init__(self, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig,
                 worker_limits: WorkerLimits) -> None:
        self._workers = ValidationWorkers(backend_name, limits, config, 1, worker_limits=worker_limits)

    def validate(self, job: ValidationJob) -> JobResult:
        return self._workers.submit(job).result()

    def pid(self) -> int:
        return os.getpid()

    def close(self) -> None:
        self._workers.close()


class RayValidation:
    """A set of ``ValidationActor`` workers on a Ray cluster; ``run`` validates jobs on them.

    Starts Ray unless this process already has it running (then the caller owns it and it is left
    running); ``close`` stops the actors, and Ray if it was started here.
    """

    def __init__(self, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig, *,
                 settings: RaySettings | None = None, worker_limits: WorkerLimits | None = None) -> None:
        import ray

        self.settings = settings or RaySettings()
        self._backend_name, self._config = backend_name, config
        self._started_ray = not ray.is_initialized()
        if self._started_ray:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                       "configure_logging": False}
            if self.settings.address is None:
                options["num_cpus"] = os.cpu_count() or 1
            else:
                options["address"] = self.settings.address
            init_ray(**options)
        count = self.settings.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(ValidationActor)
        self._actors = [actor.remote(backend_name, limits, config, worker_limits or WorkerLimits())
                        for _ in range(count)]

    @property
    def workers(self) -> int:
        return len(self._actors)

    def worker_pids(self) -> list[int]:
        """The process ids of the Ray workers (for tests that kill one)."""
        import ray

        return ray.get([actor.pid.remote() for actor in self._actors])

    def run(self, jobs: Sequence[ValidationJob]) -> Iterator[tuple[int, JobResult]]:
        """Yield (index of the job, its result) as each job finishes.

        A worker whose task failed because the worker died is given nothing new until it answers a ping
        (Ray restarts it; tasks sent meanwhile would fail too): its files go to the other workers.
        """
        import ray
        from ray.exceptions import ActorDiedError, RayActorError, RayTaskError

        pending: deque[tuple[int, int]] = deque((index, 0) for index in range(len(jobs)))  # (job, deaths)
        in_flight: dict[Any, tuple[int, int, int]] = {}  # object ref -> (worker, job, deaths)
        pings: dict[Any, int] = {}  # object ref of a ping -> the recovering worker it asks
        load = [0] * len(self._actors)
        while pending or in_flight:
            recovering = set(pings.values())
            for position in sorted(range(len(self._actors)), key=load.__getitem__):
                while pending and position not in recovering and load[position] < IN_FLIGHT_PER_WORKER:
                    index, deaths = pending.popleft()
                    in_flight[self._actors[position].validate.remote(jobs[index])] = (position, index, deaths)
                    load[position] += 1
            (ready,), _ = ray.wait([*in_flight, *pings], num_returns=1)
            if ready in pings:
                position = pings.pop(ready)
                try:
                    ray.get(ready)
                except RayActorError:
                    pings[self._actors[position].pid.remote()] = position  # not back yet: ask again
                continue
            position, index, deaths = in_flight.pop(ready)
            load[position] -= 1
            try:
                result = ray.get(ready)
            except RayActorError as error:
                if position not in pings.values():
                    pings[self._actors[position].pid.remote()] = position
                deaths += isinstance(error, ActorDiedError)
                if deaths < self.settings.max_attempts:
                    pending.appendleft((index, deaths))  # Ray restarts the worker; send the file again
                    continue
                result = JobResult(failure_report(
                    jobs[index], self._backend_name, self._config, "runtime_limit",
                    f"The Ray worker validating this file died {deaths} times (a lost node, or the checker "
                    "ran out of host memory on values this environment returned); return small, plain values."),
                    0.0, 0.0)
            except RayTaskError as error:
                cause = getattr(error, "cause", None)
                raise EnvCrashError(str(cause) if isinstance(cause, EnvCrashError) else
                                    f"a Ray worker failed: {type(cause or error).__name__}") from None
            yield index, result

    def close(self) -> None:
        import ray

        for actor in self._actors:
            with contextlib.suppress(Exception):  # an actor that is already gone is closed
                ray.kill(actor, no_restart=True)
        self._actors = []
        if self._started_ray:
            shutdown_ray()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def validate_on_ray(jobs: Sequence[ValidationJob], backend_name: str, limits: ExecutionLimits,
                    config: ValidatorConfig, *, settings: RaySettings | None = None,
                    worker_limits: WorkerLimits | None = None) -> Iterator[tuple[int, JobResult]]:
    """Validate ``jobs`` on Ray; (job index, result) pairs in the order the jobs finish."""
    with RayValidation(backend_name, limits, config, settings=settings, worker_limits=worker_limits) as cluster:
        yield from cluster.run(jobs)
