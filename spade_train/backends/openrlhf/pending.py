"""Designs waiting for their delay window to close (``semantics.design_scoring = "window"``).

The release scores a design on the agent's plays of it during the ``R`` steps after it was written and
trains the design's sample ``R`` steps later, with the log-probs it was sampled with. OpenRLHF needs a
sample's reward when the sample returns, so on this backend a designer sample *writes* a design now and
*returns* one written ``R`` steps earlier, whose window has closed. What the shared state keeps between the
two is here, small and JSON-serialisable (it is checkpointed with the state):

- ``StoredSample``: the trained tokens of a designer sample (prompt and first reply), its action range and
  rollout log-probs, exactly as the sample would have returned them;
- ``PendingDesign``: a valid design in its window, with the plays recorded so far: the unhinted returns of
  the agent rows by step offset (0 = the step it was written), and the hinted returns of the untrained
  hint plays agent samples make beside their own (the release's hint phase, also untrained);
- ``PendingRow``: the designs one designer row wrote, slot by slot (None: no valid design in that slot,
  or none that can be trained), so that a later row returns them sample for sample;
- ``score_row``: the row's window rewards, from ``spade_train.window.score_window``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spade_train.rewards import DesignerRewardConfig, WinRateEMA
from spade_train.window import BlendWeights, WindowDesign, score_window


@dataclass(frozen=True)
class StoredSample:
    """A designer sample's trained tokens, kept until its window closes."""

    tokens: tuple[int, ...]
    action_ranges: tuple[tuple[int, int], ...]
    logprobs: tuple[float, ...]
    truncated: bool = False
    logs: Mapping[str, float] = field(default_factory=dict)
    """The designer figures of the attempt that wrote it (``spade/design_*``)."""

    def __post_init__(self) -> None:
        if len(self.tokens) != len(self.logprobs):
            raise ValueError(f"a stored designer sample has {len(self.tokens)} tokens and "
                             f"{len(self.logprobs)} log-probs; they must line up")

    def state(self) -> dict[str, Any]:
        return {"tokens": list(self.tokens), "action_ranges": [list(r) for r in self.action_ranges],
                "logprobs": list(self.logprobs), "truncated": self.truncated, "logs": dict(self.logs)}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> StoredSample:
        return cls(tokens=tuple(int(t) for t in state["tokens"]),
                   action_ranges=tuple((int(a), int(b)) for a, b in state["action_ranges"]),
                   logprobs=tuple(float(v) for v in state["logprobs"]), truncated=bool(state["truncated"]),
                   logs={str(k): float(v) for k, v in state.get("logs", {}).items()})


@dataclass
class PendingDesign:
    """One valid design in its window, and the plays recorded of it so far."""

    env_id: str
    skill: str
    step: int
    """The step it was written in: offset 0 of its window."""
    sample: StoredSample | None
    """None: the design is played and scored, but its designer sample cannot be trained (a failed call)."""
    has_hint: bool
    plays: dict[int, list[float]] = field(default_factory=dict)
    """Step offset -> the unhinted returns of the agent rows' plays in that step."""
    wins: int = 0
    hinted_returns: list[float] = field(default_factory=list)
    hint_plays_assigned: int = 0
    timed_out: bool = False

    def record_play(self, offset: int, episode_return: float, won: bool, timed_out: bool,
                    timeout_plays: str = "window", *, counted: bool = True) -> None:
        """An unhinted play at ``offset``; its timeout flags the design where ``timeout_plays`` counts it
        ("regeneration_step": offset 0 only, the release; "window": any offset). A play that is not
        ``counted`` (dropped after its retry failed too) enters no mean, but its timeout still flags."""
        if counted:
            self.plays.setdefault(offset, []).append(float(episode_return))
            self.wins += int(won)
        self.timed_out = self.timed_out or (timed_out and (timeout_plays == "window" or offset == 0))

    @property
    def unhinted_returns(self) -> list[float]:
        return [r for offset in sorted(self.plays) for r in self.plays[offset]]

    def window_design(self) -> WindowDesign:
        """The design as ``score_window`` reads it: no hinted play (no usable hint, or none finished) gives a
        hinted mean of None, which the release takes as 0."""
        # The release's cached r_hint is an np.mean, as score_window's means are.
        hinted = float(np.mean(self.hinted_returns)) if self.hinted_returns else None
        return WindowDesign(skill=self.skill, plays={o: tuple(r) for o, r in self.plays.items()},
                            hinted_mean=hinted, timed_out=self.timed_out)

    def state(self) -> dict[str, Any]:
        return {"env_id": self.env_id, "skill": self.skill, "step": self.step,
                "sample": self.sample.state() if self.sample is not None else None, "has_hint": self.has_hint,
                "plays": {str(o): list(r) for o, r in self.plays.items()}, "wins": self.wins,
                "hinted_returns": list(self.hinted_returns), "hint_plays_assigned": self.hint_plays_assigned,
                "timed_out": self.timed_out}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> PendingDesign:
        sample = state.get("sample")
        return cls(env_id=str(state["env_id"]), skill=str(state["skill"]), step=int(state["step"]),
                   sample=StoredSample.from_state(sample) if sample is not None else None,
                   has_hint=bool(state["has_hint"]),
                   plays={int(o): [float(r) for r in rs] for o, rs in state["plays"].items()},
                   wins=int(state["wins"]), hinted_returns=[float(r) for r in state["hinted_returns"]],
                   hint_plays_assigned=int(state["hint_plays_assigned"]), timed_out=bool(state["timed_out"]))


@dataclass
class PendingRow:
    """The designs of one designer row, slot by slot, until a later row returns them."""

    row: int
    step: int
    skill: str
    slots: dict[int, PendingDesign | None] = field(default_factory=dict)

    def state(self) -> dict[str, Any]:
        return {"row": self.row, "step": self.step, "skill": self.skill,
                "slots": {str(i): d.state() if d is not None else None for i, d in self.slots.items()}}

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> PendingRow:
        return cls(row=int(state["row"]), step=int(state["step"]), skill=str(state["skill"]),
                   slots={int(i): PendingDesign.from_state(d) if d is not None else None
                          for i, d in state["slots"].items()})


@dataclass(frozen=True)
class RipeSample:
    """One slot of a row whose window closed, as a later designer sample returns it."""

    sample: StoredSample | None
    """None: nothing to train in this slot (no valid design, or its sample could not be trained)."""
    reward: float | None
    """The window reward; None: masked (no design, or a blend below 0, which the release never trains)."""
    raw: float | None = None
    env_id: str | None = None
    written_step: int = 0
    plays: int = 0
    hinted_mean: float | None = None
    win_rate: float | None = None
    """The mean of the window's unhinted returns (what the release's blend reads as the win rate)."""
    regret: float | None = None
    """The hinted mean minus the mean of the first offset's plays (the blend's regret)."""


def blend_weights(config: DesignerRewardConfig) -> BlendWeights:
    """The blend's knobs from the run's designer-reward configuration."""
    return BlendWeights(plateau_weight=config.plateau_weight, regret_weight=config.regret_weight,
                        regret_scale=config.regret_scale, floor_regret=config.floor_regret,
                        low=config.plateau_low, high=config.plateau_high, ramp=config.plateau_ramp)


def score_row(pending: PendingRow, samples: int, config: DesignerRewardConfig,
              emas: Mapping[str, WinRateEMA]) -> tuple[list[RipeSample], dict[str, WinRateEMA]]:
    """The row's slots ``0 .. samples-1`` scored by ``score_window`` over the row's designs (one skill, so the
    per-skill centring is over the row, a shift ``group_norm`` removes anyway), and the EMAs after it."""
    designs = [(index, design) for index, design in sorted(pending.slots.items())
               if design is not None and index < samples]
    batch = score_window([d.window_design() for _, d in designs], config.variant, scale=config.scale,
                         emas=emas, weights=blend_weights(config))
    scored: dict[int, RipeSample] = {}
    for (index, design), reward, raw in zip(designs, batch.rewards, batch.raw):
        window = design.window_design()
        returns = design.unhinted_returns
        first = window.plays[min(window.plays)] if window.plays else ()
        win_rate = sum(returns) / len(returns) if returns else None
        regret = ((window.hinted_mean or 0.0) - (sum(first) / len(first) if first else 0.0)) if returns else None
        scored[index] = RipeSample(sample=design.sample, reward=reward if design.sample is not None else None,
                                   raw=raw, env_id=design.env_id, written_step=design.step, plays=len(returns),
                                   hinted_mean=window.hinted_mean, win_rate=win_rate, regret=regret)
    ripe = [scored.get(i, RipeSample(sample=None, reward=None, written_step=pending.step)) for i in range(samples)]
    return ripe, dict(batch.emas)
