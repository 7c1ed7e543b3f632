"""No process a test starts outlives the test run, even when the pytest worker running it is killed.

``pytest -n 2`` runs tests in worker processes. A test that starts a child (a CPU spinner, a server, a
child interpreter, a Ray driver) ends it in a ``finally``; a worker killed mid-test (by the out-of-memory
killer, a crash, a ``kill -9``) runs no ``finally``, and its children, re-parented to init, would go on
spinning and slow every later run on the machine.

Linux lets a process declare itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): orphans among
its descendants are re-parented to it instead of to init. The controlling pytest process declares itself
one, so the children of a dead worker become its own. Its only children of its own are the workers, so
every other child is an orphan: it kills them when a worker goes down, and once more as the run ends.

Children that must not outlive their parent even without this run (a run with ``-n 0``, or the controller
itself killed) also watch their parent: ``tests/children.py``.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
"""From <linux/prctl.h>."""


def become_subreaper() -> bool:
    """Make orphaned descendants of this process its children; False where the system has no such thing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children_of(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``, read from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ')'
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def end_orphans(keep: set[int]) -> list[int]:
    """Kill and reap this process's children other than ``keep``; returns the pids ended."""
    orphans = sorted(children_of(os.getpid()) - keep)
    for pid in orphans:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
    for pid in orphans:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # someone else reaped it
            pass
    return orphans


class Reaper:
    """The controlling process's plugin (registered by tests/conftest.py when xdist runs the suite)."""

    def __init__(self) -> None:
        self.workers: set[int] = set()
        self.ended: list[int] = []

    def pytest_testnodeready(self, node: object) -> None:
        # The controller starts nothing but workers: every child it has now is one (a worker that replaces
        # a dead one comes up after the dead one's orphans were ended).
        self.workers = children_of(os.getpid())

    def pytest_testnodedown(self, node: object, error: object | None) -> None:
        self.workers &= children_of(os.getpid())
        if error is not None:  # a worker died mid-test: whatever it had started is ours now
            self.ended += end_orphans(self.workers)

    def pytest_unconfigure(self, config: object) -> None:
        self.ended += end_orphans(self.workers & children_of(os.getpid()))
