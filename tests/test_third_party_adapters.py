"""The gem-llm / TextArena / Reasoning Gym adapters (spade_envs.interop.third_party) load and play through
the process backend.

These tests skip when gem-llm or textarena is not installed (CI installs only ``.[dev]``, so there they
skip); install them with ``pip install 'spade-toolkit[interop]'`` to run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.interop import third_party
from spade_envs.pool import read_pool
from spade_envs.runtime.backend import create_backend
from spade_envs.runtime.limits import ExecutionLimits


@pytest.fixture(scope="module")
def backend():
    # gem imports numpy and reasoning_gym: allow more address space than the 256 MB default.
    return create_backend("process", ExecutionLimits(call_timeout_s=30, memory_mb=1024))


def test_gem_adapter_plays_through_the_process_backend(backend):
    pytest.importorskip("gem")
    spec = third_party.probe_game("gem", "game:GuessTheNumber-v0-easy")
    assert spec.probe_error is None and spec.max_turns == 4 and spec.game_has_limit
    source = third_party.render_adapter(spec)
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
    spec = third_party.probe_game("gem", "game:GuessTheNumber-v0-easy")
    with backend.open_session(third_party.render_adapter(spec, ("guard_after_end",))) as env:
        env.reset(1)
        assert env.step("nothing").terminated
        after = env.step("nothing")
        assert after.reward == 0.0 and after.terminated


def test_textarena_adapter_converts_boxed_actions(backend):
    pytest.importorskip("textarena")
    spec = third_party.probe_game("textarena", "GuessTheNumber-v0")
    assert spec.probe_error is None and spec.max_turns == 10
    source = third_party.render_adapter(spec)
    assert run_static_checks(source, StaticConfig(extra_modules=frozenset({"textarena"}))).ok
    with backend.open_session(source) as env:
        first = env.reset(0)
        assert "Guess The Number" in first.observation
        step = env.step("I think it is \\boxed{10}")  # sent to the game as "[10]"
        assert "[Player] [10]" in step.observation
        assert not step.done and step.reward == 0.0
        assert step.info == {}


def test_offline_reasons_and_names():
    assert third_party.class_name_for("textarena", "2048-v0") == "TextArenaGame2048V0Env"
    assert third_party.file_name_for("gem", "game:Game2048-v0-extreme-hard") == "gem_game2048_v0_extreme_hard_env.py"
    assert third_party.offline_reason("LookupError: Resource words not found. Please use the NLTK Downloader")
    assert third_party.offline_reason("OpenRouter API key not found (OPENROUTER_API_KEY)")
    assert third_party.offline_reason("SyntaxError: invalid syntax") is None
    with pytest.raises(ValueError):
        third_party.render_adapter(third_party.GameSpec("gem", "x", "XEnv", 5, True, True), ("no_such_shim",))


def test_reasoning_gym_adapter_scores_with_the_task_itself(backend):
    pytest.importorskip("reasoning_gym")
    spec = third_party.probe_game("reasoning_gym", "chain_sum")
    assert spec.probe_error is None and spec.max_turns == 1
    source = third_party.render_adapter(spec)
    assert run_static_checks(source, StaticConfig(extra_modules=frozenset({"reasoning_gym"}))).ok
    with backend.open_session(source) as env:
        first = env.reset(3)
        assert "57 + 87 + 70" in first.observation and "\\boxed{ANSWER}" in first.observation
        answer = env.solution()
        assert answer == "214"
        right = env.step(f"so \\boxed{{{answer}}}")
        assert right.terminated and right.reward == 1.0
        env.reset(3)
        wrong = env.step("\\boxed{7}")
        assert wrong.terminated and wrong.reward == 0.0


def test_baseline_pool_of_gem_textarena_and_reasoning_gym(tmp_path: Path, backend):
    pytest.importorskip("gem")
    pytest.importorskip("textarena")
    games = [("gem", "game:GuessTheNumber-v0-easy"), ("textarena", "GuessTheNumber-v0"),
             ("reasoning_gym", "basic_arithmetic")]
    specs = third_party.baseline_pool(tmp_path / "baselines", games)
    loaded = read_pool(tmp_path / "baselines")
    assert [entry.spec for entry, _ in loaded] == specs
    assert [s.kind for s in specs] == ["multi_turn_game", "multi_turn_game", "single_answer"]
    assert "imports textarena" in specs[1].description
    entry, source = loaded[-1]  # the games played above; the task plays here, as its spec says
    with backend.open_session(source, class_name=entry.spec.class_name) as env:
        env.reset(0)
        assert env.step(f"\\boxed{{{env.solution()}}}").reward == 1.0
    with pytest.raises(ValueError, match="unknown library"):
        third_party.baseline_pool(tmp_path / "x", [("nope", "game")])
