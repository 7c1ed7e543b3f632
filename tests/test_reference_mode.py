"""Reference mode against the SPADE release's semantics, with values worked out by hand from its code.

Every case runs in both modes: ``reference`` must give the release's number, ``toolkit`` ours, so a test
fails when either drifts. The release's code is cited beside each case (commit in
``spade_train.semantics.RELEASE_COMMIT``); benchmarks/release_differential.py checks the same quantities
on random inputs against a local copy of it.
"""

from __future__ import annotations

import asyncio
import io
import math
import random

import pytest

from spade_envs.runtime import create_backend
from spade_envs.runtime.threads import SessionThreads
from spade_train.advantages import Sample, group_advantages
from spade_train.config.sections import RunConfig
from spade_train.policies.base import SamplingParams
from spade_train.rewards import DesignerRewardConfig, EnvOutcome, score_designer_batch
from spade_train.rollout import RolloutConfig, evaluate_environment
from spade_train.semantics import OPTIONS, SEMANTICS, Semantics, deviations_table, semantics_for
from spade_train.window import WindowDesign, env_reward_scale, score_window

REFERENCE, TOOLKIT = SEMANTICS["reference"], SEMANTICS["toolkit"]


def config(variant: str, semantics: Semantics, **kwargs: object) -> DesignerRewardConfig:
    return DesignerRewardConfig(variant=variant, semantics=semantics, **kwargs)  # type: ignore[arg-type]


def played(unhinted: tuple[float, ...], hinted: tuple[float, ...] = (), skill: str = "S", **kwargs: object) -> EnvOutcome:
    return EnvOutcome(valid=True, timed_out=False, hinted_returns=hinted, unhinted_returns=unhinted, skill=skill,
                      unhinted_wins=tuple(r >= 0.999 for r in unhinted), **kwargs)  # type: ignore[arg-type]


def rewards(outcomes: list[EnvOutcome], cfg: DesignerRewardConfig) -> list[float | None]:
    return [None if r is None else round(r, 12) for r in score_designer_batch(outcomes, cfg).rewards]


# ------------------------------------------------------------------------------------------- 1. win rate
def test_the_plateau_reads_the_mean_return_in_reference_mode() -> None:
    """Issue example: a = [-1, 1], b = [0, 1], no hint; the release's raw rewards [0.0, 0.6], ours [0.6, 0.6]
    (delayed_env_rewards.py:493-494: win rate = mean of the window's returns)."""
    a, b = played((-1.0, 1.0), hint_failed=True), played((0.0, 1.0), hint_failed=True)
    reference = score_designer_batch([a, b], config("blend", REFERENCE))
    assert [round(r, 12) for r in reference.raw] == [0.0, 0.6]
    assert [round(r, 12) for r in score_designer_batch([a, b], config("blend", TOOLKIT)).raw] == [0.6, 0.6]
    # solve_rate (plateau only): mean returns 0.0 and 0.5 -> plateau 0 and 1, centred -0.5 / +0.5.
    assert rewards([a, b], config("solve_rate", REFERENCE)) == [-0.5, 0.5]
    assert rewards([a, b], config("solve_rate", TOOLKIT)) == [0.0, 0.0]


# ------------------------------------------------------------------------------------------- 2. timeouts
@pytest.mark.parametrize("variant", ["blend", "learning_potential", "solve_rate"])
def test_a_timeout_costs_only_regret_based_in_reference_mode(variant: str) -> None:
    """delayed_env_rewards.py:336-340 reads step_timeout in the regret recompute only."""
    hung = EnvOutcome(valid=True, timed_out=True, hinted_returns=(1.0,), unhinted_returns=(1.0,), skill="S")
    assert score_designer_batch([hung], config(variant, REFERENCE)).raw[0] != -0.5
    assert score_designer_batch([hung], config(variant, TOOLKIT)).raw[0] == -0.5
    assert score_designer_batch([hung], config("regret_based", REFERENCE)).raw[0] == -0.5


def test_timeout_against_a_played_design_under_regret_based() -> None:
    """Worked example: t timed out, g regret 1.0 - mean[0, 1] = 0.5; centred -0.5 / +0.5 in both modes."""
    hung = EnvOutcome(valid=True, timed_out=True, hinted_returns=(), unhinted_returns=(), skill="S")
    good = played((0.0, 1.0), (1.0, 1.0))
    for semantics in (REFERENCE, TOOLKIT):
        assert rewards([hung, good], config("regret_based", semantics)) == [-0.5, 0.5]


# ------------------------------------------------------------------------------------------- 3. the window
def test_the_delay_window_scores_all_offsets_and_regret_at_the_first() -> None:
    """Issue example: blend, plays [1, 0] then [1, 1] against an all-0 environment: the release +-0.32 (x scale).
    A: win rate 0.75 -> plateau 0.4 -> 0.24; regret 1 - 0.5 -> 1 -> 0.4; blend 0.64. B: 0. Mean 0.32."""
    a = WindowDesign("S", {0: [1.0, 0.0], 1: [1.0, 1.0]}, hinted_mean=1.0)
    b = WindowDesign("S", {0: [0.0, 0.0], 1: [0.0, 0.0]}, hinted_mean=0.0)
    batch = score_window([a, b], "blend")
    assert [round(r, 12) for r in batch.rewards] == [0.32, -0.32]  # type: ignore[arg-type]
    assert [round(r, 12) for r in score_window([a, b], "blend", scale=8.0).rewards] == [2.56, -2.56]  # type: ignore
    # regret_based: 1 - mean of all four plays = 0.25 against 0: +-0.125.
    assert [round(r, 12) for r in score_window([a, b], "regret_based").rewards] == [0.125, -0.125]  # type: ignore
    # Ours, without a window (the plays of the design attempt only): +-0.5.
    assert rewards([played((1.0, 0.0), (1.0, 1.0)), played((0.0, 0.0), (0.0, 0.0))],
                   config("blend", TOOLKIT)) == [0.5, -0.5]


def test_the_lp_baseline_moves_before_the_window_is_scored() -> None:
    """delayed_env_rewards.py:128-167: the skill's mean 7/16 updates the tracker first, so both raws are
    |mean - 0.4375|: A plays 7/8 -> 0.4375, B plays 0/8 -> 0.4375, centred 0 and 0. The second epoch
    (c = [1, 1, 1, 1], d = [1, 0, 1, 0], mean 0.75) starts from 0.4375: slow = 0.15 * 0.4375 + 0.85 * 0.75."""
    a = WindowDesign("S", {0: [1.0, 0.0], 1: [1.0, 1.0], 2: [1.0, 1.0], 3: [1.0, 1.0]})
    b = WindowDesign("S", {o: [0.0, 0.0] for o in range(4)})
    first = score_window([a, b], "learning_potential")
    assert first.raw == (0.4375, 0.4375) and first.rewards == (0.0, 0.0)
    c, d = WindowDesign("S", {0: [1.0, 1.0, 1.0, 1.0]}), WindowDesign("S", {0: [1.0, 0.0, 1.0, 0.0]})
    second = score_window([c, d], "learning_potential", emas=first.emas)
    slow = 0.15 * 0.4375 + 0.85 * 0.75
    assert second.emas["S"].slow == pytest.approx(slow)
    assert [round(r, 12) for r in second.raw] == [round(1 - slow, 12), round(abs(0.5 - slow), 12)]


def test_the_designer_reward_scale_is_the_release_s() -> None:
    assert env_reward_scale(192, 24, 4) == 32.0  # games: 192 agent samples, 24 designs, every 4 steps
    assert env_reward_scale(192, 24, 8) == 50.0  # tool use: 64, capped at 50
    assert env_reward_scale(0, 24, 4) == 1.0 and env_reward_scale(192, 0, 4) == 1.0


# ------------------------------------------------------------------------------------------- 4. invalid designs
def test_invalid_designs_are_left_out_of_the_centring_in_reference_mode() -> None:
    """Issue example: one invalid design and one valid with regret 1: the release [0] for the valid one
    alone (the invalid one is re-sampled, never trained), ours [-0.5, 0.5]."""
    invalid = EnvOutcome(valid=False, timed_out=False, hinted_returns=(), unhinted_returns=(), skill="S")
    good = played((0.0, 0.0), (1.0, 1.0))
    assert rewards([invalid, good], config("regret_based", REFERENCE)) == [None, 0.0]
    assert rewards([invalid, good], config("regret_based", TOOLKIT)) == [-0.5, 0.5]


def test_the_loop_resamples_an_invalid_design_for_the_same_skill() -> None:
    run = RunConfig.model_validate({"semantics": {"mode": "reference"}, "loop": {"design_attempts": 5}})
    assert run.semantics.resolved().invalid_designs == "resampled" and run.loop.design_attempts == 5
    assert RunConfig().semantics.resolved().invalid_designs == "scored"


# ------------------------------------------------------------------------------------------- 5. failed plays
def test_advantages_of_a_win_a_loss_and_an_erroring_play() -> None:
    """Issue example: [win, loss, error]: the release's error is a -1 return (synthetic_game_env.py:430-434),
    advantages [1.22, 0, -1.22]; ours scores the error 0: [1.41, -0.71, -0.71]."""
    reference = group_advantages([Sample("agent", "g", r) for r in (1.0, 0.0, -1.0)], normalize_std=True)
    assert [round(a, 2) for a in reference.advantages] == [1.22, 0.0, -1.22]  # type: ignore[arg-type]
    toolkit = group_advantages([Sample("agent", "g", r) for r in (1.0, 0.0, 0.0)], normalize_std=True)
    assert [round(a, 2) for a in toolkit.advantages] == [1.41, -0.71, -0.71]  # type: ignore[arg-type]


RAISES_ON_BOOM = '''
class BoomEnv:
    """Say win, lose or boom."""

    max_turns = 1

    def reset(self, seed=None):
        return "Say \\\\boxed{win}.", {}

    def step(self, action):
        if "boom" in action:
            raise RuntimeError("boom")
        return "done", (1.0 if "win" in action else 0.0), True, False, {}

    def solution(self):
        return ["\\\\boxed{win}"]
'''


class _Replies:
    """An agent whose replies come from a list, and that fails calls on request."""

    name = "replies"

    def __init__(self, replies: list[str | None]) -> None:
        self.replies = list(replies)

    async def generate(self, request):
        from spade_train.policies.base import Generation

        reply = self.replies.pop(0)
        return Generation(text="", error="server down") if reply is None else Generation(text=reply)


def _evaluate(replies: list[str | None], **rollout: object):
    backend = create_backend("inprocess")
    pool = SessionThreads(backend)
    try:
        cfg = RolloutConfig(episodes_per_condition=3, sampling=SamplingParams(), return_mode="terminal_clipped",
                            seed=0, **rollout)  # type: ignore[arg-type]
        return asyncio.run(evaluate_environment(_Replies(replies), backend, pool, RAISES_ON_BOOM, hint=None,
                                                config=cfg, rng=random.Random(0)))
    finally:
        pool.close()


def test_an_environment_that_raises_in_step_is_a_minus_one_in_reference_mode() -> None:
    replies = [r"\boxed{win}", r"\boxed{lose}", r"\boxed{boom}"]
    assert _evaluate(replies, environment_errors="minus_one").returns(False) == (1.0, 0.0, -1.0)
    assert _evaluate(replies, environment_errors="zero").returns(False) == (1.0, 0.0, 0.0)


def test_a_failed_unhinted_play_is_retried_once_and_then_dropped() -> None:
    """orchestrator.py:1523-1547: retried once (the retry may win), dropped when it fails again."""
    retried = _evaluate([None, r"\boxed{win}", r"\boxed{lose}", r"\boxed{win}"], failed_plays="retry_then_drop")
    assert sorted(retried.returns(False)) == [0.0, 1.0, 1.0] and len(retried.failed) == 1
    dropped = _evaluate([None, None, r"\boxed{lose}", None, r"\boxed{win}"], failed_plays="retry_then_drop")
    assert sorted(dropped.returns(False)) == [0.0, 1.0] and len(dropped.failed) == 3
    kept = _evaluate([None, r"\boxed{lose}", r"\boxed{win}"], failed_plays="zero")
    assert sorted(kept.returns(False)) == [0.0, 0.0, 1.0] and not kept.failed


def test_regret_with_a_dropped_play_against_a_zero() -> None:
    """Issue example: hinted mean 0.5, unhinted [win, loss, failed]: the release drops the failure,
    regret 0.5 - 0.5 = 0; kept as a 0 it is 0.5 - 1/3 = 0.167."""
    reference = played((1.0, 0.0), (1.0, 0.0))
    toolkit = played((1.0, 0.0, 0.0), (1.0, 0.0))
    assert score_designer_batch([reference], config("regret_based", REFERENCE)).raw[0] == 0.0
    assert score_designer_batch([toolkit], config("regret_based", TOOLKIT)).raw[0] == pytest.approx(1 / 6)


def test_unhinted_plays_are_counted_and_seeded_as_the_release_does() -> None:
    paired = _evaluate([r"\boxed{win}"] * 6, unhinted_episodes=2, play_seeds="paired")
    assert len(paired.unhinted) == 2
    run = RunConfig.model_validate({"semantics": {"mode": "reference"}, "loop": {"unhinted_episodes": 8}})
    rollout = run.rollout()
    assert (rollout.unhinted_episodes, rollout.play_seeds, rollout.failed_plays) == (8, "independent",
                                                                                     "retry_then_drop")
    assert math.ceil(192 / 24) == 8  # the release's unhinted plays per game: ceil(global batch / games)


# ------------------------------------------------------------------------------------------- 6. hint failure
def test_a_failed_hint_counts_as_a_zero_hinted_return_in_reference_mode() -> None:
    """delayed_env_rewards.py:343, 462: r_hint = 0. h (hint failed, unhinted [-1, -1, 0, 0]) and ok (r_hint
    0.5, plays [0, 1]): blend -0.1 / +0.1, regret_based +0.25 / -0.25 in the release."""
    h = played((-1.0, -1.0, 0.0, 0.0), hint_failed=True)
    ok = played((0.0, 1.0), (0.5, 0.5))
    assert rewards([h, ok], config("blend", REFERENCE)) == [-0.1, 0.1]
    assert rewards([h, ok], config("regret_based", REFERENCE)) == [0.25, -0.25]
    assert rewards([h, ok], config("regret_based", TOOLKIT)) == [0.0, 0.0]


# ------------------------------------------------------------------------------------------- 7. regret floor
def test_without_the_floor_regret_is_unclipped_in_reference_mode() -> None:
    """delayed_env_rewards.py:502-504: regret / 0.15 is left as is; ours clips it to [-1, 1]."""
    design = played((0.0, 1.0), (1.0, 1.0))  # regret 0.5 -> 3.33; mean return 0.5 -> plateau 1
    reference = score_designer_batch([design], config("blend", REFERENCE, floor_regret=False)).raw[0]
    toolkit = score_designer_batch([design], config("blend", TOOLKIT, floor_regret=False)).raw[0]
    assert reference == pytest.approx(0.6 + 0.4 * 0.5 / 0.15) and toolkit == pytest.approx(1.0)
    negative = played((0.0, 1.0), (0.0, 0.0))  # regret -0.5: blend 0.6 - 0.4 * 3.33 < 0 -> masked
    assert score_designer_batch([negative, design], config("blend", REFERENCE, floor_regret=False)).rewards[0] is None


# ------------------------------------------------------------------------------------------- the modes
def test_the_two_modes_differ_on_every_option_and_overrides_apply() -> None:
    assert set(REFERENCE.differences(TOOLKIT)) == {option.name for option in OPTIONS}
    assert semantics_for("reference").with_overrides(memory_ties="newest").memory_ties == "newest"
    with pytest.raises(ValueError, match="unknown semantics mode"):
        semantics_for("paper")
    run = RunConfig.model_validate({"semantics": {"mode": "reference", "hint_cleaning": "clean"}})
    assert run.hint_settings().cleaning == "clean" and run.designer_rewards().semantics.win_rate_from == "mean_return"


def test_the_deviations_table_names_every_option_and_its_release_code() -> None:
    table = deviations_table()
    for option in OPTIONS:
        assert f"`semantics.{option.name}`" in table and option.release_code in table


# ------------------------------------------------------------------------------------------- 10. settings
RELEASE_SETTINGS = {
    # recipe: (hint max tokens, hinted plays, unhinted plays, new games, regeneration interval, delay, reward)
    "qwen3-4b-games": (4096, 16, 8, 24, 4, 4, "blend"),
    "qwen3-8b-games": (4096, 16, 8, 24, 4, 4, "blend"),
    "qwen3-30b-a3b-games": (4096, 16, 8, 24, 4, 4, "blend"),
    "qwen3-4b-tool-use": (512, 4, 16, 16, 32, 32, "regret_based"),
    "qwen3-8b-tool-use": (2048, 16, 8, 24, 8, 8, "blend"),
    "qwen3-30b-a3b-tool-use": (2048, 16, 8, 24, 8, 8, "blend"),
}
"""The release's launch scripts (cmd/games/train_spade_{4b,8b,30b}.sh, cmd/tool_use/train_spade_4b.sh,
cmd/tool_use/_train_spade_blend.sh), read flag by flag."""


@pytest.mark.parametrize("recipe", sorted(RELEASE_SETTINGS))
def test_every_paper_recipe_resolves_to_the_release_s_launch_settings(recipe: str) -> None:
    from pathlib import Path

    from spade_train.config.files import load_run_config

    run = load_run_config(Path(__file__).resolve().parent.parent / "configs" / "recipes" / f"{recipe}.toml")
    hint_tokens, hinted, unhinted, games, interval, delay, reward = RELEASE_SETTINGS[recipe]
    agent, designer, hint = run.sampling.agent(), run.sampling.designer(), run.hint_settings()
    assert (agent.temperature, agent.top_p, agent.top_k) == (0.6, 0.95, 20)
    assert (designer.temperature, designer.top_p, designer.top_k) == (0.6, 0.95, 20)
    assert (hint.temperature, hint.top_p, hint.top_k, hint.max_tokens, hint.attempts) == (0.3, 0.9, None,
                                                                                          hint_tokens, 3)
    assert run.semantics.resolved() == REFERENCE and hint.cleaning == "strip_json_fence"
    assert (run.loop.episodes_per_condition, run.loop.unhinted_episodes, run.loop.envs_per_iteration) == (
        hinted, unhinted, games)
    assert (run.openrlhf.designer_every, run.openrlhf.designer_delay_steps, run.loop.reward) == (
        interval, delay, reward)
    assert run.loop.design_attempts == 5  # ref: spade_rollout.py:487 passes max_attempts=5


# ------------------------------------------------------------------------------------------- 8. memory
def test_the_memory_records_the_share_of_positive_returns_in_reference_mode() -> None:
    """spade_rollout.py:728: actor_win_rate = share of plays with return > 0; [-1, 1] gives 0.5 there (the
    blend's win rate for the same plays is their mean, 0.0); [0.5, 0.0] gives 0.5 there and 0 wins here."""
    from spade_train.loop.design import Outcome
    from spade_train.loop.summary import AttemptSummary, DesignerScore

    def summary(returns: tuple[float, ...], wins: tuple[bool, ...]) -> AttemptSummary:
        return AttemptSummary(step=0, kind="multi_turn_game", skill="S", outcome=Outcome.PLAYED, detail="",
                              environment=None, failures=(), repairs=0, hint=None, hint_accepted=None,
                              regret=0.0, regret_ci=None, win_rate_hinted=None,
                              win_rate_unhinted=sum(wins) / len(wins), plays=len(returns), unhinted_wins=wins,
                              score=DesignerScore(raw=0.0, reward=0.0, baseline=None), unhinted_returns=returns)

    assert summary((-1.0, 1.0), (False, True)).memory_win_rate("positive_return") == 0.5
    partial = summary((0.5, 0.0), (False, False))
    assert partial.memory_win_rate("positive_return") == 0.5 and partial.memory_win_rate("wins") == 0.0


def test_memory_ties_keep_the_oldest_in_reference_mode(tmp_path) -> None:
    """env_memory.py:268-291: 11 records tied at regret 0.3 (ids 0-10) and id 11 at 0.9: the pool of 10 is
    [11, 0, 1, ..., 8], so the two newest ties are cut; ours cuts the two oldest."""
    from spade_envs.spec.models import EnvSpec, env_id_for
    from spade_train.environments import EnvironmentRecord
    from spade_train.memory import EnvironmentMemory

    memory = EnvironmentMemory(tmp_path / "m.sqlite3")
    ids = []
    for i in range(12):
        code = f"class Tie{i}Env:\n    pass\n"
        record = EnvironmentRecord(EnvSpec(id=env_id_for(code), class_name=f"Tie{i}Env", skill="S",
                                           kind="multi_turn_game", max_turns=5), code)
        memory.add_environment(record, valid=True)
        memory.record_evaluation(record.spec.id, step=i, unhinted_win_rate=0.5, regret=0.9 if i == 11 else 0.3,
                                 plays=8)
        ids.append(record.spec.id)

    def drawn(ties: str) -> set[str]:
        seen: set[str] = set()
        for seed in range(200):
            seen.update(e.env_id for e in memory.prompt_examples(["S"], random.Random(seed), ties=ties))  # type: ignore
        return seen

    assert drawn("oldest") == {ids[11], *ids[:9]}
    assert drawn("newest") == {ids[11], *ids[2:11]}
    memory.close()


def test_truncated_sampling_is_the_release_s_and_refused_where_log_probs_would_disagree(tmp_path, capsys) -> None:
    """Issue 36, item 4: reference mode samples with the release's top-k/top-p; toolkit mode keeps trained rows
    untruncated and refuses a config that truncates them; the embedded trainer refuses truncation outright."""
    from spade_train.cli import main

    truncated = {"sampling": {"top_p": 0.95, "top_k": 20}}
    assert RunConfig.model_validate({**truncated, "semantics": {"mode": "reference"}}).semantics.resolved(
    ).trained_sampling == "truncated"
    with pytest.raises(ValueError, match="sampling.top_p truncates"):
        RunConfig.model_validate({**truncated, "semantics": {"mode": "toolkit"}})
    with pytest.raises(ValueError, match="sampling.designer_top_k truncates"):
        RunConfig.model_validate({"sampling": {"designer_top_k": 20}})
    RunConfig.model_validate({**truncated, "semantics": {"mode": "toolkit", "trained_sampling": "truncated"}})

    config = tmp_path / "run.toml"
    config.write_text('[sampling]\ntop_p = 0.9\n[semantics]\nmode = "reference"\n', encoding="utf-8")
    code = main(["run", "--config", str(config), "--out", str(tmp_path / "out")], out=io.StringIO())
    assert code == 2 and not (tmp_path / "out").exists()
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "sampling.top_p truncates what the embedded trainer's rows" in error


def test_every_equality_the_deviations_page_claims_names_a_test_that_exists() -> None:
    """Issue 33: the page's table of a whole run's differences is generated from ``DIFFERENCES``; an entry
    that says the run is the release's (or a setting gives the release's value) must name its test, and that
    test must exist, so no equality is claimed that nothing checks."""
    import ast
    from pathlib import Path

    from spade_train.release_differences import DIFFERENCES, differences_table

    root = Path(__file__).resolve().parent.parent
    names = [d.name for d in DIFFERENCES]
    assert len(names) == len(set(names))
    for difference in DIFFERENCES:
        if difference.status == "different":
            assert difference.why and not difference.test, difference.name
            continue
        assert difference.test, f"{difference.name} claims an equality no test backs"
        path, function = difference.test.split("::")
        tree = ast.parse((root / path).read_text(encoding="utf-8"))
        assert function in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}, difference.test
        if difference.status == "option":
            assert difference.setting
    table = differences_table()
    assert all(d.what in table for d in DIFFERENCES)
    assert "<!-- gen: differences -->" in (root / "docs" / "reference" / "deviations.md").read_text(encoding="utf-8")


def release_active_skills(skills: list[str], regeneration: int, per_regeneration: int) -> list[str]:
    """The release's skills for one regeneration (``select_active_skills``, ``spade/slime/spade_rollout.py:
    198-215``): a window of ``per_regeneration`` skills advancing by as many each regeneration, all of them
    when it is 0 or covers every skill."""
    count = len(skills)
    if per_regeneration <= 0 or per_regeneration >= count:
        return list(skills)
    start = (regeneration * per_regeneration) % count
    return [skills[(start + j) % count] for j in range(per_regeneration)]


@pytest.mark.parametrize("recipe", ["qwen3-4b-games", "qwen3-8b-games", "qwen3-30b-a3b-games", "ablation-no-memory"])
def test_each_regeneration_s_designer_rows_take_the_release_s_window_of_skills(recipe: str) -> None:
    """The games scripts pass ``--spade-skills-per-regen 3`` with 6 skills and 24 games, game i taking active
    skill i % 3 (``spade/core/orchestrator.py:1447``): 8 games of each of 3 skills, the window advancing by 3
    each regeneration. A recipe's designer rows, 3 per cycle of rows, are one skill and 8 designs each."""
    from pathlib import Path

    from spade_train.backends.openrlhf.data import designer_rows_per_cycle, plan_rows
    from spade_train.config import load_run_config

    config = load_run_config(Path(__file__).resolve().parent.parent / "configs" / "recipes" / f"{recipe}.toml")
    per_cycle = designer_rows_per_cycle(config)
    assert per_cycle == 3 and config.openrlhf.n_samples_per_prompt == 8 and len(config.loop.skills) == 6
    designer = [label for label in plan_rows(config, actor="a", namespace="n") if label.role == "designer"]
    for regeneration in range(len(designer) // per_cycle):
        rows = designer[regeneration * per_cycle:(regeneration + 1) * per_cycle]
        release = release_active_skills(config.loop.skills, regeneration, 3)
        games = [release[i % len(release)] for i in range(config.loop.envs_per_iteration)]
        assert [row.skill for row in rows] == release
        assert all(games.count(row.skill) == row.samples for row in rows)

