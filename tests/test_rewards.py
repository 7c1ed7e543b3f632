"""Designer rewards: regret, win rate, plateau, the four variants, centering, masking, EMA, bootstrap.

Expected values are worked out by hand in the comments so a failure says which rule broke.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spade_train.rewards import (
    BLEND_PLATEAU_WEIGHT,
    BLEND_REGRET_SCALE,
    BLEND_REGRET_WEIGHT,
    EMA_FAST_WEIGHT,
    EMA_SLOW_WEIGHT,
    INVALID_ENV_REWARD,
    PLATEAU_HIGH,
    PLATEAU_LOW,
    PLATEAU_RAMP,
    STEP_TIMEOUT_REWARD,
    VARIANTS,
    DesignerRewardConfig,
    EnvOutcome,
    WinRateEMA,
    blend,
    bootstrap_regret_ci,
    center_per_skill,
    designer_reward,
    learning_potential,
    plateau,
    regret,
    regret_based,
    returns_from_episodes,
    score_designer_batch,
    solve_rate,
    win_rate,
)

PROPERTY = settings(max_examples=50, deadline=None)
"""Property tests stay fast and never flake on a loaded machine (no per-example deadline)."""

EXACT = 1e-12


def plays(wins: int, total: int = 16) -> tuple[float, ...]:
    """``wins`` won plays (return 1.0) out of ``total``, the rest lost (0.0)."""
    return (1.0,) * wins + (0.0,) * (total - wins)


def outcome(
    hinted_wins: int = 8,
    unhinted_wins: int = 8,
    *,
    skill: str = "Logic",
    valid: bool = True,
    timed_out: bool = False,
) -> EnvOutcome:
    return EnvOutcome(
        valid=valid,
        timed_out=timed_out,
        hinted_returns=plays(hinted_wins),
        unhinted_returns=plays(unhinted_wins),
        skill=skill,
    )


finite_returns = st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=1, max_size=20)


# --- reference constants -------------------------------------------------------------------


def test_reference_constants():
    assert (INVALID_ENV_REWARD, STEP_TIMEOUT_REWARD) == (0.0, -0.5)
    assert (PLATEAU_LOW, PLATEAU_HIGH, PLATEAU_RAMP) == (0.4, 0.6, 0.25)
    assert (BLEND_PLATEAU_WEIGHT, BLEND_REGRET_WEIGHT, BLEND_REGRET_SCALE) == (0.6, 0.4, 0.15)
    assert (EMA_FAST_WEIGHT, EMA_SLOW_WEIGHT) == (0.98, 0.85)
    assert set(VARIANTS) == {"regret_based", "blend", "learning_potential", "solve_rate"}


# --- returns and regret ----------------------------------------------------------------------


def test_returns_from_episodes_uses_the_contract_rule():
    episodes = [
        ([0.0, 1.0], True),  # terminated: last reward
        ([0.5], False),  # truncated: worth nothing
        ([2.0], True),  # clipped to 1
        ([-3.0], True),  # clipped to -1
        ([], True),  # no reward at all
    ]
    assert returns_from_episodes(episodes) == (1.0, 0.0, 1.0, -1.0, 0.0)


def test_regret_is_mean_hinted_minus_mean_unhinted():
    # 0.5 - 0.25
    assert regret([1, 1, 0, 0], [1, 0, 0, 0]) == pytest.approx(0.25, abs=EXACT)
    # groups of different sizes: 2/3 - 1/4
    assert regret([1, 1, 0], [1, 0, 0, 0]) == pytest.approx(2 / 3 - 1 / 4, abs=EXACT)


def test_regret_can_be_negative_when_the_hint_hurts():
    assert regret(plays(4), plays(12)) == pytest.approx(-0.5, abs=EXACT)


@pytest.mark.parametrize("hinted, unhinted", [([], [1.0]), ([1.0], []), ([], [])])
def test_regret_with_an_empty_side_is_zero(hinted, unhinted):
    assert regret(hinted, unhinted) == 0.0


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_regret_rejects_non_finite_returns(bad):
    with pytest.raises(ValueError, match="finite"):
        regret([1.0, bad], [0.0])
    with pytest.raises(ValueError, match="finite"):
        regret([1.0], [bad])


@pytest.mark.parametrize("bad", ["1", None, True])
def test_regret_rejects_non_numeric_returns(bad):
    with pytest.raises(TypeError):
        regret([1.0, bad], [0.0])


@PROPERTY
@given(finite_returns, finite_returns)
def test_regret_is_antisymmetric(a, b):
    assert regret(a, b) == pytest.approx(-regret(b, a), abs=1e-9)


# --- win rate ------------------------------------------------------------------------------


def test_win_rate_counts_returns_at_or_above_the_threshold():
    # default threshold 0.999: 1.0 and 0.999 win, 0.998 / 0.0 / -1.0 do not
    assert win_rate([1.0, 0.999, 0.998, 0.0, -1.0]) == pytest.approx(2 / 5)
    assert win_rate([0.5, 0.4, 1.0, 0.0], threshold=0.5) == pytest.approx(0.5)


def test_win_rate_of_no_plays_is_zero():
    assert win_rate([]) == 0.0


@pytest.mark.parametrize("threshold", [0.0, -0.5, 1.5, math.nan])
def test_win_rate_rejects_thresholds_outside_zero_one(threshold):
    with pytest.raises(ValueError):
        win_rate([1.0], threshold=threshold)


def test_win_rate_rejects_nan():
    with pytest.raises(ValueError, match="finite"):
        win_rate([1.0, math.nan])


# --- plateau -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate, expected",
    [
        (0.0, 0.0),
        (0.15, 0.0),  # low - ramp: the ramp reaches 0
        (0.2, 0.2),  # 1 - 0.2 / 0.25
        (0.275, 0.5),  # halfway down the ramp
        (0.4, 1.0),  # low edge
        (0.5, 1.0),
        (0.6, 1.0),  # high edge
        (0.725, 0.5),
        (0.85, 0.0),  # high + ramp
        (0.9, 0.0),
        (1.0, 0.0),
    ],
)
def test_plateau_shape_and_boundaries(rate, expected):
    assert plateau(rate) == pytest.approx(expected, abs=1e-9)


def test_plateau_is_continuous_just_inside_the_ramps():
    assert plateau(0.16) == pytest.approx(0.04, abs=1e-9)
    assert plateau(0.84) == pytest.approx(0.04, abs=1e-9)
    assert plateau(0.399999) == pytest.approx(1.0, abs=1e-4)


def test_plateau_with_zero_ramp_is_a_hard_band():
    assert plateau(0.4, ramp=0.0) == 1.0
    assert plateau(0.39, ramp=0.0) == 0.0
    assert plateau(0.61, ramp=0.0) == 0.0


def test_plateau_custom_band():
    # band [0.2, 0.3], ramp 0.1: 0.35 is halfway down the upper ramp
    assert plateau(0.35, low=0.2, high=0.3, ramp=0.1) == pytest.approx(0.5)


@pytest.mark.parametrize(
    "kwargs", [{"low": 0.6, "high": 0.4}, {"ramp": -0.1}, {"win_rate": math.nan}, {"low": math.inf}]
)
def test_plateau_rejects_bad_arguments(kwargs):
    args = {"win_rate": 0.5} | kwargs
    with pytest.raises(ValueError):
        plateau(**args)


@PROPERTY
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_plateau_is_within_zero_one(rate):
    assert 0.0 <= plateau(rate) <= 1.0


@PROPERTY
@given(st.floats(min_value=0.0, max_value=0.5))
def test_plateau_is_symmetric_around_the_band_centre(d):
    assert plateau(0.5 - d) == pytest.approx(plateau(0.5 + d), abs=1e-9)


@PROPERTY
@given(st.floats(min_value=-1.0, max_value=0.4), st.floats(min_value=-1.0, max_value=0.4))
def test_plateau_rises_towards_the_band(a, b):
    low, high = sorted((a, b))
    assert plateau(low) <= plateau(high)


# --- the variants --------------------------------------------------------------------------


def test_regret_based_floors_negative_regret():
    assert regret_based(0.25) == 0.25
    assert regret_based(0.0) == 0.0
    assert regret_based(-0.3) == 0.0


@pytest.mark.parametrize(
    "rate, reg, expected",
    [
        (0.5, 0.15, 0.6 + 0.4),  # full plateau, full regret share
        (0.5, 0.075, 0.6 + 0.4 * 0.5),  # half the regret scale
        (0.5, 0.6, 1.0),  # regret share capped at 1
        (0.275, 0.3, 0.6 * 0.5 + 0.4),  # halfway down the ramp
        (1.0, 0.0, 0.0),  # too easy, hint useless
        (1.0, -0.5, 0.0),  # negative regret floored: never below 0
        (0.0, 0.15, 0.4),  # too hard, but the hint helps
    ],
)
def test_blend_matches_the_paper_formula(rate, reg, expected):
    assert blend(rate, reg) == pytest.approx(expected, abs=1e-9)


def test_blend_without_floor_can_go_negative_and_is_bounded():
    # regret -0.075 / 0.15 = -0.5 -> 0.4 * -0.5
    assert blend(1.0, -0.075, floor_regret=False) == pytest.approx(-0.2)
    # clipped at -1: 0.4 * -1
    assert blend(1.0, -0.9, floor_regret=False) == pytest.approx(-0.4)


def test_blend_rejects_a_non_positive_regret_scale():
    with pytest.raises(ValueError):
        blend(0.5, 0.1, regret_scale=0.0)


@PROPERTY
@given(st.floats(min_value=0.0, max_value=1.0), st.floats(min_value=-2.0, max_value=2.0))
def test_floored_blend_is_within_zero_one(rate, reg):
    assert 0.0 <= blend(rate, reg) <= 1.0 + 1e-12


@PROPERTY
@given(st.floats(min_value=0.0, max_value=1.0))
def test_solve_rate_is_the_plateau(rate):
    assert solve_rate(rate) == plateau(rate)


# --- learning-potential EMA ----------------------------------------------------------------


def test_ema_first_update_seeds_both_averages():
    fresh = WinRateEMA()
    assert fresh.baseline == 0.0
    seeded = fresh.update(0.5)
    assert (seeded.fast, seeded.slow) == (0.5, 0.5)
    assert fresh.slow is None  # the original is untouched


def test_ema_update_arithmetic():
    state = WinRateEMA().update(0.5).update(1.0)
    # fast: 0.02 * 0.5 + 0.98 * 1.0; slow: 0.15 * 0.5 + 0.85 * 1.0
    assert state.fast == pytest.approx(0.99)
    assert state.slow == pytest.approx(0.925)
    state = state.update(0.0)
    # fast: 0.02 * 0.99; slow: 0.15 * 0.925
    assert state.fast == pytest.approx(0.0198)
    assert state.slow == pytest.approx(0.13875)
    assert state.baseline == state.slow


def test_ema_is_immutable_and_validated():
    state = WinRateEMA().update(0.3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.slow = 0.9  # type: ignore[misc]
    with pytest.raises(ValueError):
        WinRateEMA(fast=0.5, slow=None)
    with pytest.raises(ValueError):
        WinRateEMA(slow_weight=0.0)
    with pytest.raises(ValueError):
        WinRateEMA(fast=math.nan, slow=0.5)
    with pytest.raises(ValueError):
        state.update(math.nan)


def test_learning_potential_is_distance_from_the_slow_baseline():
    ema = WinRateEMA(fast=0.9, slow=0.5)
    assert learning_potential(0.75, ema) == pytest.approx(0.25)
    assert learning_potential(0.25, ema) == pytest.approx(0.25)
    # unseeded baseline reads as 0: the reward is the win rate itself
    assert learning_potential(0.6, WinRateEMA()) == pytest.approx(0.6)


# --- one environment -----------------------------------------------------------------------


def test_env_outcome_normalises_and_validates_returns():
    o = EnvOutcome(True, False, [1.0, 0], [0.5], "Logic")  # type: ignore[arg-type]
    assert o.hinted_returns == (1.0, 0.0) and o.unhinted_returns == (0.5,)
    hash(o)  # frozen and tuple-valued: usable as a key
    with pytest.raises(ValueError, match="finite"):
        EnvOutcome(True, False, (math.nan,), (), "Logic")
    with pytest.raises(ValueError, match=r"\[-1, 1\]"):
        EnvOutcome(True, False, (2.0,), (), "Logic")  # a raw reward, not a return
    with pytest.raises(ValueError, match="skill"):
        EnvOutcome(True, False, (), (), "")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "regret"},
        {"variant": "blend", "scale": 0.0},
        {"variant": "blend", "scale": math.nan},
        {"variant": "blend", "regret_scale": 0.0},
        {"variant": "blend", "plateau_low": 0.7},
        {"variant": "blend", "win_threshold": 0.0},
    ],
)
def test_config_rejects_bad_settings(kwargs):
    with pytest.raises(ValueError):
        DesignerRewardConfig(**kwargs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_special_outcomes_override_every_variant(variant):
    config = DesignerRewardConfig(variant)
    ema = WinRateEMA()
    assert designer_reward(outcome(16, 8, valid=False), config, ema) == 0.0
    assert designer_reward(outcome(16, 8, timed_out=True), config, ema) == -0.5
    # a timeout wins over invalidity
    assert designer_reward(outcome(valid=False, timed_out=True), config, ema) == -0.5


def test_special_outcome_values_come_from_the_config():
    config = DesignerRewardConfig("blend", invalid_reward=-0.1, timeout_reward=-1.0)
    assert designer_reward(outcome(valid=False), config) == -0.1
    assert designer_reward(outcome(timed_out=True), config) == -1.0


def test_designer_reward_regret_based():
    config = DesignerRewardConfig("regret_based")
    assert designer_reward(outcome(12, 4), config) == pytest.approx(0.5)  # 0.75 - 0.25
    assert designer_reward(outcome(4, 12), config) == 0.0  # floored


def test_designer_reward_blend():
    # unhinted 8/16 -> plateau 1; regret 10/16 - 8/16 = 0.125 -> 0.4 * 0.125 / 0.15
    assert designer_reward(outcome(10, 8), DesignerRewardConfig("blend")) == pytest.approx(0.6 + 0.4 / 1.2)


def test_designer_reward_blend_judges_wins_by_the_threshold():
    partial = EnvOutcome(True, False, (0.5,) * 4, (0.5,) * 4, "Logic")
    # every play returns 0.5, none a win: win rate 0 -> plateau 0; regret 0
    assert designer_reward(partial, DesignerRewardConfig("blend")) == 0.0
    # with a 0.5 threshold they all win: win rate 1 -> plateau 0 still
    assert designer_reward(partial, DesignerRewardConfig("blend", win_threshold=0.5)) == 0.0


def test_designer_reward_solve_rate():
    # 3/16 = 0.1875: 0.2125 below the band -> 1 - 0.2125 / 0.25 = 0.15
    assert designer_reward(outcome(16, 3), DesignerRewardConfig("solve_rate")) == pytest.approx(0.15)


def test_designer_reward_learning_potential_needs_the_ema():
    config = DesignerRewardConfig("learning_potential")
    assert designer_reward(outcome(8, 8), config, WinRateEMA(fast=0.3, slow=0.25)) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="WinRateEMA"):
        designer_reward(outcome(8, 8), config)


# --- centering -----------------------------------------------------------------------------


def test_center_per_skill_subtracts_each_skills_mean_then_scales():
    rewards = [1.0, 3.0, 10.0, 0.5]
    skills = ["a", "a", "b", "c"]
    # a: mean 2 -> -1, 1; b and c are alone -> 0
    assert center_per_skill(rewards, skills) == pytest.approx([-1.0, 1.0, 0.0, 0.0])
    assert center_per_skill(rewards, skills, scale=10.0) == pytest.approx([-10.0, 10.0, 0.0, 0.0])


def test_center_per_skill_edge_cases():
    assert center_per_skill([], []) == []
    with pytest.raises(ValueError, match="length"):
        center_per_skill([1.0], ["a", "b"])
    with pytest.raises(ValueError, match="finite"):
        center_per_skill([1.0, math.nan], ["a", "a"])


skill_batches = st.lists(
    st.tuples(st.floats(min_value=-10, max_value=10), st.sampled_from("abcd")), max_size=30
)


@PROPERTY
@given(skill_batches, st.floats(min_value=0.1, max_value=100))
def test_centering_sums_to_zero_per_skill(batch, scale):
    rewards, skills = [r for r, _ in batch], [s for _, s in batch]
    centered = center_per_skill(rewards, skills, scale=scale)
    for skill in set(skills):
        assert math.fsum(c for c, s in zip(centered, skills) if s == skill) == pytest.approx(0.0, abs=1e-9)


@PROPERTY
@given(skill_batches, st.floats(min_value=-5, max_value=5))
def test_centering_ignores_a_skill_wide_offset(batch, offset):
    rewards, skills = [r for r, _ in batch], [s for _, s in batch]
    shifted = [r + offset if s == "a" else r for r, s in batch]
    assert center_per_skill(shifted, skills) == pytest.approx(center_per_skill(rewards, skills), abs=1e-9)


# --- a batch: masking, centering, EMA -------------------------------------------------------


def test_batch_regret_based_centers_per_skill_and_scales():
    outcomes = [
        outcome(12, 4, skill="A"),  # regret 0.5
        outcome(4, 8, skill="A"),  # regret -0.25 -> 0
        outcome(skill="B", timed_out=True),  # -0.5
        outcome(12, 8, skill="B"),  # regret 0.25
    ]
    batch = score_designer_batch(outcomes, DesignerRewardConfig("regret_based", scale=10.0))
    assert batch.raw == pytest.approx((0.5, 0.0, -0.5, 0.25))
    # A mean 0.25, B mean -0.125; times 10
    assert batch.rewards == pytest.approx((2.5, -2.5, -3.75, 3.75))
    assert batch.masked == ()


def test_batch_blend_masks_negative_blends_before_centering():
    config = DesignerRewardConfig("blend", floor_regret=False)
    outcomes = [
        outcome(8, 8, skill="A"),  # plateau 1, regret 0 -> 0.6
        outcome(14, 16, skill="A"),  # win rate 1 -> plateau 0; regret -0.125 -> 0.4 * -0.8333 < 0
        outcome(4, 4, skill="A"),  # win rate 0.25 -> plateau 0.4 -> 0.24
    ]
    batch = score_designer_batch(outcomes, config)
    assert batch.raw == pytest.approx((0.6, -0.4 * 0.125 / 0.15, 0.24))
    assert batch.masked == (1,)
    # centered over the two kept envs only: mean 0.42
    assert batch.rewards[0] == pytest.approx(0.18)
    assert batch.rewards[1] is None
    assert batch.rewards[2] == pytest.approx(-0.18)


def test_batch_blend_with_the_paper_settings_masks_nothing():
    outcomes = [outcome(8, 8), outcome(14, 16), outcome(4, 4)]
    batch = score_designer_batch(outcomes, DesignerRewardConfig("blend"))
    assert batch.masked == ()
    assert batch.raw[1] == 0.0  # floored, not negative


def test_batch_blend_never_masks_a_timeout():
    outcomes = [outcome(8, 8), outcome(timed_out=True)]
    batch = score_designer_batch(outcomes, DesignerRewardConfig("blend", floor_regret=False))
    assert batch.masked == ()
    # raw 0.6 and -0.5, mean 0.05
    assert batch.rewards == pytest.approx((0.55, -0.55))


def test_batch_learning_potential_scores_against_the_old_ema_then_updates_it():
    config = DesignerRewardConfig("learning_potential")
    first = [outcome(16, 8, skill="A"), outcome(16, 16, skill="A")]
    batch = score_designer_batch(first, config)
    # unseeded baseline 0: raw = the win rates 0.5 and 1.0
    assert batch.raw == pytest.approx((0.5, 1.0))
    # pooled unhinted win rate 24/32 seeds the EMA
    assert (batch.emas["A"].fast, batch.emas["A"].slow) == (0.75, 0.75)

    second = score_designer_batch([outcome(16, 4, skill="A")], config, batch.emas)
    assert second.raw == pytest.approx((0.5,))  # |0.25 - 0.75|
    assert second.emas["A"].slow == pytest.approx(0.15 * 0.75 + 0.85 * 0.25)
    assert second.emas["A"].fast == pytest.approx(0.02 * 0.75 + 0.98 * 0.25)


def test_batch_ema_ignores_unplayed_envs_and_does_not_mutate_its_input():
    config = DesignerRewardConfig("learning_potential")
    start = {"A": WinRateEMA(fast=0.2, slow=0.2), "B": WinRateEMA(fast=0.9, slow=0.9)}
    batch = score_designer_batch(
        [outcome(8, 8, skill="A"), outcome(skill="B", valid=False), outcome(skill="B", timed_out=True)],
        config,
        start,
    )
    assert batch.emas["B"] == start["B"]  # no played env for B
    assert batch.emas["A"].slow == pytest.approx(0.15 * 0.2 + 0.85 * 0.5)
    assert start["A"].slow == 0.2
    with pytest.raises(TypeError):
        batch.emas["A"] = WinRateEMA()  # type: ignore[index]


def test_batch_of_nothing():
    batch = score_designer_batch([], DesignerRewardConfig("blend"))
    assert batch.rewards == () and batch.raw == () and dict(batch.emas) == {}


# --- bootstrap CI --------------------------------------------------------------------------


def test_bootstrap_ci_contains_the_point_estimate():
    hinted, unhinted = plays(10), plays(6)
    low, high = bootstrap_regret_ci(hinted, unhinted)
    assert low <= regret(hinted, unhinted) <= high
    assert low < high


def test_bootstrap_ci_is_reproducible_with_the_seed():
    args = (plays(10), plays(6))
    assert bootstrap_regret_ci(*args, seed=7) == bootstrap_regret_ci(*args, seed=7)
    assert bootstrap_regret_ci(*args, seed=7) != bootstrap_regret_ci(*args, seed=8)


def test_bootstrap_ci_leaves_the_global_random_state_alone():
    random.seed(123)
    state = random.getstate()
    bootstrap_regret_ci(plays(10), plays(6))
    assert random.getstate() == state


def test_bootstrap_ci_narrows_with_more_plays():
    low16, high16 = bootstrap_regret_ci(plays(10, 16), plays(6, 16))
    low160, high160 = bootstrap_regret_ci(plays(100, 160), plays(60, 160))
    assert high160 - low160 < 0.5 * (high16 - low16)  # ~1/sqrt(10) of the width


def test_bootstrap_ci_widens_with_confidence():
    args = (plays(10), plays(6))
    low80, high80 = bootstrap_regret_ci(*args, confidence=0.8)
    low99, high99 = bootstrap_regret_ci(*args, confidence=0.99)
    assert low99 <= low80 and high80 <= high99


def test_bootstrap_ci_of_constant_groups_is_a_point():
    assert bootstrap_regret_ci(plays(16), plays(0)) == (1.0, 1.0)


def test_bootstrap_ci_of_an_empty_group_follows_the_regret_rule():
    assert bootstrap_regret_ci([], plays(3)) == (0.0, 0.0)


@pytest.mark.parametrize(
    "kwargs", [{"samples": 0}, {"samples": 2.5}, {"confidence": 1.0}, {"confidence": 0.0}]
)
def test_bootstrap_ci_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        bootstrap_regret_ci(plays(10), plays(6), **kwargs)


def test_bootstrap_ci_rejects_nan():
    with pytest.raises(ValueError, match="finite"):
        bootstrap_regret_ci([1.0, math.nan], [0.0])


@PROPERTY
@given(finite_returns, finite_returns, st.integers(min_value=0, max_value=2**32))
def test_bootstrap_ci_stays_within_the_possible_regrets(hinted, unhinted, seed):
    low, high = bootstrap_regret_ci(hinted, unhinted, samples=50, seed=seed)
    assert low <= high + 1e-12
    assert min(hinted) - max(unhinted) - 1e-9 <= low
    assert high <= max(hinted) - min(unhinted) + 1e-9


def test_a_reply_without_an_environment_can_cost_more_than_an_invalid_one():
    malformed = EnvOutcome(valid=False, timed_out=False, hinted_returns=(), unhinted_returns=(), skill="s",
                           malformed=True)
    invalid = EnvOutcome(valid=False, timed_out=False, hinted_returns=(), unhinted_returns=(), skill="s")
    reference = DesignerRewardConfig(variant="blend")
    assert designer_reward(malformed, reference) == designer_reward(invalid, reference) == 0.0
    strict = DesignerRewardConfig(variant="blend", malformed_reward=-0.2)
    assert designer_reward(malformed, strict) == -0.2 and designer_reward(invalid, strict) == 0.0


def test_a_repeated_design_can_cost_more_than_an_invalid_one():
    repeat = EnvOutcome(valid=False, timed_out=False, hinted_returns=(), unhinted_returns=(), skill="s",
                        repeat=True)
    reference = DesignerRewardConfig(variant="blend")
    assert designer_reward(repeat, reference) == 0.0
    strict = DesignerRewardConfig(variant="blend", repeat_reward=-0.3, malformed_reward=-0.1)
    assert designer_reward(repeat, strict) == -0.3
    with pytest.raises(ValueError, match="repeat_reward"):
        DesignerRewardConfig(variant="blend", repeat_reward=float("nan"))


# --- checker warnings ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_warnings_cost_what_the_config_says(variant):
    ema = WinRateEMA()
    plain = dataclasses.replace(outcome(12, 4))
    warned = dataclasses.replace(plain, warnings=5)
    free = DesignerRewardConfig(variant=variant)
    priced = DesignerRewardConfig(variant=variant, warning_penalty=0.1)
    assert designer_reward(warned, free, ema) == designer_reward(plain, free, ema)  # reported only, by default
    assert designer_reward(warned, priced, ema) == pytest.approx(designer_reward(plain, priced, ema) - 0.3)  # 3 count


def test_a_penalised_environment_is_still_trained_on():
    # a blend of about 0 less its warning cost is below the mask line, but the mask reads the blend itself
    config = DesignerRewardConfig(variant="blend", warning_penalty=0.2)
    batch = score_designer_batch([dataclasses.replace(outcome(0, 0), warnings=1), outcome(16, 0)], config)
    assert batch.rewards[0] is not None and batch.raw[0] == pytest.approx(designer_reward(outcome(0, 0), config) - 0.2)


def test_special_outcomes_pay_no_warning_cost():
    config = DesignerRewardConfig(variant="blend", warning_penalty=0.5)
    invalid = dataclasses.replace(outcome(valid=False), warnings=2)
    assert designer_reward(invalid, config) == INVALID_ENV_REWARD


def test_the_run_config_decides_what_warnings_cost():
    from spade_train.config.sections import RunConfig

    assert RunConfig().designer_rewards().warning_penalty == 0.0
    penalised = RunConfig.model_validate({"loop": {"warnings": "penalised", "warning_penalty": 0.25}})
    assert penalised.designer_rewards().warning_penalty == 0.25
