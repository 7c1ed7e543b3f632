"""The sandboxes' memory budget (issue 36, item 3): sessions beside vLLM never hold more than the budget
together, waiting holds no thread (so a small worker pool cannot deadlock on it), and a cancelled waiter
gives its place back."""

from __future__ import annotations

import asyncio
import threading

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.budget import MemoryBudget
from spade_envs.runtime.threads import SessionThreads
from tests.conftest import COUNTER_ENV


def test_holders_never_exceed_the_budget_across_threads_and_event_loops() -> None:
    budget = MemoryBudget(1000)
    held, peak, lock = [0], [0], threading.Lock()

    async def holder(mb: int) -> None:
        async with budget.hold(mb):
            with lock:
                held[0] += mb
                peak[0] = max(peak[0], held[0])
            await asyncio.sleep(0.001)
            with lock:
                held[0] -= mb

    async def many(offset: int) -> None:
        await asyncio.gather(*(holder(100 + 50 * ((i + offset) % 7)) for i in range(60)))

    threads = [threading.Thread(target=lambda o=o: asyncio.run(many(o))) for o in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert held[0] == 0 and budget.used_mb == 0
    assert peak[0] <= 1000 and budget.peak_mb <= 1000 and budget.peak_mb >= 400  # it was used, within bounds


def test_a_cancelled_waiter_and_an_oversized_request_give_their_place_back() -> None:
    async def scenario() -> None:
        budget = MemoryBudget(300)
        async with budget.hold(200):
            waiter = asyncio.create_task(_hold(budget, 200))
            await asyncio.sleep(0.01)
            assert not waiter.done()  # 200 + 200 > 300: it waits
            waiter.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiter
        assert budget.used_mb == 0
        async with budget.hold(10_000):  # larger than the whole budget: holds all of it
            assert budget.used_mb == 300
        assert budget.used_mb == 0
        with pytest.raises(ValueError, match="at least 1 MB"):
            MemoryBudget(0)

    asyncio.run(scenario())


async def _hold(budget: MemoryBudget, mb: int) -> None:
    async with budget.hold(mb):
        await asyncio.sleep(0)


def test_sessions_within_a_budget_of_two_on_one_worker_thread_all_finish() -> None:
    """Eight episodes share one worker thread and a budget of two sessions: opening waits on the event loop,
    not on the thread the open sessions need for their steps, so all of them finish, two at most open."""
    backend = create_backend("inprocess", ExecutionLimits(call_timeout_s=5.0, memory_mb=100))
    budget = MemoryBudget(200)
    open_now, most = [0], [0]

    async def episode(seed: int, threads: SessionThreads) -> float:
        async with threads.session(COUNTER_ENV) as session:
            open_now[0] += 1
            most[0] = max(most[0], open_now[0])
            await threads.run_async(session.reset, seed)
            for _ in range(3):
                step = await threads.run_async(session.step, "1")
                await asyncio.sleep(0)
            open_now[0] -= 1
            return step.reward

    async def scenario() -> list[float]:
        with SessionThreads(backend, workers=1, budget=budget) as threads:
            return await asyncio.wait_for(asyncio.gather(*(episode(seed, threads) for seed in range(8))), 60)

    rewards = asyncio.run(scenario())
    assert len(rewards) == 8 and most[0] == 2 and budget.peak_mb == 200 and budget.used_mb == 0
