"""The gem-llm / TextArena adapters of benchmarks/third_party load and play through the process backend.

These tests skip when gem-llm or textarena is not installed (CI installs only ``.[dev]``, so there they
skip); install them with ``pip install gem-llm==0.1.0 textarena==0.7.4`` to run them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.runtime.backend import create_backend
from spade_envs.runtime.limits import ExecutionLimits

ADAPTERS_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "third_party" / "adapters.py"


def _adapters():
    spec = importlib.util.spec_from_file_location("third_party_adapters", ADAPTERS_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("third_party_adapters", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def backend():
    # gem imports numpy and reasoning_gym: allow more address space than the 256 MB default.
    return create_backend("process", ExecutionLimits(call_timeout_s=30, memory_mb=1024))


def test_gem_adapter_plays_through_the_process_backend(backend):
    pytest.importorskip("gem")
    adapters = _adapters()
    spec = adapters.probe_game("gem", "game:GuessTheNumber-v0-easy")
    assert spec.probe_error is None and spec.max_turns == 4 and spec.game_has_limit
    source = adapters.render_adapter(spec)
    static = run_static_checks(source, StaticConfig(extra_modules=frozenset({"gem"})))
    assert static.ok, static.failures
    assert static.class_name == "GemGuessTheNumberV0EasyEnv"
    with backend.open_session(source) as env:
        assert env.loaded.max_turns == 4
        first = env.reset(0)
        assert "Guess The Number" in first.observation
        assert env.reset(0).observation == first.observation  # seeded
        step = env.step("\\boxed{5}")  # a valid guess in 1..10: the game gives a hint and goes on
        assert not step.done and step.reward == 0.0 and "guessed 5" in step.observation
        end = env.step("no box at all")  # gem ends the episode on a format error, reward -0.1
        assert end.terminated and end.reward == pytest.approx(-0.1)
        after = env.step("no box at all")  # raw adapter: forwarded, and gem pays the penalty again
        assert after.reward == pytest.approx(-0.1)
        assert env.solution() is None


def test_guard_shim_stops_forwarding_after_the_end(backend):
    pytest.importorskip("gem")
    adapters = _adapters()
    spec = adapters.probe_game("gem", "game:GuessTheNumber-v0-easy")
    with backend.open_session(adapters.render_adapter(spec, ("guard_after_end",))) as env:
        env.reset(1)
        assert env.step("nothing").terminated
        after = env.step("nothing")
        assert after.reward == 0.0 and after.terminated


def test_textarena_adapter_converts_boxed_actions(backend):
    pytest.importorskip("textarena")
    adapters = _adapters()
    spec = adapters.probe_game("textarena", "GuessTheNumber-v0")
    assert spec.probe_error is None and spec.max_turns == 10
    source = adapters.render_adapter(spec)
    assert run_static_checks(source, StaticConfig(extra_modules=frozenset({"textarena"}))).ok
    with backend.open_session(source) as env:
        first = env.reset(0)
        assert "Guess The Number" in first.observation
        step = env.step("I think it is \\boxed{10}")  # sent to the game as "[10]"
        assert "[Player] [10]" in step.observation
        assert not step.done and step.reward == 0.0
        assert step.info == {}


def test_offline_reasons_and_names():
    adapters = _adapters()
    assert adapters.class_name_for("textarena", "2048-v0") == "TextArenaGame2048V0Env"
    assert adapters.file_name_for("gem", "game:Game2048-v0-extreme-hard") == "gem_game2048_v0_extreme_hard_env.py"
    assert adapters.offline_reason("LookupError: Resource words not found. Please use the NLTK Downloader")
    assert adapters.offline_reason("OpenRouter API key not found (OPENROUTER_API_KEY)")
    assert adapters.offline_reason("SyntaxError: invalid syntax") is None
    with pytest.raises(ValueError):
        adapters.render_adapter(adapters.GameSpec("gem", "x", "XEnv", 5, True, True), ("no_such_shim",))
