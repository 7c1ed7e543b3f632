"""Game outcomes: how one game is scored, and the win / draw / loss / invalid-move rates of a benchmark.

Every game sample records ``details["outcome"]`` (``win``, ``draw``, ``loss``, or ``error`` when the
game could not be played: the model endpoint failed or the environment broke) and, for two-player
games, ``details["invalid_move"]``. ``game_outcome_rates`` is what the results document and the report
call to show those rates next to a games benchmark's score.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Literal

from spade_eval.benchmark import ItemRecord
from spade_train.policies.base import SamplingParams

Outcome = Literal["win", "draw", "loss", "error"]
OUTCOMES: tuple[Outcome, ...] = ("win", "draw", "loss", "error")
SCORES: dict[Outcome, float] = {"win": 1.0, "draw": 0.5, "loss": 0.0, "error": 0.0}
"""A sample's score by outcome (the ``SampleRecord.score`` convention for games)."""


def game_outcome_rates(records: Iterable[ItemRecord]) -> dict[str, float] | None:
    """Rates over every sample of every record that carries an outcome; None when none does.

    Returns ``games`` (how many were counted), ``win_rate``, ``draw_rate``, ``loss_rate``,
    ``error_rate`` and, when any sample says whether its move was invalid (two-player games),
    ``invalid_move_rate``: the share of games lost by an invalid or missing move.
    """
    counts = dict.fromkeys(OUTCOMES, 0)
    invalid = judged = 0
    for record in records:
        for sample in record.samples:
            outcome = sample.details.get("outcome")
            if outcome not in counts:
                continue
            counts[outcome] += 1
            if "invalid_move" in sample.details:
                judged += 1
                invalid += bool(sample.details["invalid_move"])
    games = sum(counts.values())
    if games == 0:
        return None
    rates: dict[str, float] = {"games": float(games)}
    rates.update({f"{outcome}_rate": count / games for outcome, count in counts.items()})
    if judged:
        rates["invalid_move_rate"] = invalid / judged
    return rates


def sample_sampling(sampling: SamplingParams, sample: int) -> SamplingParams:
    """Sampling for the ``sample``-th attempt at an item: seed + k when seeded (as the reasoning suites do)."""
    return sampling if sampling.seed is None else replace(sampling, seed=sampling.seed + sample)
