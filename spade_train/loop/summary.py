"""A scored design attempt as it is recorded: one line of ``attempts.jsonl``, what the OpenRLHF executor
sends to the shared state, and what the memory stores.

A ``DesignAttempt`` holds every generation and episode of an attempt (what trainers need); its
``AttemptSummary`` keeps only the facts about it, small enough to pickle across Ray and to write as JSON,
with the designer's score and how it was reached (``raw_reward`` minus the skill's ``reward_baseline``).
``remember`` writes summaries to the memory, the same way for every backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from spade_envs.spec.models import CheckFailure
from spade_train.environments import EnvironmentRecord
from spade_train.loop.design import VALID_OUTCOMES, DesignAttempt, Outcome
from spade_train.memory import EnvironmentMemory
from spade_train.semantics import MemoryWinRate


@dataclass(frozen=True)
class DesignerScore:
    """The designer's reward for one attempt, and how centring reached it."""

    raw: float
    """The attempt's own reward under the run's variant (``rewards.designer_reward``)."""
    reward: float | None
    """``raw`` minus ``baseline``, scaled; None when the attempt was masked out of the update."""
    baseline: float | None
    """The mean raw reward of the attempt's skill in its batch; with one attempt of a skill it is the
    attempt's own reward, so the reward is 0."""


@dataclass(frozen=True)
class AttemptSummary:
    """The facts of one scored design attempt (see the module docstring)."""

    step: int
    kind: str
    """The kind that was asked for (``environment.spec.kind`` is the kind the code is)."""
    skill: str
    outcome: Outcome
    detail: str
    environment: EnvironmentRecord | None
    failures: tuple[CheckFailure, ...]
    repairs: int
    hint: str | None
    hint_accepted: bool | None
    regret: float | None
    regret_ci: tuple[float, float] | None
    win_rate_hinted: float | None
    win_rate_unhinted: float | None
    plays: int
    unhinted_wins: tuple[bool, ...]
    score: DesignerScore
    unhinted_returns: tuple[float, ...] = ()

    @classmethod
    def of(cls, attempt: DesignAttempt, score: DesignerScore) -> AttemptSummary:
        evaluation = attempt.evaluation
        return cls(
            step=attempt.plan.step, kind=attempt.kind, skill=attempt.skill, outcome=attempt.outcome,
            detail=attempt.detail, environment=attempt.environment,
            failures=tuple(attempt.report.failures) if attempt.report is not None else (),
            repairs=attempt.repairs,
            hint=attempt.hint.hint if attempt.hint is not None else None,
            hint_accepted=attempt.hint.accepted if attempt.hint is not None else None,
            regret=attempt.regret, regret_ci=attempt.regret_ci,
            win_rate_hinted=evaluation.win_rate(True) if evaluation is not None and evaluation.hinted else None,
            win_rate_unhinted=evaluation.win_rate(False) if evaluation is not None else None,
            plays=len(evaluation.hinted) + len(evaluation.unhinted) if evaluation is not None else 0,
            unhinted_wins=tuple(e.won for e in evaluation.unhinted) if evaluation is not None else (),
            score=score,
            unhinted_returns=evaluation.returns(False) if evaluation is not None else (),
        )

    def memory_win_rate(self, rule: MemoryWinRate) -> float | None:
        """The win rate the memory records: counted wins, or (the release) the share of returns above 0."""
        if rule == "wins" or self.win_rate_unhinted is None or not self.unhinted_returns:
            return self.win_rate_unhinted
        return sum(r > 0 for r in self.unhinted_returns) / len(self.unhinted_returns)

    @property
    def valid(self) -> bool:
        return self.outcome in VALID_OUTCOMES

    @property
    def played(self) -> bool:
        """Whether its plays count (a played, valid design with a regret)."""
        return self.valid and self.regret is not None and self.win_rate_unhinted is not None

    def to_json(self) -> dict[str, Any]:
        """The ``attempts.jsonl`` line."""
        spec = self.environment.spec if self.environment is not None else None
        return {
            "step": self.step, "kind": self.kind, "skill": self.skill, "outcome": self.outcome.value,
            "detail": self.detail, "valid": self.valid, "played": self.played,
            "env_id": spec.id if spec else None, "env_kind": spec.kind if spec else None,
            "class_name": spec.class_name if spec else None, "repairs": self.repairs,
            "failures": [failure.check for failure in self.failures],
            "hint": self.hint, "hint_accepted": self.hint_accepted,
            "regret": self.regret, "regret_ci": list(self.regret_ci) if self.regret_ci else None,
            "win_rate_hinted": self.win_rate_hinted, "win_rate_unhinted": self.win_rate_unhinted,
            "raw_reward": self.score.raw, "reward": self.score.reward, "reward_baseline": self.score.baseline,
        }


def remember(memory: EnvironmentMemory, summaries: Iterable[AttemptSummary],
             win_rate: MemoryWinRate = "wins") -> None:
    """Store every attempt whose code passed the checker (valid or not), and the plays of those played,
    in one transaction. Code the memory already holds keeps its record, unless this attempt played it:
    a played design's record (its hint, the kind it showed) and verdict replace the older ones.
    ``win_rate`` is ``Semantics.memory_win_rate``."""
    with memory.batch():
        for summary in summaries:
            if summary.environment is None:
                continue
            added = memory.add_environment(summary.environment, iteration=summary.step, valid=summary.valid,
                                           failing_checks=summary.failures)
            if not added and summary.valid:
                memory.replace_spec(summary.environment.spec)
                memory.set_verdict(summary.environment.id, valid=True)
            if summary.played:
                rate = summary.memory_win_rate(win_rate)
                assert summary.regret is not None and rate is not None
                memory.record_evaluation(summary.environment.id, step=summary.step, unhinted_win_rate=rate,
                                         hinted_win_rate=summary.win_rate_hinted, regret=summary.regret,
                                         plays=summary.plays, regret_ci=summary.regret_ci)
