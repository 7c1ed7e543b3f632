"""Run only by tests/test_no_stray_processes.py, in a ``pytest -n 1`` of its own (the suite never collects
it: the name does not start with ``test_``). It starts children in each way a test or the toolkit does,
records their pids and the worker's, and waits to be killed."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time

from spade_envs.runtime import ExecutionLimits, create_backend
from tests.conftest import COUNTER_ENV


def _sleep() -> None:
    time.sleep(600)


def test_start_children_then_wait_to_be_killed(tmp_path_factory) -> None:
    started = {
        # careless: a spinner that watches nothing, ended only by a finally the kill skips
        "spinner": subprocess.Popen([sys.executable, "-c", "while True: pass"]).pid,
        # in a session of its own: no signal to the worker's group reaches it
        "own_session": subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                        start_new_session=True).pid,
        # a grandchild: its parent, a shell, is a child of the worker
        "shell": subprocess.Popen(["sh", "-c", "sleep 600 & wait"]).pid,
        # a multiprocessing child (daemon only matters at a clean exit)
        "spawned": _spawned(),
    }
    session = create_backend("process", ExecutionLimits(call_timeout_s=600)).open_session(COUNTER_ENV)
    session.reset(0)  # the process backend's child interpreter, in a session of its own
    started["process_backend"] = session._transport._child.pid
    record = tmp_path_factory.getbasetemp().parent / "children.json"
    partial = record.with_suffix(".tmp")
    partial.write_text(json.dumps({"worker": os.getpid(), "children": started}))
    partial.replace(record)
    time.sleep(600)


def _spawned() -> int:
    process = multiprocessing.get_context("spawn").Process(target=_sleep, daemon=True)
    process.start()
    assert process.pid is not None
    return process.pid
