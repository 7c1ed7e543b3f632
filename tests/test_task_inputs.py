"""Third-party tasks and games named on the command line (issue 49): `spade-envs validate reasoning_gym:TASK`,
`textarena:GAME` or `gem:GAME` audits the library's own code through its adapter, in the process sandbox,
never in this process."""

from __future__ import annotations

import io
import json

import pytest

from spade_envs.cli import main
from tests.requires import require

require("reasoning_gym")  # found, not imported: collection stays cheap on every xdist worker


def test_a_reasoning_gym_task_is_validated_in_one_command(capsys):
    out = io.StringIO()
    code = main(["validate", "reasoning_gym:leg_counting", "reasoning_gym:no_such_task", "--sandbox", "process",
                 "--examples", "0", "--plan-seed", "0", "--json"], out=out)
    results = {r["path"]: r for r in json.loads(out.getvalue())["results"]}
    assert code == 1
    legs = results["reasoning_gym:leg_counting"]
    # The task's own scorer pays the right answer and nothing else; an unboxed answer is no answer here, so
    # what is judged is the scorer, not the adapter. Its one weakness is real: it does not strip spaces.
    assert legs["ok"] and legs["failures"] == [], legs["failures"]
    assert [w["check"] for w in legs["warnings"]] == ["good_answer_refused"]
    # Its scorer gives part marks to some wrong counts: no defect for the gate (a wrong answer never wins),
    # but the figure --fail-on 'ceiling>0.1' reads, for a user who wants all-or-nothing rewards.
    figures = legs["known_answers"]
    assert figures["bad_replies"] > 20 and 0.0 < figures["bad_reply_ceiling"] < 1.0
    missing = results["reasoning_gym:no_such_task"]
    assert not missing["ok"] and "not registered" in missing["failures"][0]["message"]


@pytest.mark.parametrize("command", [["validate", "reasoning_gym:leg_counting"],
                                     ["play", "reasoning_gym:leg_counting", "--solution"],
                                     ["export", "out", "reasoning_gym:leg_counting"]])
def test_a_task_that_imports_its_library_needs_the_process_sandbox(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert main(command, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "add --sandbox process" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("target", ["reasoning_gym:", "reasoning_gym:../etc", "reasoning_gym:a b", "textarena:",
                                    "textarena:Wor dle", "gem:game:", "gem:game:x/../y", "textarena:" + "x" * 81])
def test_a_malformed_task_name_is_refused_in_one_line(capsys, target):
    assert main(["validate", target, "--sandbox", "process"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "is not a" in err and "write" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [["validate", "textarena:GuessTheNumber-v0"], ["validate", "gem:Sudoku-v0-easy"],
                                     ["play", "gem:game:Sudoku-v0-easy"]])
def test_a_game_id_needs_the_process_sandbox(capsys, command):
    assert main(command, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "add --sandbox process" in err and len(err.strip().splitlines()) == 1


def test_textarena_and_gem_games_are_validated_in_one_command():
    pytest.importorskip("textarena")
    pytest.importorskip("gem")
    out = io.StringIO()
    code = main(["validate", "textarena:Countdown-v0", "gem:GuessTheNumber-v0-easy", "gem:FifteenPuzzle-v0-random",
                 "--sandbox", "process", "--examples", "0", "--seeds", "1", "--plan-seed", "0", "--json"], out=out)
    document = json.loads(out.getvalue())
    results = {r["path"]: r for r in document["results"]}
    assert code == 1
    # An honest game passes the tiers it can be held to. It ships no reference solution, so the checks that
    # need one are not run (not failed), and the report says so.
    guess = results["gem:GuessTheNumber-v0-easy"]
    assert guess["ok"], guess["failures"]
    assert [t["tier"] for t in guess["tiers"]] == ["static", "contract"]
    statuses = {c["check"]: c["status"] for c in guess["checks"]}
    assert statuses["solution_defined"] == "skipped" and statuses["terminates"] == "passed"
    # TextArena's Countdown pays a string when it ends on a bad move: a real defect, found through the
    # adapter (which passes rewards through untouched), with the library imported in the sandbox only
    # (TextArena maps ~630 MB, more than the sandbox's default allows: the adapter's allowance is used).
    countdown = results["textarena:Countdown-v0"]
    assert not countdown["ok"]
    assert [(f["check"], "reward is a str" in f["message"]) for f in countdown["failures"]] == [("step_returns", True)]
    # A game the library cannot build is reported in the library's own words.
    broken = results["gem:FifteenPuzzle-v0-random"]
    assert [f["check"] for f in broken["failures"]] == ["loads"] and "TypeError" in broken["failures"][0]["message"]
    inputs = {i["path"]: i for i in document["summary"]["inputs"]}
    assert any("no reference solution" in note for note in inputs["gem:GuessTheNumber-v0-easy"]["not_checked"])
    assert any("close()" in note for note in inputs["textarena:Countdown-v0"]["not_checked"])


def test_a_textarena_game_is_played_through_its_adapter(capsys):
    pytest.importorskip("textarena")
    out = io.StringIO()
    with_lines = io.StringIO("\\boxed{10}\n\\boxed{11}\n")
    code = main(["play", "textarena:GuessTheNumber-v0", "--sandbox", "process", "--seed", "3"], out=out,
                stdin=with_lines)
    text = out.getvalue()
    assert code == 0, text
    assert text.count("reward=0 terminated=False") == 2 and "[Player] [10]" in text  # \\boxed{10} -> [10]
