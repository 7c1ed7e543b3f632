"""Does the designer follow the agent? A measure read from a run's ``attempts.jsonl``, nothing replayed.

The designer probe (``probe.py``) is a snapshot at the final agent. Tracking asks the same question at
every iteration: did the designer play the *families* of designs that had just been worth the most regret
to the agent? With ``design.hinter = "design"`` (the embedded signal language) the hint names exactly what
a design hides (its code: ``code oak .``), so designs that share a hint are one family: the same
privileged insight, whatever else varies.

For each iteration ``t`` with enough history, over the families played in the ``window`` iterations
before it:

    follow(t) = mean over t's played designs of their family's recent regret
                - mean over the recently played families of their recent regret

Positive means the designer put its designs on the families the agent most needed the hint for, as the
agent looked just before; zero is what a designer blind to the agent's progress would score on average.
Model-written hints differ from design to design, so the measure is only reported where the hint is the
design's own (``design.hinter = "design"``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return sum(items) / len(items) if items else None


def follow_parts(attempts: Iterable[Mapping[str, Any]], *, window: int = 3) -> tuple[dict[int, tuple[float, float]], int]:
    """Per iteration with enough history: (the recent regret of the families its designs belong to, the
    recent regret of the average recently played family); ``follow`` is their difference. Also the last
    step seen.

    ``attempts`` are ``attempts.jsonl`` rows (``RunDirectory.attempts``); only played designs with a regret
    and a hint count. Rows that are not what a run writes (missing or mistyped fields) are skipped, not
    trusted.
    """
    played: dict[int, list[tuple[str, float]]] = defaultdict(list)
    last_step = 0
    for row in attempts:
        step, hint, regret = row.get("step"), row.get("hint"), row.get("regret")
        if type(step) is not int:
            continue
        last_step = max(last_step, step)
        if row.get("played") is True and isinstance(hint, str) and hint and isinstance(regret, (int, float)) \
                and not isinstance(regret, bool):
            played[step].append((hint, float(regret)))
    parts: dict[int, tuple[float, float]] = {}
    for step in sorted(played):
        recent: dict[str, list[float]] = defaultdict(list)
        for earlier in range(step - window, step):
            for family, regret in played.get(earlier, ()):
                recent[family].append(regret)
        family_regret = {family: sum(values) / len(values) for family, values in recent.items()}
        if len(family_regret) < 2:  # with one family there is nothing to choose between
            continue
        chosen = _mean(family_regret[family] for family, _ in played[step] if family in family_regret)
        if chosen is not None:
            parts[step] = (chosen, sum(family_regret.values()) / len(family_regret))
    return parts, last_step


def designer_tracking(attempts: Iterable[Mapping[str, Any]], *, window: int = 3) -> dict[str, Any]:
    """Per-iteration ``follow`` values (see the module docstring) and their summary over the run's halves."""
    parts, last_step = follow_parts(attempts, window=window)
    follow = {step: chosen - average for step, (chosen, average) in parts.items()}
    half = last_step // 2
    return {
        "window": window,
        "iterations": len(follow),
        "positive": sum(value > 0 for value in follow.values()),
        "first_half": _mean(value for step, value in follow.items() if step <= half),
        "second_half": _mean(value for step, value in follow.items() if step > half),
        "per_iteration": {str(step): value for step, value in follow.items()},
    }


def with_follow(rows: list[dict[str, Any]], attempts: Iterable[Mapping[str, Any]], *,
                window: int = 3) -> list[dict[str, Any]]:
    """``rows`` (metrics) with the two parts of ``follow`` per iteration, for the curves' mechanism panel:
    ``followed_regret`` (the families the designer chose) and ``family_regret`` (the average recent family,
    what a designer blind to the agent would choose on average)."""
    parts, _ = follow_parts(attempts, window=window)
    return [{**row, **({"followed_regret": parts[row["step"]][0], "family_regret": parts[row["step"]][1]}
                       if row.get("step") in parts else {})} for row in rows]


def tracking_line(tracking: Mapping[str, Any]) -> str:
    """One line for the terminal."""
    def signed(value: float | None) -> str:
        return "-" if value is None else f"{value:+.2f}"

    return (f"designer follows the agent (its families' regret over the {tracking['window']} iterations before, "
            f"minus the average family's): first half {signed(tracking['first_half'])}, second half "
            f"{signed(tracking['second_half'])}, positive in {tracking['positive']} of {tracking['iterations']} iterations")
