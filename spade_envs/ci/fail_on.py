"""``--fail-on``: further conditions under which a validation run fails.

A rejected environment always fails the run (exit code 1): a condition only adds reasons. Conditions are
written as a CI user reads them, comma-separated or given again:

* ``warning`` -- any warning (``close_method``, ``good_answer_refused``, a judge at ``warning`` severity);
* ``<figure><op><number>`` -- a known-answer figure of any report against a threshold, with ``>``,
  ``>=``, ``<`` or ``<=``: ``ceiling`` (the highest return a known-bad reply earned), ``answer_free`` (the
  best answer-free strategy's mean return) and ``refused`` (the share of right answers refused). A report
  without known-answer figures (a game whose solution is several moves) has nothing to compare and does
  not trip a figure's condition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spade_envs.errors import SpadeError
from spade_envs.spec.models import KnownAnswers, ValidationReport

FIGURES: dict[str, str] = {
    "ceiling": "bad_reply_ceiling",
    "answer_free": "answer_free_return",
    "refused": "good_refused_share",
}
"""A condition's name for a known-answer figure -> the ``KnownAnswers`` field it reads."""

_COMPARE = re.compile(r"([a-z_]+)\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)")
_OPERATORS = {">": float.__gt__, ">=": float.__ge__, "<": float.__lt__, "<=": float.__le__}


class FailOnError(SpadeError):
    """A ``--fail-on`` condition that cannot be read."""


@dataclass(frozen=True)
class Condition:
    """One ``--fail-on`` condition: ``warning``, or a figure compared with a threshold."""

    text: str
    figure: str | None = None
    operator: str | None = None
    threshold: float = 0.0

    def reason(self, report: ValidationReport) -> str | None:
        """Why ``report`` trips this condition (None where it does not)."""
        if self.figure is None:
            if report.warnings:
                return f"{len(report.warnings)} warning(s): {', '.join(dict.fromkeys(w.check for w in report.warnings))}"
            return None
        figures: KnownAnswers | None = report.known_answers
        if figures is None or (self.figure != "answer_free" and _played(figures, self.figure) == 0):
            return None
        value = float(getattr(figures, FIGURES[self.figure]))
        if _OPERATORS[self.operator or ">"](value, self.threshold):
            return f"{self.figure} {value:g} {self.operator} {self.threshold:g}"
        return None


def _played(figures: KnownAnswers, figure: str) -> int:
    """How many replies a figure rests on: a ceiling over no bad replies is no measurement."""
    return figures.bad_replies if figure == "ceiling" else figures.good_replies


def parse_conditions(values: list[str]) -> list[Condition]:
    """The conditions of every ``--fail-on`` value (each may hold several, comma-separated)."""
    conditions = []
    for value in values:
        for text in (part.strip() for part in value.split(",")):
            if not text:
                continue
            if text in ("warning", "warnings"):
                conditions.append(Condition("warning"))
                continue
            match = _COMPARE.fullmatch(text)
            if match is None or match.group(1) not in FIGURES:
                raise FailOnError(f"--fail-on {text!r} is not a condition; write 'warning' or a figure and a "
                                  f"threshold such as 'ceiling>0.1' (figures: {', '.join(FIGURES)})")
            figure, operator, threshold = match.group(1), match.group(2), float(match.group(3))
            conditions.append(Condition(text, figure, operator, threshold))
    return conditions


def tripped(conditions: list[Condition], reports: list[ValidationReport]) -> list[tuple[str, str, str]]:
    """(environment, condition, why) for every condition a report trips, in report order."""
    found = []
    for report in reports:
        for condition in conditions:
            why = condition.reason(report)
            if why is not None:
                found.append((report.path or report.class_name or "?", condition.text, why))
    return found
