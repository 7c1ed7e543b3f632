"""The bundled environment library: every entry passes every check and works through gymnasium."""

from __future__ import annotations

import re

import pytest
from gymnasium.utils.env_checker import check_env

from spade_envs.checks import CheckConfig, ValidatorConfig, validate_source
from spade_envs.checks.static import run_static_checks
from spade_envs.gym_adapter import SpadeGymEnv
from spade_envs.registry import bundled_registry

REGISTRY = bundled_registry()
NAMES = REGISTRY.names()
GAME_SKILLS = {"Mathematical Reasoning", "Logical Deduction", "Spatial Reasoning", "Pattern Recognition",
               "Optimization", "Causal Inference"}


def test_library_covers_the_issue_scope():
    entries = list(REGISTRY)
    assert len(entries) >= 12
    kinds = {e.kind for e in entries}
    assert kinds == {"single_answer", "multi_turn_game", "corpus_grounded", "tool_use"}
    assert GAME_SKILLS <= {e.skill for e in entries if e.kind == "multi_turn_game"}


@pytest.mark.parametrize("name", NAMES)
def test_bundled_environment_passes_every_check(name, inprocess):
    entry = REGISTRY.get(name)
    config = ValidatorConfig(dynamic=CheckConfig(seeds=tuple(range(8))))
    report = validate_source(entry.source(), inprocess, path=name, config=config)
    assert report.ok, [f"{f.check}: {f.message}" for f in report.failures]
    assert not report.warnings, report.warnings
    assert report.class_name == entry.class_name


@pytest.mark.parametrize("name", NAMES)
def test_registry_metadata_matches_the_code(name, inprocess):
    entry = REGISTRY.get(name)
    static = run_static_checks(entry.source())
    assert static.class_name == entry.class_name
    assert static.tool_use == (entry.kind == "tool_use")
    with REGISTRY.create_env(name, inprocess) as session:
        assert session.loaded.max_turns == entry.max_turns
        declared = session.loaded.reward_range or (-1.0, 1.0)
        assert tuple(declared) == entry.reward_range
    assert entry.spec().class_name == entry.class_name


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_env_checker_accepts_the_adapter(name, inprocess):
    env = SpadeGymEnv(REGISTRY.create_env(name, inprocess))
    try:
        check_env(env, skip_render_check=True)
        obs, _ = env.reset(seed=5)
        assert env.observation_space.contains(obs)
        obs, reward, _terminated, _truncated, info = env.step(env.action_space.sample())
        assert isinstance(reward, float) and isinstance(info, dict)
    finally:
        env.close()


# ---------------------------------------------------------------------------------------------- answers
BOX = re.compile(r"\\boxed\{([^{}]*)\}")
KNOWN_GOOD = {
    "spaces inside the box": lambda inner: f"\\boxed{{  {inner}  }}",
    "reasoning before it": lambda inner: f"Let me work through it step by step.\nSo the answer is \\boxed{{{inner}}}",
    "a sentence after it": lambda inner: f"\\boxed{{{inner}}}\nThat is my final answer.",
    "an empty box after it": lambda inner: f"\\boxed{{{inner}}} \\boxed{{}}",
}
"""Replies that give the reference answer (or move) and must be paid as it is."""
KNOWN_BAD = {
    "negated": lambda inner: f"\\boxed{{not {inner}}}",
    "hedged": lambda inner: f"\\boxed{{999 or {inner}}}",
    "disowned": lambda inner: f"\\boxed{{{inner} (this is wrong)}}",
    "qualified": lambda inner: f"\\boxed{{maybe {inner}}}",
    "empty": lambda inner: "\\boxed{}",
    "no box": lambda inner: f"I am not sure, perhaps {inner}.",
}
"""Replies that hold the reference answer (or move) without giving it, and must earn nothing for it."""


def _boxed_solution(session) -> list[str] | None:
    """The reference play as boxed replies, or None when the environment is not answered in boxes."""
    solution = session.solution()
    actions = solution if isinstance(solution, list) else [f"\\boxed{{{solution}}}"]
    if not all(isinstance(action, str) and BOX.fullmatch(action.strip()) for action in actions):
        return None
    return actions


def _play_with_last(session, seed: int, actions: list[str], last: str) -> float:
    session.reset(seed)
    total = 0.0
    for action in [*actions[:-1], last]:
        step = session.step(action)
        total += step.reward
        if step.done:
            break
    return total


@pytest.mark.parametrize("name", [name for name in NAMES if REGISTRY.get(name).kind != "tool_use"])
def test_bundled_answers_are_paid_for_what_they_say(name, inprocess):
    """The known-answer probes of issue 47 on every bundled environment answered in boxes (all but the
    tool-use ones, answered in calls): the reference
    answer (its final reply) written in harmless other ways is paid in full, and hedged, negated,
    disowned or empty replies holding it earn less than the reference play. Before: chain_arithmetic and truth_tellers paid "\\boxed{not 12}" and
    "\\boxed{999 or 12}" as correct, and every environment refused a correct reply followed by an empty box."""
    with REGISTRY.create_env(name, inprocess) as session:
        session.reset(0)
        assert _boxed_solution(session) is not None, f"{name} is not answered in \\boxed{{}}"
        for seed in range(4):
            session.reset(seed)
            actions = _boxed_solution(session)
            inner = BOX.fullmatch(actions[-1].strip()).group(1)
            full = _play_with_last(session, seed, actions, actions[-1])
            for variant, write in KNOWN_GOOD.items():
                assert _play_with_last(session, seed, actions, write(inner)) == pytest.approx(full), (seed, variant)
            for variant, write in KNOWN_BAD.items():
                assert _play_with_last(session, seed, actions, write(inner)) < full, (seed, variant)
