"""A run's figures, over all its iterations: what the progress bar shows and the summary prints.

A single iteration's numbers swing with its few designs; a run is judged by its trend. The bar shows the
means over the iterations so far, and the summary at the end compares the first half of the run with the
second (``metrics.jsonl`` keeps every iteration's own numbers).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

FIGURES: tuple[tuple[str, str, str], ...] = (
    ("valid_rate", "valid designs", "{:.2f}"),
    ("designer_reward_raw_mean", "designer reward", "{:.2f}"),
    ("regret_mean", "regret", "{:+.2f}"),
    ("return_unhinted", "return without hint", "{:.2f}"),
    ("win_rate_hinted", "win rate with hint", "{:.2f}"),
    ("win_rate_unhinted", "win rate without hint", "{:.2f}"),
)
"""(metric, label, format) of the figures a run is summarised by."""


def mean_of(rows: Sequence[dict[str, Any]], key: str) -> float | None:
    values = [float(row[key]) for row in rows if row.get(key) is not None]
    return sum(values) / len(values) if values else None


def progress_figures(rows: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The bar's postfix: run means of validity, regret and the unhinted return, and environments played."""
    figures = {"valid": mean_of(rows, "valid_rate"), "regret": mean_of(rows, "regret_mean"),
               "ret": mean_of(rows, "return_unhinted")}
    shown = {key: ("{:+.2f}" if key == "regret" else "{:.2f}").format(value)
             for key, value in figures.items() if value is not None}
    shown["played"] = str(int(sum(row.get("played", 0.0) for row in rows)))
    return shown


def summary_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The end-of-run summary: totals, then each figure over the first and the second half of the run."""
    if not rows:
        return ["no iteration finished"]
    designs = int(sum(row.get("designs", 0.0) for row in rows))
    played = int(sum(row.get("played", 0.0) for row in rows))
    lines = [f"{len(rows)} iteration(s), {designs} designs, {played} played"]
    half = len(rows) // 2
    if half:
        lines.append(f"{'':24}{'first half':>12}{'second half':>13}")
        for key, label, form in FIGURES:
            first, second = mean_of(rows[:half], key), mean_of(rows[half:], key)
            if first is None or second is None:
                continue
            lines.append(f"{label:24}{form.format(first):>12}{form.format(second):>13}")
    else:
        for key, label, form in FIGURES:
            value = mean_of(rows, key)
            if value is not None:
                lines.append(f"{label:24}{form.format(value):>12}")
    return lines
