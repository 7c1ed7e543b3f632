"""Child processes for tests and benchmarks that end with the process that started them, however it ends.

A CPU spinner (a stand-in for a busy machine) that outlived a killed test would slow every later run on
the machine. These watch their parent as the toolkit's worker processes do
(``spade_envs.runtime.lifeline``): a few times a second each checks whether it has been re-parented (the
parent is gone) and exits if so. Under ``pytest -n`` the controlling process also ends a killed worker's
children (``tests/reaper.py``); this covers a plain ``pytest`` or a benchmark killed outright.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

_SPIN = ("import sys\n"
         "from spade_envs.runtime.lifeline import exit_with_parent\n"
         "exit_with_parent(int(sys.argv[1]), interval_s=0.2)\n"
         "while True:\n"
         "    pass\n")
"""Spins until killed; the toolkit's own parent watch (``spade_envs.runtime.lifeline``) ends it with its
parent."""


def spinner() -> subprocess.Popen[bytes]:
    """A process that keeps one core busy until it is killed or this process is gone."""
    return subprocess.Popen([sys.executable, "-c", _SPIN, str(os.getpid())], stdin=subprocess.DEVNULL)


@contextmanager
def spinners(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` spinners for the duration of a block (a machine that busy), ended after it."""
    started = [spinner() for _ in range(count)]
    try:
        yield started
    finally:
        for process in started:
            process.kill()
        for process in started:
            process.wait()

