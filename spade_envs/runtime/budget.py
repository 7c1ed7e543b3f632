"""A memory budget for the sandboxes one process runs at once.

Every sandboxed session is capped at ``ExecutionLimits.memory_mb``, but nothing caps how many are open:
a rollout engine holds dozens of episodes, each designer sample nests its plays, the checker fuzzes
beside them, and their caps add up to more than the host memory that vLLM leaves over on a GPU node.
``MemoryBudget`` is the sum they may reach: a session is opened only once its cap fits in what the open
ones leave, and waits (without holding a thread) until then.

The waiting is asynchronous and works from any event loop, or several: a waiter is woken through its
own loop, so one budget can serve every event loop of a process.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class MemoryBudget:
    """``async with budget.hold(mb)``: wait until ``mb`` more megabytes fit, hold them for the block.

    Waiters are served first come, first served, so a large request is not starved by small ones. A
    request larger than the whole budget waits for the budget to be empty and then holds all of it.
    """

    def __init__(self, total_mb: int) -> None:
        if total_mb < 1:
            raise ValueError(f"a memory budget needs at least 1 MB, got {total_mb}")
        self.total_mb = total_mb
        self._used = 0
        self._lock = threading.Lock()
        self._waiters: deque[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self.peak_mb = 0
        """The most held at once, for reports."""

    @property
    def used_mb(self) -> int:
        return self._used

    @asynccontextmanager
    async def hold(self, mb: int) -> AsyncIterator[None]:
        amount = min(max(mb, 0), self.total_mb)
        await self._acquire(amount)
        try:
            yield
        finally:
            self._release(amount)

    async def _acquire(self, amount: int) -> None:
        loop = asyncio.get_running_loop()
        with self._lock:
            if not self._waiters and self._used + amount <= self.total_mb:
                self._take(amount)
                return
            granted: asyncio.Future[None] = loop.create_future()
            self._waiters.append((amount, loop, granted))
        try:
            await granted
        except asyncio.CancelledError:
            with self._lock:
                if any(waiter[2] is granted for waiter in self._waiters):
                    self._waiters = deque(w for w in self._waiters if w[2] is not granted)
                else:
                    self._used -= amount  # granted just as it was cancelled: give it back
                self._grant_waiting()
            raise

    def _release(self, amount: int) -> None:
        with self._lock:
            self._used -= amount
            self._grant_waiting()

    def _take(self, amount: int) -> None:
        self._used += amount
        self.peak_mb = max(self.peak_mb, self._used)

    def _grant_waiting(self) -> None:
        """Grant the waiters at the head of the queue that fit now (called with the lock held)."""
        while self._waiters and self._used + self._waiters[0][0] <= self.total_mb:
            amount, loop, granted = self._waiters.popleft()
            self._take(amount)  # a waiter cancelled meanwhile gives it back (``_acquire``)
            loop.call_soon_threadsafe(_grant, granted)


def _grant(granted: asyncio.Future[None]) -> None:
    if not granted.done():
        granted.set_result(None)
