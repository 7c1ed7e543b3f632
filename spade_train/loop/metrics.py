"""An iteration's metrics: the numbers of its row of ``metrics.jsonl``, its TensorBoard scalars and its curves.

One iteration holds a dozen designs and a few played environments, so every rate comes with what it
was measured on and how sure it is:

- counts: ``designs``, ``valid_n`` (the distinct designs the valid rate is over), ``played``,
  ``episodes_hinted`` and ``episodes_unhinted``;
- 95% intervals as ``<metric>_low`` / ``<metric>_high``: Wilson's interval for the valid rate; for the
  mean regret, the per-design bootstrap intervals the loop records (``regret_ci``) combined as
  independent errors (half-width ``sqrt(sum h_i^2) / k`` over the ``k`` designs with one); a normal
  interval (``1.96 * sd / sqrt(n)``) for the designer's raw reward and the unhinted return;
- per skill, ``skill/<skill>/<metric>`` for designs, validity, regret, the win rate without the hint and
  the designer's raw reward;
- why designs were turned down, ``rejected/<reason>``: the number of distinct designs that failed each
  check (a design failing two checks counts under both), or that ended as malformed, duplicate,
  unplayable or a failed designer call.

A mean over nothing is None (``null`` in JSON, a gap in the curves), never 0: an iteration where no
design was played has no regret, not a regret of zero.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from spade_train.loop.design import DesignAttempt, Outcome
from spade_train.loop.summary import DesignerScore

Metrics = dict[str, float | None]
Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""

SKILL_METRICS: tuple[str, ...] = ("designs", "valid_rate", "regret_mean", "win_rate_unhinted",
                                  "designer_reward_raw_mean")
"""The metrics each skill also gets, as ``skill/<skill>/<metric>``."""


def skill_key(skill: str, metric: str) -> str:
    return f"skill/{skill}/{metric}"


def rejected_key(reason: str) -> str:
    return f"rejected/{reason}"


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def normal_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% normal interval of the mean of ``values`` (None under two values)."""
    if len(values) < 2:
        return None
    centre = sum(values) / len(values)
    spread = math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))
    half = Z_95 * spread / math.sqrt(len(values))
    return centre - half, centre + half


def wilson_interval(successes: int, n: int) -> tuple[float, float] | None:
    """Wilson's 95% interval for a rate of ``successes`` in ``n`` (None for n = 0): unlike the normal
    interval it stays inside [0, 1] and is not zero-width at 0 or n successes."""
    if n <= 0:
        return None
    rate, z2 = successes / n, Z_95 * Z_95
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def combined_regret_interval(attempts: Sequence[DesignAttempt]) -> tuple[float, float] | None:
    """The interval of the mean regret from the designs' own intervals (see the module docstring)."""
    pairs = [(a.regret, a.regret_ci) for a in attempts if a.regret is not None and a.regret_ci is not None]
    if not pairs:
        return None
    centre = sum(regret for regret, _ in pairs) / len(pairs)
    half = math.sqrt(sum(((high - low) / 2) ** 2 for _, (low, high) in pairs)) / len(pairs)
    return centre - half, centre + half


def rejection_reasons(attempt: DesignAttempt) -> list[str]:
    """Why a distinct design was turned down: its failing checks, or its outcome (nothing for a valid one)."""
    if attempt.outcome in (Outcome.PLAYED, Outcome.REPEAT):
        return []
    if attempt.outcome is Outcome.INVALID and attempt.report is not None and attempt.report.failures:
        return sorted({failure.check for failure in attempt.report.failures})
    return [attempt.outcome.value]


def _with_interval(metrics: Metrics, key: str, interval: tuple[float, float] | None) -> None:
    metrics[f"{key}_low"], metrics[f"{key}_high"] = interval if interval is not None else (None, None)


def _core(attempts: Sequence[DesignAttempt], scores: Sequence[DesignerScore]) -> Metrics:
    """The metrics of a group of attempts (the iteration's, or one skill's), without counts by reason."""
    distinct = [a for a in attempts if a.outcome is not Outcome.REPEAT]
    played = [a for a in attempts if a.evaluation is not None]
    evaluations = [a.evaluation for a in played if a.evaluation is not None]
    regrets = [a.regret for a in played if a.regret is not None]
    return {
        "designs": float(len(attempts)),
        # Over distinct designs: a repeat says nothing new about validity (it has its own rate).
        "valid_n": float(len(distinct)),
        "valid_rate": mean([float(a.valid) for a in distinct]),
        "played": float(len(played)),
        "regret_mean": mean(regrets),
        "win_rate_hinted": mean([e.win_rate(True) for e in evaluations if e.hinted]),
        "win_rate_unhinted": mean([e.win_rate(False) for e in evaluations if e.unhinted]),
        "designer_reward_raw_mean": mean([s.raw for s in scores]),
    }


def iteration_metrics(attempts: Sequence[DesignAttempt], scores: Sequence[DesignerScore]) -> Metrics:
    """The iteration's row (see the module docstring); ``scores`` are aligned with ``attempts``."""
    metrics = _core(attempts, scores)
    played = [a for a in attempts if a.evaluation is not None]
    evaluations = [a.evaluation for a in played if a.evaluation is not None]
    episodes = [e for evaluation in evaluations for e in evaluation.episodes()]
    distinct = [a for a in attempts if a.outcome is not Outcome.REPEAT]
    unhinted_returns = [r for e in evaluations for r in e.returns(False)]
    raw_rewards = [s.raw for s in scores]
    centred = [s.reward for s in scores if s.reward is not None]
    metrics.update({
        "repeat_rate": mean([float(a.outcome is Outcome.REPEAT) for a in attempts]),
        # Every design malformed for run.stop_after_malformed iterations stops the run (the driver reads it).
        "malformed_rate": mean([float(a.outcome is Outcome.MALFORMED) for a in attempts]),
        "episodes_hinted": float(sum(len(e.hinted) for e in evaluations)),
        "episodes_unhinted": float(sum(len(e.unhinted) for e in evaluations)),
        "return_unhinted": mean(unhinted_returns),
        "hint_accepted_rate": mean([float(a.hint.accepted) for a in played if a.hint is not None]),
        "designer_errors": float(sum(a.outcome is Outcome.DESIGNER_FAILED for a in attempts)),
        "episode_errors": float(sum(e.error is not None for e in episodes)),
        "timeouts": float(sum(e.timed_out for e in evaluations)),
        "designer_reward_mean": mean(centred),
        "designer_reward_masked": float(len(scores) - len(centred)),
    })
    _with_interval(metrics, "valid_rate", wilson_interval(sum(a.valid for a in distinct), len(distinct)))
    _with_interval(metrics, "regret_mean", combined_regret_interval(played))
    _with_interval(metrics, "designer_reward_raw_mean", normal_interval(raw_rewards))
    _with_interval(metrics, "return_unhinted", normal_interval(unhinted_returns))
    for skill in sorted({a.skill for a in attempts}):
        chosen = [(a, s) for a, s in zip(attempts, scores) if a.skill == skill]
        group = _core([a for a, _ in chosen], [s for _, s in chosen])
        metrics.update({skill_key(skill, name): group[name] for name in SKILL_METRICS})
    reasons = Counter(reason for attempt in attempts for reason in rejection_reasons(attempt))
    metrics.update({rejected_key(reason): float(count) for reason, count in sorted(reasons.items())})
    return metrics
