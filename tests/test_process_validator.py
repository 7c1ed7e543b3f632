"""The process validator: verdicts from worker processes, and no orphaned workers."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from spade_envs.checks.batch import ProcessValidator
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime.limits import ExecutionLimits
from tests.conftest import COUNTER_ENV

STATIC_ONLY = ValidatorConfig(tiers=("static",))

PARENT = """
import asyncio, sys
from spade_envs.checks.batch import ProcessValidator
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime.limits import ExecutionLimits
validator = ProcessValidator("inprocess", ExecutionLimits(), ValidatorConfig(tiers=("static",)), 1)
asyncio.run(validator.validate("x = 1"))
print(*validator.worker_pids(), flush=True)
sys.stdin.read()
"""


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text()
    except FileNotFoundError:
        return False


def test_process_validator_validates_in_workers():
    validator = ProcessValidator("inprocess", ExecutionLimits(), STATIC_ONLY, 1)
    try:
        good = asyncio.run(validator.validate(COUNTER_ENV))
        bad = asyncio.run(validator.validate("import os\nclass BadEnv:\n    pass\n"))
    finally:
        validator.close()
    assert good.ok and not bad.ok and "imports" in {f.check for f in bad.failures}


def test_workers_exit_when_their_parent_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=Path(__file__).resolve().parent.parent)
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert workers and all(_alive(pid) for pid in workers)
    os.kill(parent.pid, signal.SIGKILL)  # no clean shutdown: the validator never tells its workers
    parent.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)
