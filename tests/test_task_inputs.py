"""Third-party tasks named on the command line (issue 49): `spade-envs validate reasoning_gym:TASK` audits
the task's own generator and scorer through its adapter, in the process sandbox, never in this process."""

from __future__ import annotations

import io
import json

import pytest

from spade_envs.cli import main

pytest.importorskip("reasoning_gym")


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


@pytest.mark.parametrize("target", ["reasoning_gym:", "reasoning_gym:../etc", "reasoning_gym:a b"])
def test_a_malformed_task_name_is_refused_in_one_line(capsys, target):
    assert main(["validate", target, "--sandbox", "process"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "is not a Reasoning Gym task name" in err and len(err.strip().splitlines()) == 1
