"""The sandbox's time limit holds while the host is busy.

By default it counts the guest's instructions (wasmtime fuel), so it stops a call after the same work on
any machine and under any load; with instruction counting off, its clock is a native timer that needs no
GIL. Both hold while the host's threads keep the GIL busy.
"""

from __future__ import annotations

import platform
import re
import sys
import threading
import time

import pytest
import wasmtime

from spade_envs.runtime import EnvTimeoutError, ExecutionLimits, create_backend
from spade_envs.runtime.wasm import WasmBackend, WasmConfig
from spade_envs.runtime.wasm.ticker import NativeTicker, start_ticker
from tests.conftest import dedent

NATIVE = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "aarch64")
LOOP_ENV = dedent(
    """
    class LoopEnv:
        def __init__(self, max_turns=5, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            return "loop", {}

        def step(self, action):
            while True:
                pass

        def solution(self):
            return "x"

        def close(self):
            pass
    """
)


@pytest.mark.skipif(not NATIVE, reason="the native epoch timer exists on Linux x86-64 and aarch64 only")
def test_the_sandbox_uses_the_native_timer_here():
    assert create_backend("wasm", ExecutionLimits(call_timeout_s=1.0)).runtime._ticker.kind == "none"  # fuel only
    backend = WasmBackend(ExecutionLimits(call_timeout_s=1.0), WasmConfig(meter_instructions=False))
    assert isinstance(backend.runtime._ticker, NativeTicker)
    # The backstop's engine (instructions and a clock) is checked without compiling the guest for it, which
    # costs a fresh machine half a minute: it needs the epoch, and the epoch gets the native ticker.
    backstop = WasmConfig(wall_clock_backstop=True)
    assert backstop.uses_epoch and backstop.meter_instructions
    engine_config = wasmtime.Config()
    engine_config.epoch_interruption = True
    ticker = start_ticker(wasmtime.Engine(engine_config), backstop.epoch_tick_s, backstop.ticker)
    try:
        assert isinstance(ticker, NativeTicker)
    finally:
        ticker.stop()
    assert WasmBackend(config=WasmConfig(ticker="thread", meter_instructions=False)).runtime._ticker.kind == "thread"
    with pytest.raises(ValueError, match="unknown epoch ticker"):
        WasmBackend(config=WasmConfig(ticker="sundial", meter_instructions=False))


CONFIGS = {"instructions": WasmConfig(), "wall clock": WasmConfig(meter_instructions=False)}


def _busy_python(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1000))


@pytest.mark.parametrize("mode", list(CONFIGS))
def test_a_limit_holds_while_python_threads_keep_the_gil_busy(mode: str):
    """Two threads running Python hold the GIL nearly all the time; a thread ticker slowed to a third."""
    limit = 1.0
    limits = ExecutionLimits(call_timeout_s=limit)
    backend = WasmBackend(limits, CONFIGS[mode])
    stop = threading.Event()
    busy = [threading.Thread(target=_busy_python, args=(stop,), daemon=True) for _ in range(2)]
    with backend.open_session(LOOP_ENV) as session:
        session.reset(0)
        for thread in busy:
            thread.start()
        try:
            started = time.monotonic()
            with pytest.raises(EnvTimeoutError):
                session.step("go")
            elapsed = time.monotonic() - started
        finally:
            stop.set()
            for thread in busy:
                thread.join()
    if mode == "instructions":  # the work done is the verdict: exactly the budget, however long it took
        assert session.last_instructions == limits.call_instructions
        return
    # A wall-clock limit is the one place seconds are the verdict. Without a timer that works while the GIL
    # is busy it would fire late or never (the loop spins while the clock waits); the allowance is for a busy
    # machine's scheduling, not for the timer.
    allowance = 2 * limit if NATIVE else 4 * limit
    assert elapsed < limit + allowance, f"a {limit:g} s limit fired after {elapsed:.2f} s"


@pytest.mark.parametrize("mode", list(CONFIGS))
def test_the_guest_stops_on_time_while_the_host_sits_in_one_long_c_call(mode: str):
    """A regular expression that backtracks for seconds never releases the GIL. The guest must still stop
    at its limit (it burns no CPU past it); the caller can only return once the GIL is free again."""
    if mode == "wall clock" and not NATIVE:
        pytest.skip("without the native timer the epoch stops while the GIL is held")
    limit = 0.5
    limits = ExecutionLimits(call_timeout_s=limit)
    backend = WasmBackend(limits, CONFIGS[mode])
    measured: dict[str, object] = {}

    def call(session) -> None:
        cpu = time.thread_time()
        try:
            session.step("go")
        except EnvTimeoutError as error:
            measured["error"] = error
        measured["cpu"] = time.thread_time() - cpu

    with backend.open_session(LOOP_ENV) as session:
        session.reset(0)
        worker = threading.Thread(target=call, args=(session,))
        worker.start()
        time.sleep(0.1)  # the guest is running (the GIL is free while it does)
        hog = time.monotonic()
        re.match(r"(a+)+$", "a" * 26 + "b")  # holds the GIL throughout
        hog = time.monotonic() - hog
        worker.join()
    if hog < limit + 0.5:
        pytest.skip(f"the GIL was held for only {hog:.2f} s on this machine; the test needs longer")
    assert isinstance(measured.get("error"), EnvTimeoutError)
    if mode == "instructions":  # stopped by its count: exactly the budget, however long the GIL was held
        assert session.last_instructions == limits.call_instructions
        return
    assert measured["cpu"] < 2 * limit + 0.4, (
        f"the guest ran {measured['cpu']:.2f} s of CPU while the GIL was held {hog:.2f} s (limit {limit} s)")
