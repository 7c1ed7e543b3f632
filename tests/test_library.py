"""The bundled environment library: every entry passes every check and works through gymnasium."""

from __future__ import annotations

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
