"""Tracking (spade_train/run/tracking.py): does the designer play the design families that had just been
worth the most regret? Checked on synthetic attempt rows whose answer is known, including rows a run
never writes."""

from __future__ import annotations

import json

from spade_train.run.directory import RunDirectory
from spade_train.run.tracking import designer_tracking, tracking_line

REGRET = {"code ash .": 0.9, "code elm .": 0.5, "code oak .": 0.1}


def _rows(choose, steps: int = 10) -> list[dict]:
    """Each step plays every family once (so recent regret is known for all) plus two designs of the family
    ``choose`` picks from the families' regrets."""
    rows = []
    for step in range(1, steps + 1):
        for hint in [*REGRET, choose(REGRET), choose(REGRET)]:
            rows.append({"step": step, "played": True, "hint": hint, "regret": REGRET[hint]})
    return rows


def test_a_designer_on_the_highest_regret_family_follows_and_one_on_the_lowest_does_not():
    follows = designer_tracking(_rows(lambda regrets: max(regrets, key=regrets.get)))
    avoids = designer_tracking(_rows(lambda regrets: min(regrets, key=regrets.get)))
    blind = designer_tracking(_rows(lambda regrets: "code elm ."))  # the average family
    # Step 1 has no history: 9 iterations measured. Highest: (3 * 0.5 + 2 * 0.9) / 5 - 0.5 = +0.16.
    assert follows["iterations"] == avoids["iterations"] == 9
    assert follows["positive"] == 9 and abs(follows["first_half"] - 0.16) < 1e-9
    assert avoids["positive"] == 0 and abs(avoids["second_half"] + 0.16) < 1e-9
    assert abs(blind["first_half"]) < 1e-9 and blind["positive"] == 0
    assert "positive in 9 of 9 iterations" in tracking_line(follows)


def test_only_the_window_before_an_iteration_counts():
    # Regret of ash is high only long ago; in the 3 iterations before step 10 it is the lowest.
    rows = [{"step": s, "played": True, "hint": h, "regret": (0.9 if h == "code ash ." else 0.2) if s < 5 else
             (0.0 if h == "code ash ." else 0.2)} for s in range(1, 10) for h in ("code ash .", "code elm .")]
    rows += [{"step": 10, "played": True, "hint": "code ash .", "regret": 0.5}]
    assert designer_tracking(rows)["per_iteration"]["10"] < 0
    assert designer_tracking(rows, window=9)["per_iteration"]["10"] > 0


def test_rows_a_run_never_writes_are_skipped_not_trusted(tmp_path):
    hostile = [{"step": "1", "played": True, "hint": "code ash .", "regret": 1.0},
               {"step": 2, "played": "yes", "hint": "code ash .", "regret": 1.0},
               {"step": 2, "played": True, "hint": None, "regret": 1.0},
               {"step": 2, "played": True, "hint": "code ash .", "regret": True},
               {"step": 2, "played": True, "hint": "code ash .", "regret": None}]
    assert designer_tracking(hostile)["iterations"] == 0
    lines = [json.dumps(row) for row in _rows(lambda regrets: "code ash .", steps=3)]
    (tmp_path / "attempts.jsonl").write_text("\n".join([lines[0], "{not json", "[1, 2]", *lines[1:], '{"step": 4'])
                                             + "\n")
    rows = RunDirectory(tmp_path).attempts()
    assert len(rows) == len(lines) and designer_tracking(rows)["iterations"] == 2
    assert RunDirectory(tmp_path / "missing").attempts() == []
