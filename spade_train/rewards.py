"""Designer rewards: what one generated environment is worth to the designer that wrote it.

The designer is paid for environments that teach. SPADE measures that by playing each environment
16 times without a hint and 16 times with one: if the hint helps (positive *regret*), the environment
has a learnable insight the agent has not found yet. The variants below turn those plays into one
number per environment; ``center_per_skill`` then subtracts each skill's batch mean so the designer
competes only against environments of the same skill (some skills are simply easier to score on).

Reading order: constants, the building blocks (regret, win rate, plateau), the four variants, the
per-environment dispatcher ``designer_reward``, the batch pipeline ``score_designer_batch`` and
finally ``bootstrap_regret_ci``, which is not in the reference.

Everything here is pure: no global state, no I/O. The one piece of memory a variant needs (the
learning-potential EMA) is an immutable ``WinRateEMA`` value the caller passes in and gets back.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal, get_args

import numpy as np

from spade_envs.contract.episode import WIN_THRESHOLD, episode_return, is_win
from spade_train.semantics import SEMANTICS, Semantics

# ---------------------------------------------------------------------------------------------
# Reference constants (spade-reference.md, "Designer reward variants" and the paper's launch
# scripts). Named so a reader can grep for them and a config can override them.
# ---------------------------------------------------------------------------------------------

INVALID_ENV_REWARD = 0.0
"""When invalid designs are scored (``Semantics.invalid_designs == "scored"``, the toolkit), an environment
that failed validation earns nothing: no reward for code that cannot be played, but no punishment either,
so the designer is not scared away from ambitious designs. The release instead re-samples an invalid
design and never trains it (0 is its value only in its repair mode)."""

STEP_TIMEOUT_REWARD = -0.5
"""An environment whose ``step()`` hung during rollouts costs the designer: a hang wastes a whole
rollout slot, so it must be worse than a merely boring environment (which earns about 0)."""

PLATEAU_LOW = 0.4
PLATEAU_HIGH = 0.6
"""Win rates in [PLATEAU_LOW, PLATEAU_HIGH] are the sweet spot: the agent wins about half the time,
which is where a policy-gradient update gets the most signal."""

PLATEAU_RAMP = 0.25
"""Width of the linear fall from 1 to 0 on either side of the plateau (so 0 at 0.15 and 0.85)."""

BLEND_PLATEAU_WEIGHT = 0.6
BLEND_REGRET_WEIGHT = 0.4
BLEND_REGRET_SCALE = 0.15
"""``blend`` = 0.6 * plateau(win rate) + 0.4 * clip(regret / 0.15, 0, 1): a regret of 0.15 (a hint
that lifts the mean return by 0.15) already earns the full regret share."""

BLEND_MASK_BELOW = 0.0
"""Blend scores below this are masked out of the designer update (see ``score_designer_batch``)."""
WARNINGS_COUNTED = 3
"""At most this many checker warnings of one environment count towards its warning cost."""

EMA_FAST_WEIGHT = 0.98
EMA_SLOW_WEIGHT = 0.85
"""The reference's learning-potential factors (``--spare-gamma1 0.98 --spare-gamma2 0.85``). In the
reference arithmetic each factor is the weight of the *newest* observation:
``ema <- (1 - factor) * ema + factor * observation``. See ``WinRateEMA``."""

Variant = Literal["regret_based", "blend", "learning_potential", "solve_rate"]
VARIANTS: tuple[str, ...] = get_args(Variant)
"""``blend`` is what the paper's launch scripts use; the others are the reference's ablations."""


# ---------------------------------------------------------------------------------------------
# Input hygiene
# ---------------------------------------------------------------------------------------------


def _finite_values(values: Iterable[float], what: str) -> tuple[float, ...]:
    """Reject NaN and infinities (ValueError) and non-numbers (TypeError) up front.

    A single NaN return would silently turn a whole skill's centered rewards into NaN and poison
    the designer's gradient, so it is cheaper to fail loudly at the boundary.
    """
    out: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{what} must be real numbers, got {value!r}")
        as_float = float(value)
        if not math.isfinite(as_float):
            raise ValueError(f"{what} must be finite, got {value!r}")
        out.append(as_float)
    return tuple(out)


def _finite(value: float, what: str) -> float:
    return _finite_values((value,), what)[0]


def _mean(values: Sequence[float]) -> float:
    # NumPy's mean, as the release computes every mean here: equal inputs give bit-equal rewards
    # (benchmarks/release_differential.py checks it).
    return float(np.mean(values))


# ---------------------------------------------------------------------------------------------
# Building blocks: returns, regret, win rate, plateau
# ---------------------------------------------------------------------------------------------


def returns_from_episodes(episodes: Iterable[tuple[Sequence[float], bool]]) -> tuple[float, ...]:
    """Episode returns for ``(rewards, terminated)`` pairs, by the shared contract rule.

    Kept here so rollout code never re-implements the return rule: every number that reaches the
    designer went through ``spade_envs.contract.episode.episode_return``.
    """
    return tuple(episode_return(rewards, terminated) for rewards, terminated in episodes)


def regret(hinted_returns: Sequence[float], unhinted_returns: Sequence[float]) -> float:
    """How much the hint helped: mean hinted return minus mean unhinted return.

    Empty rule: if either side has no plays the regret is 0.0. Regret is a comparison, and with one
    side missing there is nothing to compare; 0 is the neutral value every variant treats as "no
    evidence" (it is floored to 0 anyway and centering makes it "average for the skill"), so a
    rollout that lost its plays can neither earn nor cost the designer anything.
    """
    hinted = _finite_values(hinted_returns, "hinted returns")
    unhinted = _finite_values(unhinted_returns, "unhinted returns")
    if not hinted or not unhinted:
        return 0.0
    return _mean(hinted) - _mean(unhinted)


def win_rate(returns: Sequence[float], threshold: float = WIN_THRESHOLD) -> float:
    """Fraction of plays won; 0.0 when there are no plays (no evidence of a win).

    ``returns`` are episode returns, not raw rewards. For a threshold in (0, 1] a return wins
    exactly when its episode did under ``is_win``: a truncated episode returns 0 (below any such
    threshold) and clipping the last reward to 1 cannot move it across the threshold. So each
    return is judged as the last reward of a terminated episode, reusing the contract's rule.
    (The reference averages the returns instead; the two agree for win/loss games and differ only
    for partial-credit environments, where a partial answer should not count as solving the task.)
    """
    threshold = _finite(threshold, "threshold")
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1] for returns clipped to [-1, 1], got {threshold}")
    values = _finite_values(returns, "returns")
    if not values:
        return 0.0
    wins = sum(1 for value in values if is_win((value,), True, threshold))
    return wins / len(values)


def plateau(
    win_rate: float, low: float = PLATEAU_LOW, high: float = PLATEAU_HIGH, ramp: float = PLATEAU_RAMP
) -> float:
    """1 on [low, high], falling linearly to 0 over ``ramp`` on either side.

    Environments the agent always wins or always loses give GRPO no contrast to learn from, so the
    designer is paid for landing near 50%. The ramps (instead of a hard band) keep the reward
    informative just outside the band, telling the designer which direction to move. ``ramp == 0``
    is allowed and means a hard band.
    """
    win_rate = _finite(win_rate, "win rate")
    low, high, ramp = _finite(low, "low"), _finite(high, "high"), _finite(ramp, "ramp")
    if low > high:
        raise ValueError(f"plateau needs low <= high, got low={low}, high={high}")
    if ramp < 0:
        raise ValueError(f"plateau ramp must be >= 0, got {ramp}")
    if low <= win_rate <= high:
        return 1.0
    if ramp == 0:
        return 0.0
    distance = low - win_rate if win_rate < low else win_rate - high
    return max(0.0, 1.0 - distance / ramp)


# ---------------------------------------------------------------------------------------------
# The four variants (pure functions of already-measured quantities)
# ---------------------------------------------------------------------------------------------


def regret_based(regret: float) -> float:
    """max(regret, 0): a hint that *hurts* is noise or a bad hint, not a sign of a bad environment,
    so the reference floors it instead of punishing the designer for the hinter's mistake."""
    return max(_finite(regret, "regret"), 0.0)


def blend(
    win_rate: float,
    regret: float,
    *,
    plateau_weight: float = BLEND_PLATEAU_WEIGHT,
    regret_weight: float = BLEND_REGRET_WEIGHT,
    regret_scale: float = BLEND_REGRET_SCALE,
    floor_regret: bool = True,
    clip_unfloored: bool = True,
    low: float = PLATEAU_LOW,
    high: float = PLATEAU_HIGH,
    ramp: float = PLATEAU_RAMP,
) -> float:
    """The paper's designer reward: difficulty near 50% (plateau) plus a bounded share of regret.

    Regret alone collapses when the agent memorises a few environments (regret -> 0 everywhere);
    the plateau term keeps paying for well-calibrated difficulty, and regret then ranks the
    in-band environments by how teachable they are. Regret is divided by a fixed scale rather than
    a batch statistic so the weights stay interpretable and a quiet batch cannot blow it up.

    With ``floor_regret`` (the paper's setting) the regret term is clipped to [0, 1], so the blend
    is never negative. Without it the term is clipped to [-1, 1] (``clip_unfloored``, the toolkit) or left
    unbounded (the release); the blend can then go negative, and ``score_designer_batch`` masks such
    environments (see ``BLEND_MASK_BELOW``).
    """
    regret = _finite(regret, "regret")
    regret_scale = _finite(regret_scale, "regret_scale")
    if regret_scale <= 0:
        raise ValueError(f"regret_scale must be > 0, got {regret_scale}")
    regret_term = regret / regret_scale
    if floor_regret:
        regret_term = min(1.0, max(0.0, regret_term))
    elif clip_unfloored:
        regret_term = min(1.0, max(-1.0, regret_term))
    return plateau_weight * plateau(win_rate, low, high, ramp) + regret_weight * regret_term


def solve_rate(
    win_rate: float, low: float = PLATEAU_LOW, high: float = PLATEAU_HIGH, ramp: float = PLATEAU_RAMP
) -> float:
    """Plateau only: the ablation that asks whether regret adds anything over pure difficulty."""
    return plateau(win_rate, low, high, ramp)


@dataclass(frozen=True)
class WinRateEMA:
    """Per-skill moving averages of the agent's win rate, for the learning-potential variant.

    Immutable on purpose: ``update`` returns a new value, so the caller owns the history (one per
    skill, saved with a checkpoint) and a reward computation can never mutate shared state behind
    another skill's back. Unseeded (``None``) until the first observation, which seeds both
    averages, as in the reference; an unseeded baseline reads as 0.0.

    Only ``slow`` enters the reward; ``fast`` is kept because ``fast - slow`` (the signed learning
    potential) is the number worth logging to see whether the agent is improving on a skill.
    """

    fast: float | None = None
    slow: float | None = None
    fast_weight: float = EMA_FAST_WEIGHT
    slow_weight: float = EMA_SLOW_WEIGHT

    def __post_init__(self) -> None:
        for name in ("fast_weight", "slow_weight"):
            weight = _finite(getattr(self, name), name)
            if not 0.0 < weight <= 1.0:
                raise ValueError(f"{name} must be in (0, 1], got {weight}")
        if (self.fast is None) != (self.slow is None):
            raise ValueError("fast and slow are seeded together: both None or both set")
        if self.fast is not None and self.slow is not None:
            _finite_values((self.fast, self.slow), "EMA values")

    @property
    def baseline(self) -> float:
        """The slow average the learning-potential reward measures distance from."""
        return 0.0 if self.slow is None else self.slow

    def update(self, observed_win_rate: float) -> WinRateEMA:
        """Fold in one batch's win rate (newest observation weighted by the factors)."""
        observed = _finite(observed_win_rate, "win rate")
        if self.fast is None or self.slow is None:
            return replace(self, fast=observed, slow=observed)
        return replace(
            self,
            fast=(1.0 - self.fast_weight) * self.fast + self.fast_weight * observed,
            slow=(1.0 - self.slow_weight) * self.slow + self.slow_weight * observed,
        )


def learning_potential(win_rate: float, ema: WinRateEMA) -> float:
    """|win rate - slow EMA of the skill's win rate|: pays for environments that move the needle.

    An environment whose win rate differs from what the agent usually achieves on that skill is
    either a new challenge or newly mastered ground; either way it carries information. The
    reference ablation; it ignores hints entirely.
    """
    return abs(_finite(win_rate, "win rate") - ema.baseline)


# ---------------------------------------------------------------------------------------------
# One environment: outcome, config, dispatcher
# ---------------------------------------------------------------------------------------------


def _episode_returns(values: Iterable[float], what: str) -> tuple[float, ...]:
    returns = _finite_values(values, what)
    for value in returns:
        if not -1.0 <= value <= 1.0:
            raise ValueError(f"{what} must be episode returns in [-1, 1], got {value}")
    return returns


@dataclass(frozen=True)
class EnvOutcome:
    """Everything the designer reward needs to know about one generated environment.

    Returns are episode returns (``returns_from_episodes``), checked to lie in [-1, 1]: raw
    rewards passed by mistake would otherwise inflate regret silently.
    """

    valid: bool
    """False when the environment failed validation (it was never played)."""
    timed_out: bool
    """True when ``step()`` exceeded its time limit during rollouts."""
    hinted_returns: tuple[float, ...]
    unhinted_returns: tuple[float, ...]
    skill: str
    """Centering and the EMA are per skill, so every outcome must name one."""
    env_id: str = ""
    """Free-form identifier for logs; not used in any computation."""
    malformed: bool = False
    """True when the designer's reply held no environment at all (nothing to validate)."""
    repeat: bool = False
    """True when the design repeats one written earlier in the same batch (it was not played)."""
    warnings: int = 0
    """Findings of the checker that did not reject the environment (``ValidationReport.warnings``): what an
    honest environment can also trigger. ``DesignerRewardConfig.warning_penalty`` says what they cost."""
    hint_failed: bool = False
    """True when the design was played but no usable hint was written (rejected, or the call failed):
    ``hinted_returns`` is then empty, and ``Semantics.hint_failure`` says what regret that gives."""
    unhinted_wins: tuple[bool, ...] | None = None
    """Whether each unhinted play was won (the episode's own ``won``: the contract's ``is_win``), in the
    order of ``unhinted_returns``. The self-play loop always passes them, so the designer reward counts
    exactly the wins the metrics and the memory count. None: the returns are the reference's
    terminal-clipped returns, whose wins ``win_rate`` reads off them; a ``sum_clipped`` return can reach 1
    without a win, so there the flags are needed."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "hinted_returns", _episode_returns(self.hinted_returns, "hinted returns"))
        object.__setattr__(
            self, "unhinted_returns", _episode_returns(self.unhinted_returns, "unhinted returns")
        )
        if not isinstance(self.skill, str) or not self.skill:
            raise ValueError(f"skill must be a non-empty string, got {self.skill!r}")
        if self.unhinted_wins is not None:
            object.__setattr__(self, "unhinted_wins", tuple(bool(won) for won in self.unhinted_wins))
            if len(self.unhinted_wins) != len(self.unhinted_returns):
                raise ValueError(f"unhinted_wins has {len(self.unhinted_wins)} flags for "
                                 f"{len(self.unhinted_returns)} unhinted returns")

    def unhinted_win_flags(self, threshold: float = WIN_THRESHOLD) -> tuple[bool, ...]:
        """Whether each unhinted play was won: the given flags, else read off terminal-clipped returns."""
        if self.unhinted_wins is not None:
            return self.unhinted_wins
        return tuple(win_rate((value,), threshold) == 1.0 for value in self.unhinted_returns)

    def unhinted_win_rate(self, threshold: float = WIN_THRESHOLD) -> float:
        """The agent's own win rate on this environment (0.0 without plays)."""
        flags = self.unhinted_win_flags(threshold)
        return sum(flags) / len(flags) if flags else 0.0

    def unhinted_rate(self, config: DesignerRewardConfig) -> float:
        """The win rate the plateau and the LP baseline read: counted wins or the mean return
        (``Semantics.win_rate_from``); 0.0 without plays."""
        if config.semantics.win_rate_from == "mean_return":
            return _mean(self.unhinted_returns) if self.unhinted_returns else 0.0
        return self.unhinted_win_rate(config.win_threshold)

    def regret(self, config: DesignerRewardConfig) -> float:
        """Hinted minus unhinted mean return; without a usable hint as ``Semantics.hint_failure`` says."""
        if self.hint_failed and config.semantics.hint_failure == "zero_hinted_return":
            return regret((0.0,), self.unhinted_returns)
        return regret(self.hinted_returns, self.unhinted_returns)

    @property
    def played(self) -> bool:
        """Whether the plays mean anything (a hang or a failed validation voids them)."""
        return self.valid and not self.timed_out


@dataclass(frozen=True)
class DesignerRewardConfig:
    """Which variant to use and its knobs; defaults are the reference's values.

    ``scale`` multiplies the *centered* reward (it balances the designer's few samples against the
    agent's many in a shared batch), so ``designer_reward`` returns unscaled raw rewards and
    ``score_designer_batch`` applies the scale when centering.
    """

    variant: Variant
    scale: float = 1.0
    win_threshold: float = WIN_THRESHOLD
    plateau_low: float = PLATEAU_LOW
    plateau_high: float = PLATEAU_HIGH
    plateau_ramp: float = PLATEAU_RAMP
    plateau_weight: float = BLEND_PLATEAU_WEIGHT
    regret_weight: float = BLEND_REGRET_WEIGHT
    regret_scale: float = BLEND_REGRET_SCALE
    floor_regret: bool = True
    invalid_reward: float = INVALID_ENV_REWARD
    timeout_reward: float = STEP_TIMEOUT_REWARD
    malformed_reward: float = INVALID_ENV_REWARD
    """For a reply with no environment in it. The reference treats it as any invalid environment (0);
    a small penalty below that keeps a designer from drifting out of its reply format, a state with
    no way back (every reply then scores the same, so there is nothing to learn from)."""
    repeat_reward: float = INVALID_ENV_REWARD
    """For a design that repeats one written earlier in the same batch (``loop.reject_repeats``).
    Below zero it makes a designer collapsing onto one design pay for every copy: a collapsed batch
    would otherwise score all alike, leaving nothing to learn from, while the agent memorises it."""
    semantics: Semantics = SEMANTICS["toolkit"]
    """Where the pipeline follows the release or the toolkit (``spade_train.semantics``)."""
    warning_penalty: float = 0.0
    """Subtracted from the raw reward of a played environment per checker warning (at most
    ``WARNINGS_COUNTED`` of them). 0, the default, only reports warnings: they are what an honest
    environment can trigger, and the release has no such findings."""

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {self.variant!r}")
        numeric_fields = (
            "scale",
            "win_threshold",
            "plateau_low",
            "plateau_high",
            "plateau_ramp",
            "plateau_weight",
            "regret_weight",
            "regret_scale",
            "invalid_reward",
            "timeout_reward",
            "malformed_reward",
            "repeat_reward",
        )
        for name in numeric_fields:
            _finite(getattr(self, name), name)
        if self.scale <= 0:
            raise ValueError(
                f"scale must be > 0 (a negative scale would reward the opposite), got {self.scale}"
            )
        if self.regret_scale <= 0:
            raise ValueError(f"regret_scale must be > 0, got {self.regret_scale}")
        if self.plateau_low > self.plateau_high or self.plateau_ramp < 0:
            raise ValueError("plateau needs plateau_low <= plateau_high and plateau_ramp >= 0")
        if not 0.0 < self.win_threshold <= 1.0:
            raise ValueError(f"win_threshold must be in (0, 1], got {self.win_threshold}")


def _special_reward(outcome: EnvOutcome, config: DesignerRewardConfig) -> float | None:
    """The fixed reward of an outcome whose plays are not scored (None: score the plays)."""
    charged = config.semantics.timeout_penalty == "every_variant" or config.variant == "regret_based"
    if outcome.timed_out and charged:
        return config.timeout_reward
    if outcome.malformed:
        return config.malformed_reward
    if outcome.repeat:
        return config.repeat_reward
    if not outcome.valid:
        return config.invalid_reward
    return None


def designer_reward(
    outcome: EnvOutcome, config: DesignerRewardConfig, ema: WinRateEMA | None = None
) -> float:
    """The raw (uncentered, unscaled) reward for one environment under ``config.variant``.

    Special outcomes come first. A timeout wins over invalidity (the release checks it first, and a
    hang is the costlier failure); it costs ``timeout_reward`` under every variant, or under
    ``regret_based`` only as in the release (``Semantics.timeout_penalty``), where the other variants
    score a timed-out environment's plays like any other's.

    ``ema`` is the skill's ``WinRateEMA`` and is required only by ``learning_potential``.
    """
    special = _special_reward(outcome, config)
    if special is not None:
        return special
    return _variant_reward(outcome, config, ema) - _warning_cost(outcome, config)


def _warning_cost(outcome: EnvOutcome, config: DesignerRewardConfig) -> float:
    """What a played environment's checker warnings cost it (``DesignerRewardConfig.warning_penalty``)."""
    return config.warning_penalty * min(max(outcome.warnings, 0), WARNINGS_COUNTED)


def _variant_reward(outcome: EnvOutcome, config: DesignerRewardConfig, ema: WinRateEMA | None) -> float:
    if config.variant == "regret_based":
        return regret_based(outcome.regret(config))
    unhinted_win_rate = outcome.unhinted_rate(config)
    if config.variant == "blend":
        return blend(
            unhinted_win_rate,
            outcome.regret(config),
            plateau_weight=config.plateau_weight,
            regret_weight=config.regret_weight,
            regret_scale=config.regret_scale,
            floor_regret=config.floor_regret,
            clip_unfloored=config.semantics.unfloored_regret == "clipped",
            low=config.plateau_low,
            high=config.plateau_high,
            ramp=config.plateau_ramp,
        )
    if config.variant == "solve_rate":
        return solve_rate(unhinted_win_rate, config.plateau_low, config.plateau_high, config.plateau_ramp)
    if ema is None:
        raise ValueError("the learning_potential variant needs the skill's WinRateEMA (pass ema=...)")
    return learning_potential(unhinted_win_rate, ema)


def _is_masked(outcome: EnvOutcome, raw: float, config: DesignerRewardConfig) -> bool:
    """Left out of the update: a computed blend below 0, or (``Semantics.invalid_designs`` "resampled") a
    design that was never played, which the release re-samples and never trains."""
    if not outcome.valid and config.semantics.invalid_designs == "resampled":
        return True
    # the blend before any warning cost: a penalised environment is still trained on, at its lower reward
    return (config.variant == "blend" and _special_reward(outcome, config) is None
            and raw + _warning_cost(outcome, config) < BLEND_MASK_BELOW)


# ---------------------------------------------------------------------------------------------
# A batch: centering per skill, masking, EMA updates
# ---------------------------------------------------------------------------------------------


def center_per_skill(rewards: Sequence[float], skills: Sequence[str], *, scale: float = 1.0) -> list[float]:
    """(r - mean of that skill's rewards in this batch) * scale, in input order.

    Centering makes the designer's reward relative: an environment is good if it beats the other
    environments written for the same skill in the same batch, which removes the skill's base rate
    (some skills are easier to make regret on) and acts as the GRPO baseline for the designer.
    Mean subtraction only: dividing by a handful of environments' std would blow rewards up.
    A skill with a single environment therefore gets 0 (nothing to compare against).
    """
    values = _finite_values(rewards, "rewards")
    scale = _finite(scale, "scale")
    if len(values) != len(skills):
        raise ValueError(f"rewards and skills differ in length: {len(values)} != {len(skills)}")
    by_skill: dict[str, list[float]] = {}
    for value, skill in zip(values, skills):
        by_skill.setdefault(skill, []).append(value)
    means = {skill: _mean(group) for skill, group in by_skill.items()}
    return [(value - means[skill]) * scale for value, skill in zip(values, skills)]


@dataclass(frozen=True)
class DesignerBatch:
    """The designer rewards for one batch, aligned with the input outcomes."""

    rewards: tuple[float | None, ...]
    """Centered and scaled rewards; ``None`` marks an environment masked out of the update."""
    raw: tuple[float, ...]
    """Rewards before masking and centering, for logging and the environment memory."""
    emas: Mapping[str, WinRateEMA]
    """Per-skill EMA states after this batch (read-only); pass them to the next batch."""
    baselines: tuple[float | None, ...] = ()
    """What centering subtracted from each raw reward: the mean raw reward of its skill in this batch
    (None where masked). A skill with one environment has its own reward as baseline, hence reward 0."""

    @property
    def masked(self) -> tuple[int, ...]:
        """Indices of masked environments."""
        return tuple(i for i, reward in enumerate(self.rewards) if reward is None)


def score_designer_batch(
    outcomes: Sequence[EnvOutcome],
    config: DesignerRewardConfig,
    emas: Mapping[str, WinRateEMA] | None = None,
) -> DesignerBatch:
    """Raw reward per environment, mask, center per skill and scale: the reference pipeline.

    Masking (our reading of the note's "negative blends masked"): under ``blend``, an environment
    whose computed blend is below 0 is removed *before* centering and gets no reward at all (not 0).
    Keeping it would drag its skill's mean down and hand near-zero, unlearnable environments a
    positive reward after centering. With the paper's settings (regret floored, plateau >= 0) the
    blend is never negative, so nothing is masked; the mask guards configs with
    ``floor_regret=False``. Special outcomes are never masked (masking a timeout would make hanging
    free), except that with ``Semantics.invalid_designs == "resampled"`` (the release) a design that was
    never played is left out altogether: the release re-samples it and never trains it.

    EMA: every environment is scored against its skill's EMA as it stood *before* this batch; then
    each skill's EMA absorbs the pooled unhinted win rate of its played environments (as the
    reference does, for every variant, so switching variants keeps a warm baseline). Skills with no
    played environment keep their state. ``emas`` is not modified.
    """
    states: dict[str, WinRateEMA] = dict(emas or {})
    raw = tuple(designer_reward(o, config, states.get(o.skill, WinRateEMA())) for o in outcomes)
    kept = [i for i, (o, r) in enumerate(zip(outcomes, raw)) if not _is_masked(o, r, config)]
    kept_raw, kept_skills = [raw[i] for i in kept], [outcomes[i].skill for i in kept]
    centered = center_per_skill(kept_raw, kept_skills, scale=config.scale)
    means = {skill: _mean([r for r, s in zip(kept_raw, kept_skills) if s == skill]) for skill in set(kept_skills)}
    rewards: list[float | None] = [None] * len(outcomes)
    baselines: list[float | None] = [None] * len(outcomes)
    for index, value in zip(kept, centered):
        rewards[index], baselines[index] = value, means[outcomes[index].skill]

    pooled: dict[str, list[float]] = {}
    for outcome in outcomes:
        if _special_reward(outcome, config) is None and outcome.unhinted_returns:
            values = (outcome.unhinted_returns if config.semantics.win_rate_from == "mean_return"
                      else [float(won) for won in outcome.unhinted_win_flags(config.win_threshold)])
            pooled.setdefault(outcome.skill, []).extend(values)
    for skill, values in pooled.items():
        states[skill] = states.get(skill, WinRateEMA()).update(_mean(values))
    return DesignerBatch(rewards=tuple(rewards), raw=raw, emas=MappingProxyType(states), baselines=tuple(baselines))


# ---------------------------------------------------------------------------------------------
# Beyond the reference: how sure are we about a regret?
# ---------------------------------------------------------------------------------------------


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (NumPy's default method)."""
    position = q * (len(sorted_values) - 1)
    lower = math.floor(position)
    upper = min(lower + 1, len(sorted_values) - 1)
    fraction = position - lower
    return sorted_values[lower] + (sorted_values[upper] - sorted_values[lower]) * fraction


def bootstrap_regret_ci(
    hinted: Sequence[float],
    unhinted: Sequence[float],
    *,
    samples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile-bootstrap confidence interval for ``regret(hinted, unhinted)``.

    The reference treats regret from 16 + 16 plays as exact, but with win/loss returns the standard
    error of each mean is up to 0.125, so a regret of 0.15 is often indistinguishable from 0. The
    interval lets memory selection, logging or a conservative reward (e.g. the lower bound) tell a
    reliably helpful hint from a lucky draw.

    The two groups are resampled independently (with replacement, each at its own size) because
    they are independent experiments. A seeded ``random.Random`` makes the interval reproducible
    without touching the global generator. Empty groups follow ``regret``'s rule: (0.0, 0.0).
    """
    hinted_values = _finite_values(hinted, "hinted returns")
    unhinted_values = _finite_values(unhinted, "unhinted returns")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples must be a positive integer, got {samples!r}")
    confidence = _finite(confidence, "confidence")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if not hinted_values or not unhinted_values:
        return (0.0, 0.0)

    rng = random.Random(seed)
    estimates = sorted(
        math.fsum(rng.choices(hinted_values, k=len(hinted_values))) / len(hinted_values)
        - math.fsum(rng.choices(unhinted_values, k=len(unhinted_values))) / len(unhinted_values)
        for _ in range(samples)
    )
    tail = (1.0 - confidence) / 2.0
    return (_quantile(estimates, tail), _quantile(estimates, 1.0 - tail))
