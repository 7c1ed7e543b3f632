"""A verifiers environment audited in one command (issue 49): `spade-envs validate verifiers:FOLDER`.

The environments here are written as Environments Hub folders are (a module whose load_environment returns
a vf.Environment with its dataset and rubric) and run through verifiers 0.3.1 itself, in the process
sandbox: the rollout, the env_response and the rubric are the library's, only the model's replies are the
gate's."""

from __future__ import annotations

import io
import json
from pathlib import Path
from textwrap import dedent

import pytest

from spade_envs.cli import main
from tests.requires import require

require("verifiers")  # found, not imported: collection stays cheap on every xdist worker

SUMS = dedent('''
    import verifiers as vf
    from datasets import Dataset


    def load_environment(num_examples: int = 24, **kwargs):
        rows = [{"question": f"What is {17 * i + 3} + {29 * i + 11}?", "answer": str(46 * i + 14)}
                for i in range(num_examples)]
        parser = vf.Parser(extract_fn=vf.extract_boxed_answer)

        def correct(completion, answer, **kwargs) -> float:
            return 1.0 if (parser.parse_answer(completion) or "").strip() == answer else 0.0

        rubric = vf.Rubric(funcs=[correct], weights=[1.0], parser=parser)
        return vf.SingleTurnEnv(dataset=Dataset.from_list(rows), system_prompt="Put the final answer in \\\\boxed{}.",
                                parser=parser, rubric=rubric)
''')

# The classic grader defect: the answer anywhere in the reply is paid, so a reply listing candidates wins.
ANYWHERE = SUMS.replace(
    'return 1.0 if (parser.parse_answer(completion) or "").strip() == answer else 0.0',
    'text = completion[-1]["content"] if isinstance(completion, list) else completion\n'
    '        return 1.0 if answer in str(text) else 0.0')

GUESS = dedent('''
    import verifiers as vf
    from datasets import Dataset


    class GuessEnv(vf.MultiTurnEnv):
        """Guess a number from 1 to 64, told higher or lower after each guess."""

        async def env_response(self, messages, state, **kwargs):
            guess = (self.parser.parse_answer(messages) or "").strip()
            target = int(state["answer"])
            if not guess.lstrip("-").isdigit():
                return [vf.UserMessage(content="Send a whole number in \\\\boxed{}.")]
            if int(guess) == target:
                state["won"] = True
                state["final_env_response"] = [vf.UserMessage(content="Correct!")]
                return state["final_env_response"]
            return [vf.UserMessage(content="Higher." if int(guess) < target else "Lower.")]


    def load_environment(**kwargs):
        rows = [{"question": "I picked a number from 1 to 64. Guess it, one \\\\boxed{} guess per turn.",
                 "answer": str((37 * i + 11) % 64 + 1)} for i in range(40)]
        parser = vf.Parser(extract_fn=vf.extract_boxed_answer)

        def won(state, **kwargs) -> float:
            return 1.0 if state.get("won") else 0.0

        return GuessEnv(dataset=Dataset.from_list(rows), parser=parser, max_turns=8,
                        rubric=vf.Rubric(funcs=[won], weights=[1.0], parser=parser))
''')


def _folder(root: Path, name: str, code: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / f"{name}.py").write_text(code, encoding="utf-8")
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "0.1.0"\n', encoding="utf-8")
    return folder


def test_verifiers_environments_are_validated_in_one_command(tmp_path):
    honest = _folder(tmp_path, "sums", SUMS)
    anywhere = _folder(tmp_path, "sums_anywhere", ANYWHERE)
    out = io.StringIO()
    code = main(["validate", f"verifiers:{honest}", f"verifiers:{anywhere}", "--sandbox", "process",
                 "--examples", "0", "--seeds", "1", "--plan-seed", "0", "--jobs", "1", "--json"], out=out)
    document = json.loads(out.getvalue())
    results = {r["path"]: r for r in document["results"]}
    assert code == 1
    # The honest rubric passes: a right answer bare is paid too (verifiers' extract_boxed_answer falls back
    # to the whole reply), which is no defect in a grader written for verifiers, so it is not played.
    sums = results[f"verifiers:{honest}"]
    assert sums["ok"] and sums["failures"] == [], sums["failures"]
    assert sums["known_answers"]["bad_reply_ceiling"] == 0.0
    # Paying the answer anywhere in the reply is found, and said at the line of the user's own rubric.
    loose = results[f"verifiers:{anywhere}"]
    assert not loose["ok"]
    assert {f["check"] for f in loose["failures"]} & {"answer_variants", "wrong_answer_paid"}, loose["failures"]
    inputs = {i["path"]: i for i in document["summary"]["inputs"]}
    assert any("replays the episode" in note for note in inputs[f"verifiers:{honest}"]["not_checked"])


def test_a_multi_turn_verifiers_environment_is_played_through_its_own_rollout(tmp_path):
    folder = _folder(tmp_path, "guess", GUESS)
    out = io.StringIO()
    code = main(["play", f"verifiers:{folder / 'guess.py'}", "--sandbox", "process", "--seed", "2"], out=out,
                stdin=io.StringIO("\\boxed{32}\n\\boxed{16}\n\\boxed{22}\n"))
    text = out.getvalue()
    assert code == 0, text
    # env_response is verifiers' own: the environment's words after each move, then the rubric's reward.
    assert text.count("reward=0 terminated=False") == 2 and "Lower." in text and "Higher." in text
    assert "Correct!" in text and "reward=1 terminated=True" in text


@pytest.mark.parametrize(("make", "message"), [
    (lambda root: root / "missing", "not an environment id"),
    (lambda root: _folder(root, "empty", "X = 1\n"), "no module"),
    (lambda root: (root / "notes.txt", (root / "notes.txt").write_text("x"))[0], "not a Python file"),
])
def test_a_verifiers_target_that_is_not_one_is_refused_in_one_line(tmp_path, capsys, make, message):
    target = make(tmp_path)
    assert main(["validate", f"verifiers:{target}", "--sandbox", "process"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_verifiers_environment_needs_the_process_sandbox(tmp_path, capsys):
    folder = _folder(tmp_path, "sums", SUMS)
    assert main(["validate", f"verifiers:{folder}"], out=io.StringIO()) == 2
    assert "add --sandbox process" in capsys.readouterr().err
