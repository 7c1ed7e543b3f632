"""The thread figure of ``benchmarks/sandbox_bench.py`` runs, cleans up after itself and reports sane numbers.

The benchmark's numbers are reported, not asserted; what is asserted is that the measuring code works: a
floor row that really is the guest call alone (it steps the environment: episodes end and restart), worker
threads that all stop, and a wake-latency child that exits when the pipe closes.
"""

from __future__ import annotations

import importlib.util
import math
import threading
from pathlib import Path

import pytest

from spade_envs.registry import bundled_registry
from spade_envs.runtime import ExecutionLimits, create_backend

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "sandbox_bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("sandbox_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wake_latency_is_measured_and_the_child_exits(bench):
    import multiprocessing

    latency = bench.wake_latency_us(round_trips=500)
    assert math.isfinite(latency) and 0 < latency < 50_000
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("guest_call_only", [False, True])
def test_thread_figure_rows(bench, guest_call_only):
    before = threading.active_count()
    row = bench.bench_threads(create_backend("wasm", ExecutionLimits()), list(bundled_registry()), steps=60,
                              rounds=3, guest_call_only=guest_call_only)
    assert row["environment"] == "number_hunt" and row["rounds"] == 3
    assert row["steps_per_s_1_thread"] > 0 and row["steps_per_s_2_threads"] > 0
    low, high = row["scaling_quartiles"]
    assert 0 < low <= high and row["scaling"] > 0
    assert threading.active_count() == before  # every worker thread stopped


def test_guest_call_only_step_plays_episodes_to_their_end(bench):
    """The floor row must step the game, not a finished episode (whose replies are cheaper): its episodes end
    and are reset, as the full step's are."""
    entry = next(e for e in bundled_registry() if e.name == "number_hunt")
    backend = create_backend("wasm", ExecutionLimits())
    with backend.open_session(entry.source(), class_name=entry.class_name) as session:
        script = bench._script(session, 0)
        session.reset(0)
        transport = session._transport
        calls: list[str] = []
        real = transport._call

        def counting(text, *args):
            calls.append(text)
            return real(text, *args)

        transport._call = counting
        step = bench._Stepper._guest_call_step(session, script)  # made after the counter is in place
        for index in range(40):
            step(index)
    resets = [text for text in calls if '"op": "reset"' in text]
    assert resets, "40 steps of number_hunt (7 turns) must end an episode and reset"
