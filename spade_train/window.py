"""Designer rewards over a delay window: the release's delayed scoring, as a pure function.

In the release's paper scripts the designer's samples of regeneration step ``e`` are trained ``D``
steps later (``D = R``, the regeneration interval), and scored on every unhinted play the agent made
of each environment during the window: the step offsets ``0 .. R-1`` after ``e``. Hinted plays happen
once, at the regeneration step. This module scores such a window exactly as the release's
``recompute_delayed_env_rewards_{blend,regret}`` and ``recompute_delayed_env_rewards`` (learning
potential) do (``spade/core/utils/delayed_env_rewards.py``), so that the quantities can be checked
against it input by input (``benchmarks/release_differential.py``):

- ``blend``: regret = hinted mean - the mean of the *first* offset's plays; win rate = the mean of all
  the window's returns; plateau and regret terms as in ``spade_train.rewards.blend``. The release's
  micro-LP and frontier terms have weight 0 in every launch script and are not implemented here.
- ``regret_based``: timed-out designs -0.5; otherwise max(0, hinted mean - mean of all window plays).
- ``learning_potential``: each skill's EMA is updated once with the mean of all its designs' window
  plays *before* any design is scored; raw = |mean of the design's plays - the updated slow EMA|.
- centring: per skill, mean only, over the designs not masked, times ``scale``.

Means are NumPy's (``np.mean``), as in the release, so that equal inputs give bit-equal outputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from spade_train.rewards import (
    BLEND_PLATEAU_WEIGHT,
    BLEND_REGRET_SCALE,
    BLEND_REGRET_WEIGHT,
    PLATEAU_HIGH,
    PLATEAU_LOW,
    PLATEAU_RAMP,
    STEP_TIMEOUT_REWARD,
    Variant,
    WinRateEMA,
    blend,
)

MAX_ENV_REWARD_SCALE = 50.0
"""The release caps the designer's reward scale at 50 (``--spade-max-env-reward-scale``)."""


def env_reward_scale(actor_samples: int, env_samples: int, regeneration_interval: int,
                     max_scale: float = MAX_ENV_REWARD_SCALE) -> float:
    """The release's automatic designer reward scale: min(max, actor samples / env samples * R), 1.0 when
    either count is 0 (``spade/core/utils/rewards.py:53-62``). With 192 agent samples, 24 designs and R = 4
    it is 32: the designer's few samples weigh as much as the agent's many in one batch."""
    if actor_samples <= 0 or env_samples <= 0:
        return 1.0
    return min(max_scale, actor_samples / env_samples * regeneration_interval)


def _mean(values: Sequence[float]) -> float:
    return float(np.mean(values)) if len(values) else 0.0


@dataclass(frozen=True)
class WindowDesign:
    """One design and the plays made of it during its window."""

    skill: str
    plays: Mapping[int, Sequence[float]]
    """Step offset (0 = the regeneration step) -> the unhinted returns of that step."""
    hinted_mean: float | None = None
    """The mean hinted return at the regeneration step; None when no hint was written (the release then
    takes 0)."""
    timed_out: bool = False


@dataclass(frozen=True)
class WindowBatch:
    rewards: tuple[float | None, ...]
    """Centred, scaled rewards; None: masked (a blend below 0), never trained."""
    raw: tuple[float, ...]
    emas: Mapping[str, WinRateEMA]


@dataclass(frozen=True)
class BlendWeights:
    plateau_weight: float = BLEND_PLATEAU_WEIGHT
    regret_weight: float = BLEND_REGRET_WEIGHT
    regret_scale: float = BLEND_REGRET_SCALE
    floor_regret: bool = True
    low: float = PLATEAU_LOW
    high: float = PLATEAU_HIGH
    ramp: float = PLATEAU_RAMP


def _window_returns(design: WindowDesign) -> list[float]:
    return [float(r) for offset in sorted(design.plays) for r in design.plays[offset]]


def _blend(design: WindowDesign, weights: BlendWeights) -> float:
    """``rewards.blend`` of the window: regret at the first offset, win rate over all of it, the regret
    unbounded when the floor is off (the release)."""
    offsets = sorted(design.plays)
    first = list(design.plays[offsets[0]]) if offsets else []
    return blend(_mean(_window_returns(design)), (design.hinted_mean or 0.0) - _mean(first),
                 plateau_weight=weights.plateau_weight, regret_weight=weights.regret_weight,
                 regret_scale=weights.regret_scale, floor_regret=weights.floor_regret, clip_unfloored=False,
                 low=weights.low, high=weights.high, ramp=weights.ramp)


def score_window(designs: Sequence[WindowDesign], variant: Variant, *, scale: float = 1.0,
                 emas: Mapping[str, WinRateEMA] | None = None,
                 weights: BlendWeights | None = None) -> WindowBatch:
    """The window's designer rewards, centred per skill (see the module docstring). ``solve_rate`` is
    ``blend`` with plateau weight 1 and regret weight 0, as in the release's script."""
    weights = weights or BlendWeights()
    if variant == "solve_rate":
        weights = BlendWeights(plateau_weight=1.0, regret_weight=0.0, regret_scale=weights.regret_scale,
                               floor_regret=weights.floor_regret, low=weights.low, high=weights.high,
                               ramp=weights.ramp)
    states = dict(emas or {})
    if variant == "learning_potential":
        pooled: dict[str, list[float]] = {}
        for design in designs:
            pooled.setdefault(design.skill, []).extend(_window_returns(design))
        for skill, values in pooled.items():
            if values:
                states[skill] = states.get(skill, WinRateEMA()).update(_mean(values))
    raw: list[float] = []
    masked: list[bool] = []
    for design in designs:
        if variant == "regret_based":
            value = (STEP_TIMEOUT_REWARD if design.timed_out
                     else max(0.0, (design.hinted_mean or 0.0) - _mean(_window_returns(design))))
        elif variant == "learning_potential":
            values = _window_returns(design)
            value = abs(_mean(values) - states.get(design.skill, WinRateEMA()).baseline) if values else 0.0
        else:
            value = _blend(design, weights)
        raw.append(value)
        masked.append(variant in ("blend", "solve_rate") and value < 0)
    by_skill: dict[str, list[float]] = {}
    for design, value, off in zip(designs, raw, masked):
        if not off:
            by_skill.setdefault(design.skill, []).append(value)
    means = {skill: float(np.mean(values)) for skill, values in by_skill.items()}
    rewards = tuple(None if off else (value - means[design.skill]) * scale
                    for design, value, off in zip(designs, raw, masked))
    return WindowBatch(rewards=rewards, raw=tuple(raw), emas=MappingProxyType(states))
