"""A pytest worker killed mid-test leaves no process behind.

``tests/orphans/killed_worker.py`` runs in a ``pytest -n 1`` of its own: its test starts children in each
way a test or the toolkit does (a careless spinner, a process in a session of its own, a shell's
grandchild, a multiprocessing child, the process backend's child interpreter), records them, and waits.
This test kills that worker with SIGKILL, so no ``finally`` and no fixture teardown runs, and then finds
every one of those processes gone: the controlling pytest process, a child subreaper, ends the orphans
(``tests/reaper.py``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

INNER = REPO_ROOT / "tests" / "orphans" / "killed_worker.py"


def _alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False


def _wait_for(path: Path, process: subprocess.Popen[str], seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            output = process.stdout.read() if process.stdout else ""
            raise AssertionError(f"the inner run never recorded its children:\n{output[-3000:]}")
        time.sleep(0.1)
    return json.loads(path.read_text())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="child subreapers are a Linux feature")
def test_a_worker_killed_mid_test_leaves_no_process_behind(tmp_path: Path) -> None:
    basetemp = tmp_path / "inner"
    command = [sys.executable, "-m", "pytest", "-n", "1", "--max-worker-restart", "0", "-p", "no:cacheprovider",
               "-q", f"--basetemp={basetemp}", str(INNER)]
    inner = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    recorded: dict = {}
    try:
        recorded = _wait_for(basetemp / "children.json", inner, 120)
        children = recorded["children"]
        assert set(children) == {"spinner", "own_session", "shell", "spawned", "process_backend"}
        assert all(_alive(pid) for pid in children.values()), children
        os.kill(recorded["worker"], signal.SIGKILL)
        output, _ = inner.communicate(timeout=120)
        assert "crashed" in output, output[-2000:]
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in children.values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {name: pid for name, pid in children.items() if _alive(pid)}
        assert not left, f"still running after the worker was killed: {left}"
    finally:  # a failing run must not leave them either
        with_pids = list(recorded.get("children", {}).values()) + ([recorded["worker"]] if recorded else [])
        for pid in with_pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.killpg(inner.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        inner.wait()
