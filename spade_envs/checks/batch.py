"""Validate many environments at once, each in a worker process the batch can afford to lose.

A designer batch is 24 environments; validating them one after another leaves cores idle, and any of
them may be hostile. Every job therefore runs in a worker process (with one worker too), watched by a
supervisor thread in this process, so that whatever one environment makes the checker do, only that
environment's report says so and every other job still gets its report:

* an exception that escapes the checker becomes a ``runtime_limit`` finding of that file (naming the
  exception and the checker function it came from, never printing a traceback), and the worker is
  replaced: its state after such a failure is not trusted;
* a job may grow its worker's memory by ``WorkerLimits.memory_mb``: past that, allocations fail inside
  the worker (RLIMIT_DATA), and a worker whose resident memory still grows past it is killed; a job
  that runs past ``WorkerLimits.seconds`` is killed too. Either way the file gets a ``runtime_limit``
  or ``timeout`` finding and the worker is replaced;
* a worker that dies (a signal, the kernel's OOM killer) is replaced, and its job is reported as a
  ``runtime_limit`` failure of that file.

Each worker builds its backend once (from the cached sandbox image) and validates one job at a time.
``validate_many`` yields reports in input order; ``ProcessValidator`` serves callers that produce
environments one by one (the self-play loop).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from typing import Any, Self

from spade_envs.checks.catalogue import TIERS, check_names
from spade_envs.checks.static import StaticResult, run_static_checks
from spade_envs.checks.validate import ValidatorConfig, validate_source
from spade_envs.runtime.backend import create_backend
from spade_envs.runtime.errors import EnvCrashError, EnvMemoryError, EnvTimeoutError
from spade_envs.runtime.lifeline import exit_with_parent
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import CheckFailure, CheckOutcome, TierOutcome, ValidationReport, env_id_for

POLL_S = 0.05
"""How often the supervisor looks at its workers' memory and deadlines."""


@dataclass(frozen=True)
class ValidationJob:
    label: str
    source: str
    class_name: str | None = None
    tiers: tuple[str, ...] | None = None
    """Run only these tiers (None: the pool's configured ones)."""
    reference_solution: bool = True
    """False: the environment ships no reference solution (a TextArena or gem game), so the checks that
    need one (``solution_defined``, the feasibility tier) are left out."""
    answer_format_required: bool = True
    """False: a grader from another framework, not held to SPADE's ``\\boxed{}`` answers
    (``CheckConfig.answer_format_required``)."""


def config_for(job: ValidationJob, config: ValidatorConfig) -> ValidatorConfig:
    """The pool's configuration as this job runs it: its own tiers, and none that needs a reference
    solution the environment does not ship."""
    if job.tiers is not None:
        config = replace(config, tiers=job.tiers)
    if not job.reference_solution:
        config = replace(config, tiers=tuple(t for t in config.tiers if t != "feasibility"),
                         dynamic=replace(config.dynamic, reference_solution=False))
    if not job.answer_format_required:
        config = replace(config, dynamic=replace(config.dynamic, answer_format_required=False))
    return config


@dataclass(frozen=True)
class WorkerLimits:
    """What validating one file may cost the host, enforced from outside the worker that does it."""

    memory_mb: int = 1024
    """Largest growth of a worker's resident memory during one job. It includes the sandbox's own
    memory: a validation keeps up to three sessions open, each allowed ``ExecutionLimits.memory_mb``."""
    seconds: float | None = None
    """Wall-clock limit for validating one file; None for none (every call into the environment has
    its own limit, ``ExecutionLimits.call_timeout_s``, whatever this is)."""

    def __post_init__(self) -> None:
        if self.memory_mb <= 0:
            raise ValueError(f"WorkerLimits.memory_mb must be positive, got {self.memory_mb}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"WorkerLimits.seconds must be positive or None, got {self.seconds}")


@dataclass(frozen=True)
class JobResult:
    """One job's report and what it cost its worker."""

    report: ValidationReport
    seconds: float
    memory_mb: float
    """Peak growth of the worker's resident memory while it validated this file."""
    instructions: int | None = None
    """Guest instructions the validation executed, where the backend counts them (the sandbox; None
    otherwise, or when the worker was stopped): its cost in work, the same on every machine and load."""


def default_jobs(count: int) -> int:
    return max(1, min(os.cpu_count() or 1, count))


# ---------------------------------------------------------------------- reports the supervisor writes
def failure_report(job: ValidationJob, backend_name: str, config: ValidatorConfig, check: str, message: str, *,
                   seconds: float = 0.0, static: StaticResult | None = None) -> ValidationReport:
    """The report of a file whose validation did not finish: one finding, and every check skipped but that one.

    ``static``, when the static tier could be run on its own, contributes its findings and outcomes.
    """
    static_failed = {f.check for f in static.failures} if static else set()
    outcomes = {name: CheckOutcome(check=name, status="failed" if name in static_failed else "passed",
                                   duration_ms=0.0) for name in check_names("static")} if static else {}
    outcomes[check] = CheckOutcome(check=check, status="failed", duration_ms=0.0)
    tiers = [TierOutcome(tier="static", status="failed" if static_failed else "passed", duration_ms=0.0)
             if tier == "static" and static else TierOutcome(tier=tier, status="skipped", duration_ms=0.0)  # type: ignore[arg-type]
             for tier in config_for(job, config).tiers]
    return ValidationReport(
        path=job.label,
        env_id=env_id_for(job.source),
        class_name=static.class_name if static else None,
        backend=backend_name,
        ok=False,
        failures=[*(static.failures if static else []), CheckFailure(check=check, message=message)],
        warnings=list(static.warnings) if static else [],
        checks=[outcomes.get(name) or CheckOutcome(check=name, status="skipped", duration_ms=0.0)
                for tier in TIERS for name in check_names(tier)],
        tiers=tiers,
        duration_s=round(seconds, 4),
    )


def _over_budget(memory_mb: int) -> str:
    return (f"Validating this file needed more than {memory_mb} MB of host memory (the checker was stopped); "
            "return small values: short strings, few moves, a small max_turns.")


def _failed_job_report(job: ValidationJob, backend_name: str, config: ValidatorConfig, error: Exception,
                       seconds: float, memory_cap_mb: int | None) -> ValidationReport:
    """The report of a job whose validation raised: over the memory cap, a limit, or a checker failure."""
    if isinstance(error, MemoryError) and memory_cap_mb is not None:
        return failure_report(job, backend_name, config, "runtime_limit", _over_budget(memory_cap_mb), seconds=seconds)
    if isinstance(error, (EnvTimeoutError, EnvMemoryError, EnvCrashError)):
        # A limit the environment hit where the checker did not expect one is still that limit.
        check = "timeout" if isinstance(error, EnvTimeoutError) else "runtime_limit"
        return failure_report(job, backend_name, config, check, f"{error}.", seconds=seconds)
    return _checker_crash_report(job, backend_name, config, error, seconds)


def _checker_crash_report(job: ValidationJob, backend_name: str, config: ValidatorConfig, error: BaseException,
                          seconds: float) -> ValidationReport:
    """What a worker reports when the checker itself raised on this file."""
    where = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    place = f" in {where.name}()" if where else ""
    summary = " ".join(str(error).split())[:160]
    message = (f"Validating this environment made the checker fail with {type(error).__name__}{place}"
               f"{': ' + summary if summary else ''}. The environment returned a value the checker could not "
               "digest (a max_turns, answer, hint or tool schema out of the ordinary); return small, plain values.")
    try:
        static: StaticResult | None = run_static_checks(job.source, config.static, class_name=job.class_name)
    except Exception:  # noqa: BLE001 -- the static tier itself may be what failed
        static = None
    return failure_report(job, backend_name, config, "runtime_limit", message, seconds=seconds, static=static)


# ---------------------------------------------------------------------- the worker process
def _rss_mb(pid: int | str = "self", field: str = "VmRSS") -> float:
    """Resident memory of a process in MB (0 where /proc is unavailable or the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _reset_peak_rss() -> bool:
    """Restart this process's peak-RSS counter (VmHWM), so that it measures one job. False if unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def _cap_memory(megabytes: int) -> bool:
    """Let this process's writable memory grow by at most ``megabytes`` from now (RLIMIT_DATA).

    Past the cap, an allocation of the checker fails with MemoryError and a sandbox's memory.grow fails
    inside the guest, so a job that would blow up the host ends as a report, not as a killed worker.
    False where the limit cannot be set (the supervisor's own watch still applies).
    """
    used = _rss_mb(field="VmData")
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        cap = int((used + megabytes) * 2**20)
        resource.setrlimit(resource.RLIMIT_DATA, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
        return used > 0
    except (ValueError, OSError):
        return False


def _worker_main(conn: Connection, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig,
                 memory_mb: int) -> None:
    """Serve jobs from the supervisor until told to stop; never let a job's failure escape."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
    exit_with_parent(os.getppid())  # an orphaned worker would otherwise live on, holding its sandbox's memory
    try:
        backend = create_backend(backend_name, limits)
    except Exception as error:  # noqa: BLE001 -- reported to the supervisor, which stops the batch
        reason = " ".join(str(error).split())[:300]
        conn.send(("failed", f"the validation worker could not start the {backend_name} backend: {reason}"))
        return
    conn.send(("ready",))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        job_config = config_for(job, config)
        peak_known = _reset_peak_rss()
        capped = _cap_memory(memory_mb)
        before = _rss_mb()
        executed = getattr(backend, "instructions_executed", None)
        started = time.perf_counter()
        retire = False
        try:
            report = validate_source(job.source, backend, path=job.label, class_name=job.class_name,
                                     config=job_config)
        except Exception as error:  # noqa: BLE001 -- MemoryError and RecursionError included
            if capped:
                _cap_memory(memory_mb)  # room to write the report in
            report = _failed_job_report(job, backend_name, job_config, error, time.perf_counter() - started,
                                        memory_mb if capped else None)
            retire = True  # a worker the checker failed in is not trusted with the next job
        seconds = time.perf_counter() - started
        peak = _rss_mb(field="VmHWM") if peak_known else _rss_mb()
        after = getattr(backend, "instructions_executed", None)
        instructions = after - executed if after is not None and executed is not None else None
        conn.send(("done", report, seconds, max(0.0, peak - before), retire, instructions))
        if retire:
            return


# ---------------------------------------------------------------------- the supervisor
@dataclass
class _Running:
    job: ValidationJob
    future: Future[JobResult]
    started: float
    rss_at_start: float


class _Worker:
    """One worker process and the job it is running, if any."""

    def __init__(self, context: Any, settings: tuple[Any, ...]) -> None:
        self.conn, child_end = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child_end, *settings), daemon=True,
                                       name="spade-validate")
        self.process.start()
        child_end.close()
        self.ready = False
        self.running: _Running | None = None

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def died_how(self) -> str:
        self.process.join(timeout=1)
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


class ValidationWorkers:
    """``count`` worker processes validating submitted jobs, watched by a supervisor thread.

    ``submit`` is thread-safe and returns a future of the job's ``JobResult``; a future never fails
    because of the environment (that is a report), only when no worker can be started at all
    (``EnvCrashError``) or the pool was closed.
    """

    def __init__(self, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig, count: int, *,
                 worker_limits: WorkerLimits | None = None) -> None:
        if count < 1:
            raise ValueError(f"validation needs at least one worker, got {count}")
        self.backend_name, self.config = backend_name, config
        self.limits = worker_limits or WorkerLimits()
        # spawn, not fork: this process may hold a wasmtime engine and its timer.
        self._context = multiprocessing.get_context("spawn")
        self._settings = (backend_name, limits, config, self.limits.memory_mb)
        self._lock = threading.Lock()
        self._pending: deque[tuple[ValidationJob, Future[JobResult]]] = deque()
        self._closing = False
        self._aborting = False
        self._broken: str | None = None
        self._workers = [_Worker(self._context, self._settings) for _ in range(count)]
        self._thread = threading.Thread(target=self._supervise, name="spade-validate-supervisor", daemon=True)
        self._thread.start()

    def submit(self, job: ValidationJob) -> Future[JobResult]:
        future: Future[JobResult] = Future()
        with self._lock:
            if self._broken is not None:
                future.set_exception(EnvCrashError(self._broken))
            elif self._closing:
                future.set_exception(RuntimeError("the validation workers are closed"))
            else:
                self._pending.append((job, future))
        return future

    def worker_pids(self) -> list[int]:
        return [worker.process.pid for worker in list(self._workers) if worker.process.pid is not None]

    def close(self, *, abort: bool = False) -> None:
        """Stop every worker. Jobs not yet started are cancelled; running ones finish first unless ``abort``."""
        with self._lock:
            self._closing = True
            self._aborting = self._aborting or abort
            pending, self._pending = list(self._pending), deque()
        for _, future in pending:
            future.cancel()
        self._thread.join()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, *exc_info: object) -> None:
        self.close(abort=exc_type is not None)

    # ------------------------------------------------------------------ the supervisor thread
    def _supervise(self) -> None:
        try:
            while not self._aborting and (not self._closing or any(w.running for w in self._workers)):
                self._dispatch()
                ready = wait([w.conn for w in self._workers], timeout=POLL_S)
                for worker in [w for w in self._workers if w.conn in ready]:
                    self._receive(worker)
                self._watch()
        finally:
            for worker in self._workers:
                if worker.process.is_alive():
                    try:
                        worker.conn.send(None)
                    except OSError:
                        pass
            for worker in self._workers:
                if not self._aborting:
                    worker.process.join(timeout=5)
                worker.kill()
                if worker.running is not None:
                    worker.running.future.set_exception(RuntimeError("the validation workers were closed before this "
                                                                     "file was validated"))

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not worker.ready or worker.running is not None:
                continue
            with self._lock:
                if not self._pending:
                    return
                job, future = self._pending.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            rss = _rss_mb(worker.process.pid)
            try:
                worker.conn.send(job)
            except OSError:
                self._finish(future, job, "runtime_limit", "the validation worker died before it received this "
                             "file; validate it again", 0.0, 0.0)
                self._replace(worker)
                continue
            worker.running = _Running(job, future, time.monotonic(), rss)

    def _receive(self, worker: _Worker) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._died(worker)
            return
        kind = message[0]
        if kind == "ready":
            worker.ready = True
        elif kind == "failed":
            self._break(message[1])
        elif kind == "done" and worker.running is not None:
            _, report, seconds, memory_mb, retire, instructions = message
            worker.running.future.set_result(JobResult(report, seconds, memory_mb, instructions))
            worker.running = None
            if retire:
                self._replace(worker)

    def _died(self, worker: _Worker) -> None:
        how = worker.died_how()
        running = worker.running
        if running is None and not worker.ready:
            self._break(f"a validation worker exited while starting ({how})")
            return
        if running is not None:
            seconds = time.monotonic() - running.started
            self._finish(running.future, running.job, "runtime_limit",
                         f"The worker process validating this file died ({how}); the other files were validated "
                         "in a new worker. The checker most likely ran out of host memory on values this "
                         "environment returned: return small, plain values.", seconds, 0.0)
        self._replace(worker)

    def _watch(self) -> None:
        """Kill a worker whose job ran past the deadline or grew its memory past the budget."""
        for worker in list(self._workers):
            running = worker.running
            if running is None:
                continue
            seconds = time.monotonic() - running.started
            growth = _rss_mb(worker.process.pid) - running.rss_at_start
            if self.limits.seconds is not None and seconds > self.limits.seconds:
                worker.running = None
                self._replace(worker)
                self._finish(running.future, running.job, "timeout",
                             f"Validating this file took longer than {self.limits.seconds:g} s on the wall clock, the "
                             "backstop for one file (a verdict of the machine's speed and load, not only of the code: "
                             "each call's own limit counts work); make reset(), step() and solution() cheap and "
                             "their results small.", seconds,
                             max(0.0, growth))
            elif growth > self.limits.memory_mb:
                worker.running = None
                self._replace(worker)
                self._finish(running.future, running.job, "runtime_limit", _over_budget(self.limits.memory_mb),
                             seconds, growth)

    def _finish(self, future: Future[JobResult], job: ValidationJob, check: str, message: str, seconds: float,
                memory_mb: float) -> None:
        report = failure_report(job, self.backend_name, self.config, check, message, seconds=seconds)
        future.set_result(JobResult(report, seconds, memory_mb))

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        index = self._workers.index(worker)
        if self._closing and not self._pending:
            self._workers.pop(index)
            return
        self._workers[index] = _Worker(self._context, self._settings)

    def _break(self, reason: str) -> None:
        """No worker can start: fail every job, now and later, with the reason."""
        with self._lock:
            self._broken = reason
            pending, self._pending = list(self._pending), deque()
        for _, future in pending:
            if future.set_running_or_notify_cancel():
                future.set_exception(EnvCrashError(reason))
        for worker in self._workers:
            if worker.running is not None:
                worker.running.future.set_exception(EnvCrashError(reason))
                worker.running = None
        self._closing = True


def run_jobs(jobs: Sequence[ValidationJob], backend_name: str, limits: ExecutionLimits, config: ValidatorConfig, *,
             workers: int = 1, worker_limits: WorkerLimits | None = None) -> Iterator[JobResult]:
    """Yield one ``JobResult`` per job, in order, from ``workers`` worker processes."""
    if not jobs:
        return
    with ValidationWorkers(backend_name, limits, config, max(1, min(workers, len(jobs))),
                           worker_limits=worker_limits) as validation_workers:
        futures = [validation_workers.submit(job) for job in jobs]
        for future in futures:
            yield future.result()


def validate_many(jobs: Sequence[ValidationJob], backend_name: str, limits: ExecutionLimits,
                  config: ValidatorConfig, *, workers: int = 1,
                  worker_limits: WorkerLimits | None = None) -> Iterator[ValidationReport]:
    """Yield one report per job, in order, from ``workers`` worker processes (see the module docstring)."""
    for result in run_jobs(jobs, backend_name, limits, config, workers=workers, worker_limits=worker_limits):
        yield result.report


class ProcessValidator:
    """Validation in worker processes for callers that produce environments one by one (the self-play loop).

    The fuzz tier is pure Python under the GIL, so threads cannot run two validations at once; worker
    processes can. ``validate`` is awaitable so an asyncio caller keeps its model calls going meanwhile.
    """

    def __init__(self, backend_name: str, limits: ExecutionLimits, config: ValidatorConfig, workers: int, *,
                 worker_limits: WorkerLimits | None = None) -> None:
        self._workers = ValidationWorkers(backend_name, limits, config, workers, worker_limits=worker_limits)

    async def validate(self, source: str, label: str | None = None,
                       tiers: tuple[str, ...] | None = None) -> ValidationReport:
        job = ValidationJob(label or "<generated>", source, tiers=tiers)
        result = await asyncio.wrap_future(self._workers.submit(job))
        return result.report

    def worker_pids(self) -> list[int]:
        return self._workers.worker_pids()

    def close(self) -> None:
        self._workers.close()
