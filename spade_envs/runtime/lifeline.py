"""A child process that ends when the process that started it is gone.

Worker and environment processes are started by a host that may be killed outright (SIGKILL, the
out-of-memory killer), so no shutdown ever reaches them; one busy in a call never reads its closed pipe
either, and one in a session of its own gets no signal sent to the host's group. Each therefore watches
its parent: once it has been re-parented, the process it served is gone, and it exits.
"""

from __future__ import annotations

import os
import threading
import time

WATCH_INTERVAL_S = 1.0
"""How often a child checks that its parent is still the process that started it."""


def exit_with_parent(parent: int, interval_s: float = WATCH_INTERVAL_S) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit``) once ``parent`` is no longer its
    parent. Pass the parent's pid as the parent knew it, so that a parent that died before this call is
    noticed at once."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval_s)
        os._exit(0)

    thread = threading.Thread(target=watch, daemon=True, name="parent-watch")
    thread.start()
    return thread
