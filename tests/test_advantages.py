"""Group-normalised advantages: grouping, z-score vs centering, zero-variance policy, both roles."""

from __future__ import annotations

import math
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spade_train.advantages import (
    REFERENCE_STD_EPSILON,
    ROLE_NORMALIZES_STD,
    AdvantageResult,
    Sample,
    ZeroVariance,
    agent_group,
    group_advantages,
    role_advantages,
)

PROPERTY = settings(max_examples=50, deadline=None)
"""Property tests stay fast and never flake on a loaded machine (no per-example deadline)."""

SQRT3 = math.sqrt(3.0)


def agent(env: str, reward: float, condition: str = "unhinted") -> Sample:
    return Sample("agent", agent_group(env, condition), reward)  # type: ignore[arg-type]


def designer(skill: str, reward: float) -> Sample:
    return Sample("designer", skill, reward)


# --- samples and group keys -----------------------------------------------------------------


def test_reference_settings():
    assert dict(ROLE_NORMALIZES_STD) == {"agent": True, "designer": False}
    assert REFERENCE_STD_EPSILON == 1e-8


@pytest.mark.parametrize("reward", [math.nan, math.inf, -math.inf])
def test_sample_rejects_non_finite_rewards(reward):
    with pytest.raises(ValueError, match="finite"):
        Sample("agent", "e/unhinted", reward)


@pytest.mark.parametrize("reward", ["1", None, True])
def test_sample_rejects_non_numeric_rewards(reward):
    with pytest.raises(TypeError, match="reward"):
        Sample("agent", "e/unhinted", reward)


def test_sample_rejects_unknown_roles_and_empty_groups():
    with pytest.raises(ValueError, match="role"):
        Sample("hinter", "g", 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="group"):
        Sample("agent", "", 1.0)


def test_agent_groups_separate_environments_and_conditions():
    keys = {agent_group("e1", "hinted"), agent_group("e1", "unhinted"), agent_group("e2", "hinted")}
    assert len(keys) == 3
    with pytest.raises(ValueError):
        agent_group("e1", "maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        agent_group("", "hinted")


# --- group_advantages: the two modes -------------------------------------------------------


def test_centered_advantages_are_reward_minus_group_mean():
    samples = [agent("e", 1.0), agent("e", 0.0), agent("e", 0.0), agent("e", 0.0)]
    result = group_advantages(samples, normalize_std=False)
    # mean 0.25
    assert result.advantages == pytest.approx((0.75, -0.25, -0.25, -0.25))


def test_z_scored_advantages_use_the_population_std():
    samples = [agent("e", 1.0), agent("e", 0.0), agent("e", 0.0), agent("e", 0.0)]
    result = group_advantages(samples, normalize_std=True, epsilon=0.0)
    # mean 0.25, population std sqrt(0.1875) = sqrt(3)/4: 0.75 / std = sqrt(3), -0.25 / std = -1/sqrt(3)
    assert result.advantages == pytest.approx((SQRT3, -1 / SQRT3, -1 / SQRT3, -1 / SQRT3))


def test_epsilon_is_added_to_the_std():
    samples = [agent("e", 1.0), agent("e", 0.0)]
    # mean 0.5, std 0.5: 0.5 / (0.5 + 1) = 1/3
    result = group_advantages(samples, normalize_std=True, epsilon=1.0)
    assert result.advantages == pytest.approx((1 / 3, -1 / 3))


@pytest.mark.parametrize("epsilon", [-1e-8, math.nan, math.inf])
def test_bad_epsilon_is_rejected(epsilon):
    with pytest.raises(ValueError, match="epsilon"):
        group_advantages([agent("e", 1.0)], normalize_std=True, epsilon=epsilon)


def test_groups_are_independent_and_input_order_is_kept():
    samples = [
        agent("e1", 1.0),
        agent("e2", 5.0),
        agent("e1", 0.0),
        agent("e1", 1.0, "hinted"),  # a different group from e1/unhinted
        agent("e2", 3.0),
        agent("e1", 0.0, "hinted"),
    ]
    result = group_advantages(samples, normalize_std=False)
    assert result.advantages == pytest.approx((0.5, 1.0, -0.5, 0.5, -1.0, -0.5))


def test_equal_group_names_in_two_roles_are_separate_groups():
    samples = [Sample("agent", "x", 1.0), Sample("agent", "x", 0.0), Sample("designer", "x", 10.0)]
    result = group_advantages(samples, normalize_std=False)
    # the designer sample is alone in ("designer", "x"), so it is not compared with the agent's
    assert result.advantages == pytest.approx((0.5, -0.5, 0.0))
    assert result.zero_variance_groups == (("designer", "x"),)


def test_no_samples_no_groups():
    result = group_advantages([], normalize_std=True)
    assert result == AdvantageResult((), (), ZeroVariance.FLAG)


# --- zero-variance groups ------------------------------------------------------------------


@pytest.mark.parametrize("normalize_std", [True, False])
def test_flag_keeps_flat_groups_with_zero_advantage(normalize_std):
    samples = [agent("won", 1.0), agent("won", 1.0), agent("mixed", 1.0), agent("mixed", 0.0)]
    result = group_advantages(samples, normalize_std=normalize_std, zero_variance=ZeroVariance.FLAG)
    assert result.advantages[:2] == (0.0, 0.0)
    assert result.advantages[2] > 0 > result.advantages[3]
    assert result.zero_variance_groups == (("agent", agent_group("won", "unhinted")),)
    assert result.kept == (0, 1, 2, 3)


def test_drop_removes_flat_groups_from_training():
    samples = [agent("mixed", 1.0), agent("won", 1.0), agent("mixed", 0.0), agent("won", 1.0)]
    result = group_advantages(samples, normalize_std=True, zero_variance=ZeroVariance.DROP)
    assert result.advantages[1] is None and result.advantages[3] is None
    assert result.kept == (0, 2)
    assert result.zero_variance_groups == (("agent", agent_group("won", "unhinted")),)


def test_a_single_sample_group_is_zero_variance():
    result = group_advantages([designer("Logic", 0.7)], normalize_std=False)
    assert result.advantages == (0.0,)
    assert result.zero_variance_groups == (("designer", "Logic"),)


def test_flat_group_advantage_is_exactly_zero_despite_rounding():
    # the mean of three 0.1s is not exactly 0.1 in floating point; the advantage must still be 0
    samples = [designer("s", 0.1)] * 3
    assert group_advantages(samples, normalize_std=True).advantages == (0.0, 0.0, 0.0)


def test_nearly_flat_groups_are_not_zero_variance():
    samples = [agent("e", 0.5), agent("e", 0.5 + 1e-9)]
    result = group_advantages(samples, normalize_std=False)
    assert result.zero_variance_groups == ()
    assert result.advantages == pytest.approx((-5e-10, 5e-10))


def test_policy_must_be_the_enum():
    with pytest.raises(TypeError, match="ZeroVariance"):
        group_advantages([agent("e", 1.0)], normalize_std=True, zero_variance="drop")  # type: ignore[arg-type]


# --- both roles in one call ----------------------------------------------------------------


def test_role_advantages_z_scores_the_agent_and_centers_the_designer():
    samples = [
        designer("Logic", 0.9),
        agent("e1", 1.0),
        agent("e1", 0.0),
        designer("Logic", 0.3),
        agent("e1", 0.0),
        agent("e1", 0.0),
        designer("Math", 0.4),  # alone: flat
    ]
    result = role_advantages(samples)
    a = result.advantages
    # designer Logic: mean 0.6, centered only
    assert (a[0], a[3]) == pytest.approx((0.3, -0.3))
    # agent e1: z-score (epsilon 1e-8 is negligible)
    assert (a[1], a[2], a[4], a[5]) == pytest.approx((SQRT3, -1 / SQRT3, -1 / SQRT3, -1 / SQRT3))
    assert a[6] == 0.0
    assert result.zero_variance_groups == (("designer", "Math"),)


def test_role_advantages_reports_flat_groups_in_first_seen_order_and_drops_them():
    samples = [agent("e1", 1.0), designer("Logic", 0.5), agent("e1", 1.0), agent("e2", 0.0)]
    result = role_advantages(samples, zero_variance=ZeroVariance.DROP)
    assert result.zero_variance_groups == (
        ("agent", agent_group("e1", "unhinted")),
        ("designer", "Logic"),
        ("agent", agent_group("e2", "unhinted")),
    )
    assert result.kept == ()
    assert result.policy is ZeroVariance.DROP


def test_role_advantages_of_nothing():
    assert role_advantages([]).advantages == ()


# --- properties ----------------------------------------------------------------------------

rewards_strategy = st.floats(min_value=-10, max_value=10, allow_nan=False)
sample_strategy = st.builds(
    Sample,
    role=st.sampled_from(["agent", "designer"]),
    group=st.sampled_from(["g1", "g2", "g3"]),
    reward=rewards_strategy,
)


def by_group(samples, advantages):
    groups = defaultdict(list)
    for sample, advantage in zip(samples, advantages):
        groups[sample.key].append(advantage)
    return groups


@PROPERTY
@given(st.lists(sample_strategy, max_size=40), st.booleans())
def test_advantages_sum_to_zero_per_group(samples, normalize_std):
    result = group_advantages(samples, normalize_std=normalize_std)
    for advantages in by_group(samples, result.advantages).values():
        assert math.fsum(advantages) == pytest.approx(0.0, abs=1e-6)


@PROPERTY
@given(st.lists(st.integers(min_value=0, max_value=10), min_size=2, max_size=20))
def test_z_scored_groups_have_unit_variance(rewards):
    samples = [agent("e", float(r)) for r in rewards]
    result = group_advantages(samples, normalize_std=True, epsilon=0.0)
    if result.zero_variance_groups:
        assert set(result.advantages) == {0.0}
    else:
        variance = math.fsum(a * a for a in result.advantages) / len(rewards)
        assert variance == pytest.approx(1.0)


@PROPERTY
@given(
    st.lists(st.integers(min_value=-5, max_value=5), min_size=1, max_size=20),
    st.floats(min_value=0.1, max_value=100),
    st.floats(min_value=-100, max_value=100),
)
def test_z_scores_ignore_shift_and_scale(rewards, scale, shift):
    base = [agent("e", float(r)) for r in rewards]
    moved = [agent("e", float(r) * scale + shift) for r in rewards]
    plain = group_advantages(base, normalize_std=True, epsilon=0.0).advantages
    assert group_advantages(moved, normalize_std=True, epsilon=0.0).advantages == pytest.approx(
        plain, abs=1e-6
    )


@PROPERTY
@given(st.lists(sample_strategy, max_size=40), st.sampled_from(list(ZeroVariance)))
def test_role_advantages_equal_group_advantages_per_role(samples, policy):
    combined = role_advantages(samples, zero_variance=policy)
    for role, normalize_std in ROLE_NORMALIZES_STD.items():
        indices = [i for i, s in enumerate(samples) if s.role == role]
        alone = group_advantages(
            [samples[i] for i in indices], normalize_std=normalize_std, zero_variance=policy
        )
        assert [combined.advantages[i] for i in indices] == list(alone.advantages)


@PROPERTY
@given(st.lists(sample_strategy, max_size=40))
def test_drop_and_flag_agree_outside_flat_groups(samples):
    flag = group_advantages(samples, normalize_std=True, zero_variance=ZeroVariance.FLAG)
    drop = group_advantages(samples, normalize_std=True, zero_variance=ZeroVariance.DROP)
    assert flag.zero_variance_groups == drop.zero_variance_groups
    flat = set(flag.zero_variance_groups)
    for sample, f, d in zip(samples, flag.advantages, drop.advantages):
        assert (d is None) if sample.key in flat else (d == f)
