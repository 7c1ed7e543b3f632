"""The inprocess backend through the session API: replies, errors, time limits, recovery."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spade_envs.runtime import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvTimeoutError,
    ExecutionLimits,
    create_backend,
)
from tests.conftest import COUNTER_ENV


def test_session_runs_an_episode(inprocess):
    with inprocess.open_session(COUNTER_ENV) as env:
        assert env.loaded.class_name == "CounterEnv" and env.loaded.max_turns == 5
        first = env.reset(3)
        answer = env.solution()
        step = env.step(f"\\boxed{{{answer}}}")
        assert step.reward == 1.0 and step.terminated and "plus" in first.observation


def test_max_turns_and_kwargs_reach_the_constructor(inprocess):
    with inprocess.open_session(COUNTER_ENV, max_turns=2) as env:
        assert env.loaded.max_turns == 2


def test_exception_in_step_carries_the_environment_traceback(inprocess):
    source = COUNTER_ENV.replace("self.turn += 1", "self.turn += 1\n        items = []\n        items[self.turn]")
    with inprocess.open_session(source) as env:
        env.reset(0)
        with pytest.raises(EnvCodeError) as caught:
            env.step("x")
    error = caught.value
    assert error.exc_type == "IndexError" and error.phase == "step"
    assert "items[self.turn]" in error.traceback and "in step" in error.traceback
    assert "spade_envs" not in error.traceback  # only the environment's own frames
    assert error.line == source.splitlines().index("        items[self.turn]") + 1


def test_error_message_never_calls_hostile_str(inprocess):
    source = COUNTER_ENV + (
        "\nclass _Evil(Exception):\n    def __str__(self):\n        while True:\n            pass\n"
    ) + "\n"
    source = source.replace("self.turn += 1", "self.turn += 1\n        raise _Evil('plain text')")
    with inprocess.open_session(source) as env:
        env.reset(0)
        with pytest.raises(EnvCodeError, match="plain text"):
            env.step("x")


def test_load_errors(inprocess):
    with pytest.raises(EnvLoadError, match="exactly one public class"):
        inprocess.open_session("class Helper:\n    pass\n")
    with pytest.raises(EnvCodeError) as caught:
        inprocess.open_session("x = 1 / 0\n")
    assert caught.value.phase == "load" and caught.value.exc_type == "ZeroDivisionError"


def test_bad_replies_become_contract_violations(inprocess):
    source = COUNTER_ENV.replace('return "wrong", 0.0, False, truncated, {}', 'return "wrong", "0", False, truncated')
    with inprocess.open_session(source) as env:
        env.reset(0)
        with pytest.raises(ContractViolation) as caught:
            env.step("x")
    assert caught.value.check == "step_returns" and "5-tuple" not in str(caught.value)


def test_timeout_breaks_the_session_and_reset_recovers():
    backend = create_backend("inprocess", ExecutionLimits(call_timeout_s=0.2))
    source = COUNTER_ENV.replace("self.turn += 1", "self.turn += 1\n        while action == 'loop':\n            pass")
    with backend.open_session(source) as env:
        env.reset(0)
        with pytest.raises(EnvTimeoutError, match="0.2 s"):
            env.step("loop")
        with pytest.raises(EnvCrashError, match="reset"):
            env.step("x")
        env.reset(0)  # a fresh instance replaces the broken one
        assert env.step("x").reward == 0.0


@pytest.mark.parametrize("name", ["inprocess", "wasm"])
def test_play_after_a_broken_call_starts_a_fresh_instance(name):
    """play() begins with a reset, so it recovers as reset() does: a contract violation on one episode
    must not make the checker's next replay fail with a spurious 'session broke' error."""
    source = COUNTER_ENV.replace('return "wrong", 0.0, False, truncated, {}', 'return "wrong", "0", False, truncated')
    with create_backend(name).open_session(source) as env:
        env.reset(0)
        with pytest.raises(ContractViolation):
            env.step("x")
        first, steps = env.play(0, [])  # used to raise "this session broke on an earlier call"
        winning = f"\\boxed{{{env.solution()}}}"
        _, steps = env.play(0, [winning])
        assert first.observation and steps[0].reward == 1.0 and steps[0].terminated


def test_unknown_backend_names_the_choices():
    with pytest.raises(ValueError, match="choose one of: inprocess"):
        create_backend("docker")


CLOCK_ENV = '''
import time
import datetime


class ClockEnv:
    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return f"{time.time():.3f} {datetime.datetime.now().year}", {}

    def step(self, action):
        return "ok", 0.0, True, False, {}
'''


def test_a_prepared_namespace_serves_one_load_and_each_load_keeps_its_own_clock():
    """The sandbox's guest hands its host a namespace built with its image: the first load uses it (with
    the clock the load asks for), and a later load in the same host builds its own, never sharing it."""
    from spade_envs.runtime.guest import EnvHost, EnvironmentNamespace, VirtualClock

    prepared = EnvironmentNamespace.fresh(VirtualClock(0.0))
    host = EnvHost(prepared=prepared)
    load = {"op": "load", "source": CLOCK_ENV, "clock": {"start": 86_400.0 * 365 * 40, "tick": 1.0}}
    assert host.handle(load)["ok"]
    assert host.clock is prepared.clock and prepared.clock.start == 86_400.0 * 365 * 40
    first = host.handle({"op": "reset", "seed": 0})["result"][0]
    assert first.startswith("1261440001.000 2009")  # 40 years after 1970 plus one tick: the load's clock

    assert host.handle({**load, "clock": {"start": 1_000.0, "tick": 2.0}})["ok"]
    assert host.clock is not prepared.clock  # the second load built its own namespace and clock
    assert host.handle({"op": "reset", "seed": 0})["result"][0].startswith("1002.000 1970")
    assert prepared.clock.start == 86_400.0 * 365 * 40  # untouched by the second load


def test_sandbox_sessions_each_see_the_clock_they_were_opened_with():
    from spade_envs.runtime import create_backend

    backend = create_backend("wasm")
    with backend.open_session(CLOCK_ENV, clock_offset_s=-1e9) as early, backend.open_session(CLOCK_ENV) as now:
        early_time = float(early.reset(0).observation.split()[0])
        now_time = float(now.reset(0).observation.split()[0])
    assert 0.9e9 < now_time - early_time < 1.1e9


def test_a_reply_size_the_c_copy_cannot_take_is_refused_whatever_the_reply_limit(monkeypatch):
    """The copy of a reply out of the sandbox takes its size as a C int: a size at or past that limit is
    refused like an oversized reply, even when ``max_reply_bytes`` would allow it (a C int would wrap)."""
    from spade_envs.runtime import EnvCrashError, ExecutionLimits, create_backend
    from spade_envs.runtime.wasm import host

    backend = create_backend("wasm", ExecutionLimits(max_reply_bytes=1 << 40))
    with backend.open_session(COUNTER_ENV) as session:
        monkeypatch.setattr(host, "_STRING_AT_LIMIT", 40)  # stands in for 2 GiB: short replies pass, others not
        assert session.hint() is None  # '{"ok": true, "result": null}' is under the limit
        with pytest.raises(EnvCrashError, match="over the"):
            session.reset(0)


SWALLOWS_THE_FIRST_ALARM = COUNTER_ENV.replace("self.turn += 1", """self.turn += 1
        if action == 'loop':
            try:
                while True:
                    pass
            except BaseException:
                pass  # the first alarm lost, as when it lands in a garbage-collector callback
            while True:
                pass""")


def test_an_inprocess_time_limit_holds_when_its_first_alarm_is_lost():
    """Run in a child: if the limit did not hold, the child would spin until the subprocess timeout."""
    script = ("import sys; from spade_envs.runtime import EnvTimeoutError, ExecutionLimits, create_backend\n"
              "backend = create_backend('inprocess', ExecutionLimits(call_timeout_s=0.2))\n"
              "with backend.open_session(sys.stdin.read()) as env:\n"
              "    env.reset(0)\n"
              "    try:\n"
              "        env.step('loop')\n"
              "    except EnvTimeoutError as error:\n"
              "        print('stopped:', error)\n")
    done = subprocess.run([sys.executable, "-c", script], input=SWALLOWS_THE_FIRST_ALARM, capture_output=True,
                          text=True, timeout=60, check=False, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0 and "stopped: the environment's step() ran longer than 0.2 s" in done.stdout, (
        done.stdout + done.stderr[-2000:])
