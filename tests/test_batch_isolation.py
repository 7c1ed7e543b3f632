"""Every job of a batch runs in a supervised worker process: whatever one environment does to its worker,
that job gets a report saying so and the batch goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from spade_envs.checks.batch import ProcessValidator, ValidationJob, ValidationWorkers, WorkerLimits, run_jobs
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime import EnvCrashError, ExecutionLimits
from tests.conftest import COUNTER_ENV, dedent

QUICK = ValidatorConfig(tiers=("static", "contract"))
LOOPING = dedent(
    """
    class SpinEnv:
        def __init__(self, max_turns=5, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            self.turn = 0
            return f"Spin, answer as \\\\boxed{{spin}} (seed {seed}).", {}

        def step(self, action):
            while "spin" in action:
                pass
            self.turn += 1
            return "no", 0.0, False, self.turn >= self.max_turns, {}

        def solution(self):
            return "spin"

        def close(self):
            pass
    """
)


def test_a_worker_that_dies_is_replaced_and_its_job_reported() -> None:
    with ValidationWorkers("wasm", ExecutionLimits(call_timeout_s=30.0), QUICK, 1) as workers:
        doomed = workers.submit(ValidationJob("spins.py", LOOPING))
        deadline = time.monotonic() + 20
        while not doomed.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # inside the job now
        (pid,) = workers.worker_pids()
        os.kill(pid, signal.SIGKILL)
        report = doomed.result(timeout=30).report
        after = workers.submit(ValidationJob("good.py", COUNTER_ENV)).result(timeout=60).report
    assert not report.ok and [f.check for f in report.failures] == ["runtime_limit"]
    assert "died (killed by SIGKILL)" in report.failures[0].message
    assert after.ok


def test_a_job_past_its_file_limit_is_stopped_and_the_next_one_runs() -> None:
    jobs = [ValidationJob("spins.py", LOOPING), ValidationJob("good.py", COUNTER_ENV)]
    started = time.monotonic()
    results = list(run_jobs(jobs, "wasm", ExecutionLimits(call_timeout_s=30.0), QUICK, workers=1,
                            worker_limits=WorkerLimits(seconds=1.5)))
    # Without the file limit the spinning call would run to its own 30 s limit (3e11 instructions, a minute or
    # more here); the bounds below leave room for a slow, busy machine's worker starts and supervisor polls.
    assert time.monotonic() - started < 40
    stopped, good = (r.report for r in results)
    assert [f.check for f in stopped.failures] == ["timeout"] and "longer than 1.5 s" in stopped.failures[0].message
    assert 1.5 <= results[0].seconds < 1.5 + 5 and good.ok


def test_workers_that_cannot_start_fail_the_batch_with_one_error() -> None:
    with ValidationWorkers("no-such-backend", ExecutionLimits(), QUICK, 1) as workers:
        future = workers.submit(ValidationJob("good.py", COUNTER_ENV))
        with pytest.raises(EnvCrashError, match="could not start the no-such-backend backend"):
            future.result(timeout=60)


def test_the_process_validator_survives_a_checker_failure() -> None:
    crashing = COUNTER_ENV.replace("max_turns=5", "max_turns=-1")  # the contract probes raised IndexError
    validator = ProcessValidator("wasm", ExecutionLimits(call_timeout_s=2.0), QUICK, 1)
    try:
        bad = asyncio.run(validator.validate(crashing, label="crashing.py"))
        good = asyncio.run(validator.validate(COUNTER_ENV, label="good.py"))
    finally:
        validator.close()
    assert not bad.ok and good.ok  # a runtime_limit finding here; a max_turns finding once the checker checks it


@pytest.mark.parametrize(("field", "value"), [("memory_mb", 0), ("seconds", 0.0), ("seconds", -1.0)])
def test_worker_limits_must_be_positive(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        WorkerLimits(**{field: value})
