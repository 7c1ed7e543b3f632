"""Group-relative (GRPO-style) advantages for the two roles trained in one batch.

GRPO has no value network: a sample's advantage is its reward relative to the other samples that
faced the same situation (its *group*). SPADE trains two roles with one model, and their groups
differ:

- agent: the plays of one environment under one condition (hinted or unhinted), z-scored, i.e.
  ``(r - mean) / (std + epsilon)``. The 16 plays of one environment share its difficulty, so the
  mean is the right baseline, and dividing by the std puts easy and hard environments on one scale.
- designer: the environments of one skill (or one grounding document), centered only,
  ``r - mean``. A batch holds only a handful of environments per skill; dividing by their std
  would blow tiny differences up into full-size updates.

That per-role choice is the reference's (its rollout code z-scores the agent per game and centers
the designer per skill; the trainer's own GRPO std normalisation is then switched off, which is what
the note's "no std normalisation" refers to). ``role_advantages`` applies it; ``group_advantages``
is the general tool with the std switch exposed.

Pure functions, no global state.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Literal, get_args

import numpy as np

Role = Literal["designer", "agent"]
ROLES: tuple[str, ...] = get_args(Role)

Condition = Literal["hinted", "unhinted"]
CONDITIONS: tuple[str, ...] = get_args(Condition)

GroupKey = tuple[str, str]
"""(role, group): groups never span roles, so equal group names in two roles stay apart."""

REFERENCE_STD_EPSILON = 1e-8
"""Added to the std before dividing (the reference's value); it only matters for near-constant
groups, since exactly constant groups are handled by the zero-variance policy instead."""

ROLE_NORMALIZES_STD: Mapping[str, bool] = MappingProxyType({"agent": True, "designer": False})
"""The reference's per-role choice: z-score the agent, only center the designer."""


class ZeroVariance(Enum):
    """What to do with a group whose rewards are all equal (including a single-sample group).

    Such a group carries no learning signal: every advantage is exactly 0.

    - ``FLAG`` (the reference's behaviour) keeps the samples with advantage 0.0 and reports the
      group. The batch keeps its shape and nothing disappears silently, but the samples still
      count in a per-token mean loss and dilute the real gradient, and KL/entropy terms still act
      on them.
    - ``DROP`` gives those samples advantage ``None`` so the caller leaves them out of the batch.
      Every trained sample then carries signal (as in DAPO's dynamic sampling), at the cost of a
      varying batch size; the project's own toy runs found dropping them helps against collapse
      once the designer repeats environments the agent has memorised.

    Either way the groups are listed in ``AdvantageResult.zero_variance_groups``: a rising share of
    them is the early warning that the curriculum is collapsing to all-win or all-lose.
    """

    DROP = "drop"
    FLAG = "flag"


@dataclass(frozen=True)
class Sample:
    """One trained sample: who produced it, which group it is compared within, and its reward."""

    role: Role
    group: str
    """Use ``agent_group(env_id, condition)`` for agent plays and the skill name (or a document id)
    for designer samples."""
    reward: float

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {self.role!r}")
        if not isinstance(self.group, str) or not self.group:
            raise ValueError(f"group must be a non-empty string, got {self.group!r}")
        # A NaN reward would turn its whole group's advantages into NaN; fail at the boundary.
        if isinstance(self.reward, bool) or not isinstance(self.reward, numbers.Real):
            raise TypeError(f"reward must be a real number, got {self.reward!r}")
        if not math.isfinite(self.reward):
            raise ValueError(f"reward must be finite, got {self.reward!r}")
        object.__setattr__(self, "reward", float(self.reward))

    @property
    def key(self) -> GroupKey:
        return (self.role, self.group)


def agent_group(env_id: str, condition: Condition) -> str:
    """The agent's group name: hinted and unhinted plays of one environment are separate groups,
    because the hint changes the task; mixing them would reward 'having been given a hint'."""
    if condition not in CONDITIONS:
        raise ValueError(f"condition must be one of {CONDITIONS}, got {condition!r}")
    if not env_id:
        raise ValueError("env_id must be non-empty")
    return f"{env_id}/{condition}"


@dataclass(frozen=True)
class AdvantageResult:
    """Advantages aligned with the input samples."""

    advantages: tuple[float | None, ...]
    """One per input sample; ``None`` only under ``ZeroVariance.DROP``, for a dropped sample."""
    zero_variance_groups: tuple[GroupKey, ...]
    """Groups whose rewards were all equal, in first-seen order."""
    policy: ZeroVariance

    @property
    def kept(self) -> tuple[int, ...]:
        """Indices of the samples to train on."""
        return tuple(i for i, advantage in enumerate(self.advantages) if advantage is not None)


def _groups(samples: Sequence[Sample]) -> dict[GroupKey, list[int]]:
    groups: dict[GroupKey, list[int]] = {}
    for index, sample in enumerate(samples):
        groups.setdefault(sample.key, []).append(index)
    return groups


def group_advantages(
    samples: Sequence[Sample],
    *,
    normalize_std: bool,
    epsilon: float = REFERENCE_STD_EPSILON,
    zero_variance: ZeroVariance = ZeroVariance.FLAG,
) -> AdvantageResult:
    """Advantage = reward - group mean, divided by (group std + epsilon) if ``normalize_std``.

    The std is the population std (divide by n), as in the reference: the group *is* the whole
    population being compared, and it keeps the z-scores of a group at unit variance.
    ``normalize_std`` is required (no default) because the right answer differs per role; see
    ``role_advantages``. Groups whose rewards are all equal follow ``zero_variance``.
    """
    if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or not math.isfinite(epsilon):
        raise ValueError(f"epsilon must be a finite number, got {epsilon!r}")
    if epsilon < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon}")
    if not isinstance(zero_variance, ZeroVariance):
        raise TypeError(f"zero_variance must be a ZeroVariance, got {zero_variance!r}")

    advantages: list[float | None] = [None] * len(samples)
    flat_groups: list[GroupKey] = []
    for key, indices in _groups(samples).items():
        rewards = [samples[i].reward for i in indices]
        if max(rewards) == min(rewards):
            flat_groups.append(key)
            # Exactly 0.0, not r - mean, which rounding could leave at +-1e-17.
            flat_value = 0.0 if zero_variance is ZeroVariance.FLAG else None
            for i in indices:
                advantages[i] = flat_value
            continue
        # NumPy's mean and population std, as the release computes them, so that equal rewards give
        # bit-equal advantages (benchmarks/release_differential.py checks it).
        mean = float(np.mean(rewards))
        divisor = 1.0
        if normalize_std:
            divisor = float(np.std(rewards)) + epsilon
        for i, reward in zip(indices, rewards):
            advantages[i] = (reward - mean) / divisor
    return AdvantageResult(tuple(advantages), tuple(flat_groups), zero_variance)


def role_advantages(
    samples: Sequence[Sample],
    *,
    zero_variance: ZeroVariance = ZeroVariance.FLAG,
    epsilon: float = REFERENCE_STD_EPSILON,
) -> AdvantageResult:
    """Both roles in one call, each with the reference's normalisation (``ROLE_NORMALIZES_STD``).

    Agent samples are z-scored per (environment, condition) group, designer samples centered per
    skill. The designer's rewards may already be centered by ``rewards.center_per_skill``;
    centering again is harmless (the mean of centered rewards is 0).
    """
    by_role: dict[str, list[int]] = {role: [] for role in ROLES}
    for index, sample in enumerate(samples):
        by_role[sample.role].append(index)

    advantages: list[float | None] = [None] * len(samples)
    flat_groups: list[GroupKey] = []
    for role, indices in by_role.items():
        result = group_advantages(
            [samples[i] for i in indices],
            normalize_std=ROLE_NORMALIZES_STD[role],
            epsilon=epsilon,
            zero_variance=zero_variance,
        )
        for i, advantage in zip(indices, result.advantages):
            advantages[i] = advantage
        flat_groups.extend(result.zero_variance_groups)
    # Report flat groups in first-seen order across both roles, like group_advantages does.
    first_seen = {key: n for n, key in enumerate(_groups(samples))}
    flat_groups.sort(key=first_seen.__getitem__)
    return AdvantageResult(tuple(advantages), tuple(flat_groups), zero_variance)
