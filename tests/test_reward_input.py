"""A TRL-style reward function with its JSONL dataset, validated in one command (issue 49): honest graders
pass, graders that pay wrong answers or crash are rejected for that reason, the code runs in the sandbox,
and bad input is refused in one line."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from spade_envs.checks.probes import SeedCase
from spade_envs.cli import main

REWARDS = '''
import re


def exact_boxed(completions, answer, **kwargs):
    """Honest: the last boxed value equals the answer."""
    scores = []
    for completion, expected in zip(completions, answer):
        found = re.findall(r"\\\\boxed\\{([^{}]*)\\}", completion)
        scores.append(1.0 if found and found[-1].strip() == str(expected) else 0.0)
    return scores


def tagged_number(completions, answer, **kwargs):
    """Honest: the number in answer tags equals the answer (1234.0 is 1234)."""
    scores = []
    for completion, expected in zip(completions, answer):
        found = re.search(r"<answer>\\s*(-?\\d+(?:\\.\\d+)?)\\s*</answer>", completion)
        scores.append(1.0 if found and float(found.group(1)) == float(expected) else 0.0)
    return scores


def chat_boxed(prompts, completions, answer, **kwargs):
    """Honest, conversational: the assistant message's last box."""
    return exact_boxed([c[-1]["content"] for c in completions], answer)


def exact_bools(completions, answer, **kwargs):
    """Honest, answering in bools: TRL counts True as 1.0."""
    return [score == 1.0 for score in exact_boxed(completions, answer)]


def anywhere(completions, answer, **kwargs):
    """Defect: the answer anywhere in the reply wins (a list of guesses, a longer number)."""
    return [1.0 if str(expected) in completion else 0.0 for completion, expected in zip(completions, answer)]


def always(completions, **kwargs):
    """Defect: every reply is paid."""
    return [1.0 for _ in completions]


def first_box_crashes(completions, answer, **kwargs):
    """Defect: a reply without a box raises."""
    return [1.0 if re.findall(r"\\\\boxed\\{([^{}]*)\\}", c)[0] == str(a) else 0.0 for c, a in zip(completions, answer)]

'''

SCALED = '''
import re


def paid_twice(completions, answer, **kwargs):
    """Pays 2.0 for the right boxed answer, as the GRPO examples do."""
    boxes = [re.findall(r"\\\\boxed\\{([^{}]*)\\}", c) for c in completions]
    return [2.0 if b and b[-1] == a else 0.0 for b, a in zip(boxes, answer)]


def by_question(completions, ticket, answer, **kwargs):
    """Reads another column by its own name, as TRL passes every column but the prompt."""
    boxes = [re.findall(r"\\\\boxed\\{([^{}]*)\\}", c) for c in completions]
    return [1.0 if len(t) == 5 and b and b[-1] == a else 0.0 for b, t, a in zip(boxes, ticket, answer)]
'''

HOSTILE = '''
def writes_a_file(completions, answer, **kwargs):
    """Untrusted code: it tries to write to the host."""
    with open("pwned.txt", "w") as handle:
        handle.write("x")
    return [1.0 for _ in completions]
'''


def _rows(chat: bool = False, tag: str = "\\\\boxed{N}") -> list[dict]:
    rng = random.Random(7)
    rows = []
    for _ in range(80):
        ticket = "".join(rng.choice("ABCDEFGH") for _ in range(5))
        question = f"Ticket {ticket}: what is its locker number? Answer as {tag}."
        prompt = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": question}] if chat else question
        rows.append({"prompt": prompt, "answer": str(rng.randint(1000, 9999)), "ticket": ticket})
    return rows


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("rewards.py").write_text(REWARDS)
    Path("hostile.py").write_text(HOSTILE)
    Path("scaled.py").write_text(SCALED)
    for name, rows in (("data", _rows()), ("chat", _rows(chat=True)), ("tagged", _rows(tag="<answer>N</answer>"))):
        Path(f"{name}.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return tmp_path


def validate(*argv: str) -> tuple[int, dict]:
    out = io.StringIO()
    code = main(["validate", *argv, "--examples", "0", "--plan-seed", "0", "--json"], out=out)
    return code, json.loads(out.getvalue())


def verdicts(document: dict) -> dict[str, list[str]]:
    return {result["path"]: [f["check"] for f in result["failures"]] for result in document["results"]}


def test_honest_graders_pass_and_each_defect_is_rejected_for_its_reason(workdir):
    rewards = ["exact_boxed", "exact_bools", "anywhere", "always", "first_box_crashes"]
    code, document = validate(*(f"--reward=rewards.py:{name}" for name in rewards), "--data", "data.jsonl")
    found = verdicts(document)
    assert code == 1 and found["rewards.py:exact_boxed"] == found["rewards.py:exact_bools"] == [], found
    assert {"answer_variants", "wrong_answer_paid"} & set(found["rewards.py:anywhere"]), found
    assert "trivially_solvable" in found["rewards.py:always"], found
    assert "garbage_actions" in found["rewards.py:first_box_crashes"], found
    assert document["summary"]["inputs"][0] == {
        "path": "rewards.py:exact_boxed", "rows": 64,
        "notes": ["validated on the first 64 rows of data.jsonl; the others were not read",
                  ("the right answer written without a box (bare, in brackets, after 'Answer:') is not played as "
                   "a wrong answer: a reward function may take answers in any wrapping")]}


@pytest.mark.parametrize("reward, data", [("tagged_number", "tagged.jsonl"), ("chat_boxed", "chat.jsonl")])
def test_answer_tags_and_conversational_prompts_are_graded_as_written(workdir, reward, data):
    code, document = validate(f"--reward=rewards.py:{reward}", "--data", data, "--data-rows", "40")
    assert code == 0, verdicts(document)
    assert document["summary"]["inputs"][0]["rows"] == 40


def test_the_reward_code_runs_in_the_sandbox_never_in_the_host(workdir):
    code, document = validate("--reward=hostile.py:writes_a_file", "--data", "data.jsonl")
    assert code == 1 and "forbidden_name" in verdicts(document)["hostile.py:writes_a_file"]
    assert not Path("pwned.txt").exists()


def test_a_variant_of_an_answer_in_answer_tags_is_sent_in_answer_tags():
    """The probes wrap what they play as the solution does: a text task answered in <answer> tags got its
    own solution back for every variant, so every variant 'won' and honest graders were rejected."""
    case = SeedCase(1, "Locker?", ("<answer>1234</answer>",), False)
    assert case.wrap("1235") == "<answer>1235</answer>"
    assert SeedCase(1, "Sum?", ("\\boxed{12}",), False).wrap("13") == "\\boxed{13}"


@pytest.mark.parametrize("argv, message", [
    (["--reward", "rewards.py:missing", "--data", "data.jsonl"], "defines no top-level function 'missing'"),
    (["--reward", "rewards.py", "--data", "data.jsonl"], "write FILE.py:FUNCTION"),
    (["--reward", "nope.py:f", "--data", "data.jsonl"], "--reward: no such file: nope.py"),
    (["--reward", "rewards.py:always"], "--reward needs --data FILE.jsonl"),
    (["--data", "data.jsonl", "rewards.py"], "--data needs --reward"),
    (["--reward", "rewards.py:always", "--data", "rewards.py"], "line 2 is not JSON"),
    (["--reward", "rewards.py:always", "--data", "list.jsonl"], "line 1 is a JSON list, not an object"),
    (["--reward", "rewards.py:always", "--data", "data.jsonl", "--prompt-column", "q"], "no prompt column"),
    (["--reward", "rewards.py:always", "--data", "data.jsonl", "--answer-column", "gold"], "has no column 'gold'"),
    (["--reward", "rewards.py:always", "--data", "data.jsonl", "--data-rows", "5"], "5 distinct prompt(s)"),
])
def test_bad_reward_input_is_refused_in_one_line(workdir, capsys, argv, message):
    Path("list.jsonl").write_text("[1, 2]\n")
    out = io.StringIO()
    assert main(["validate", *argv], out=out) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and out.getvalue() == ""


def test_a_wider_reward_scale_is_declared_and_other_columns_arrive_by_name(workdir, capsys):
    code, document = validate("--reward=scaled.py:paid_twice", "--reward=scaled.py:by_question", "--data",
                              "data.jsonl")
    found = verdicts(document)
    assert code == 1 and "reward_range" in found["scaled.py:paid_twice"] and found["scaled.py:by_question"] == []
    code, document = validate("--reward=scaled.py:paid_twice", "--data", "data.jsonl", "--reward-range", "0,2")
    assert code == 0, verdicts(document)  # 2.0 is the top of its declared range: a win
    assert main(["validate", "--reward=scaled.py:paid_twice", "--data", "data.jsonl", "--reward-range", "2,0"],
                out=io.StringIO()) == 2
    assert "is not a range" in capsys.readouterr().err


def test_rows_are_embedded_only_as_far_as_an_environment_file_may_grow(workdir):
    rows = [{"prompt": f"Case {i}: " + "\\" * 3000 + " locker? Answer as \\boxed{N}.", "answer": str(1000 + i)}
            for i in range(90)]
    Path("latex.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    code, document = validate("--reward=rewards.py:exact_boxed", "--data", "latex.jsonl", "--data-rows", "90")
    made = document["summary"]["inputs"][0]
    assert code == 0 and 8 <= made["rows"] < 90, verdicts(document)
    assert "no more fit" in made["notes"][0]


@pytest.mark.parametrize("line, message", [
    ('{"prompt": "x", "answer": ' + "1" * 5000 + "}", "cannot be read"),
    ('{"prompt": ' + "[" * 100_000 + "]" * 100_000 + ', "answer": "1"}', "cannot be read"),
])
def test_a_row_json_cannot_hold_is_one_line(workdir, capsys, line, message):
    Path("odd.jsonl").write_text(line + "\n")
    assert main(["validate", "--reward", "rewards.py:always", "--data", "odd.jsonl"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_files_saved_with_a_byte_order_mark_are_read(workdir):
    Path("bom.py").write_bytes(b"\xef\xbb\xbf" + REWARDS.encode())
    Path("bom.jsonl").write_bytes(b"\xef\xbb\xbf" + Path("data.jsonl").read_bytes())
    code, document = validate("--reward=bom.py:exact_boxed", "--data", "bom.jsonl", "--data-rows", "20")
    assert code == 0, verdicts(document)


FORMAT_REWARDS = '''import re

PATTERN = re.compile(r"^<think>.+?</think>\\s*<answer>.+?</answer>$", re.S)


def well_formed(completions, **kwargs):
    """1.0 for a reply laid out as <think>...</think><answer>...</answer>."""
    return [1.0 if PATTERN.match(c) else 0.0 for c in completions]


def first_line_length(completions, **kwargs):
    """Longer first lines are better (up to 40 characters)."""
    return [min(1.0, len(c.splitlines()[0]) / 40) for c in completions]


def doubled(completions, **kwargs):
    """A reply of any length, scored out of 2 (and no --reward-range said so)."""
    return [min(2.0, len(c) / 10) for c in completions]
'''


def test_a_reward_that_needs_no_answer_is_held_to_the_contract_and_fuzzed(workdir):
    """A format or length reward comes with prompts only: nothing to win, so no feasibility tier and no
    known-answer probes, but its crashes and its scale are still found."""
    Path("format.py").write_text(FORMAT_REWARDS)
    Path("prompts.jsonl").write_text("".join(json.dumps({"prompt": f"Explain step {i}."}) + "\n" for i in range(12)))
    out = io.StringIO()
    code = main(["validate", "--reward=format.py:well_formed", "--reward=format.py:first_line_length",
                 "--reward=format.py:doubled", "--data", "prompts.jsonl", "--examples", "20", "--plan-seed", "0",
                 "--json"], out=out)
    document = json.loads(out.getvalue())
    found = verdicts(document)
    assert code == 1 and found["format.py:well_formed"] == [], found
    assert "garbage_actions" in found["format.py:first_line_length"], found  # an empty reply has no first line
    assert "reward_range" in found["format.py:doubled"], found
    tiers = {r["path"]: [t["tier"] for t in r["tiers"]] for r in document["results"]}
    assert tiers["format.py:well_formed"] == ["static", "contract", "fuzz"]
    notes = document["summary"]["inputs"][0]["notes"]
    assert any("no answer column" in note and "not run" in note for note in notes), notes


ALTERNATIVES = '''import re


def plural(completions, answer, **kwargs):
    """The last box, against any of the forms the answer column lists ("cacti|cactuses")."""
    scores = []
    for completion, accepted in zip(completions, answer):
        boxes = re.findall(r"\\\\boxed\\{([^{}]*)\\}", completion)
        forms = {form.strip().lower() for form in accepted.split("|")}
        scores.append(1.0 if boxes and boxes[-1].strip().lower() in forms else 0.0)
    return scores
'''


def test_an_answer_column_that_lists_accepted_forms_is_answered_with_one_of_them(workdir):
    """A dataset may list every accepted form of an answer in one cell; the grader pays any one of them,
    not the cell itself, so the solution is the first form paid (an honest grader was rejected as
    infeasible)."""
    Path("plural.py").write_text(ALTERNATIVES)
    words = [("cactus", "cacti|cactuses"), ("octopus", "octopuses|octopi"), ("index", "indices|indexes"),
             ("mouse", "mice"), ("goose", "geese"), ("child", "children"), ("person", "people|persons"),
             ("tooth", "teeth"), ("foot", "feet"), ("ox", "oxen")]
    Path("plurals.jsonl").write_text("".join(json.dumps({"prompt": f"The plural of {w}? Answer in \\\\boxed{{}}.",
                                                         "answer": a}) + "\n" for w, a in words))
    code, document = validate("--reward=plural.py:plural", "--data", "plurals.jsonl")
    assert code == 0, verdicts(document)


STEP_BONUS = '''import re

BOX = re.compile(r"\\\\boxed\\{([^{}]*)\\}")
STEP = re.compile(r"^step \\d+:", re.I | re.M)


def uncapped(completions, answer, **kwargs):
    """Correctness plus 0.05 per numbered step: more than 1.0 for a long worked answer."""
    return [(1.0 if BOX.findall(c)[-1:] == [a] else 0.0) + 0.05 * len(STEP.findall(c))
            for c, a in zip(completions, answer)]


def capped(completions, answer, **kwargs):
    """The same bonus, capped at 1.0 overall (a correct but unusual grader)."""
    return [min(1.0, (1.0 if BOX.findall(c)[-1:] == [a] else 0.0) + 0.05 * len(STEP.findall(c)))
            for c, a in zip(completions, answer)]


def first_box(completions, answer, **kwargs):
    """Reads the first box: a right answer taken back for a wrong final one is still paid."""
    return [1.0 if BOX.findall(c)[:1] == [a] else 0.0 for c, a in zip(completions, answer)]
'''


def test_probe_rewards_are_held_to_the_range_and_a_retracted_answer_is_played(workdir):
    """Rewards of the probes' batched episodes are checked as single steps are (an uncapped per-step bonus
    only shows on a long worked reply); a first-box grader pays a retracted answer: a warning and the ceiling."""
    Path("steps.py").write_text(STEP_BONUS)
    code, document = validate("--reward=steps.py:uncapped", "--reward=steps.py:capped", "--reward=steps.py:first_box",
                              "--data", "data.jsonl")
    found = verdicts(document)
    assert code == 1 and "reward_range" in found["steps.py:uncapped"], found
    assert found["steps.py:capped"] == [] and found["steps.py:first_box"] == [], found
    reports = {r["path"]: r for r in document["results"]}
    assert "answer_variants" in {w["check"] for w in reports["steps.py:first_box"]["warnings"]}
    assert reports["steps.py:first_box"]["known_answers"]["bad_reply_ceiling"] == 1.0
    assert reports["steps.py:capped"]["known_answers"]["bad_reply_ceiling"] < 1.0


CHOICE = '''import re

BOX = re.compile(r"\\\\boxed\\{\\s*\\(?([A-Da-d])\\)?\\s*\\}")


def letter(completions, answer, **kwargs):
    """Honest: the last boxed option letter equals the answer."""
    return [1.0 if BOX.findall(c)[-1:] == [a] or [x.upper() for x in BOX.findall(c)[-1:]] == [a] else 0.0
            for c, a in zip(completions, answer)]


def favours_b(completions, answer, **kwargs):
    """Defect: a boxed B is paid whatever the answer (a default left in the grader)."""
    return [1.0 if BOX.findall(c)[-1:] in ([a], ["B"]) else 0.0 for c, a in zip(completions, answer)]
'''


@pytest.mark.parametrize("plan_seed", ["0", "1", "2"])
def test_a_small_unbalanced_choice_dataset_is_judged_on_its_rows_not_its_seeds(workdir, plan_seed):
    """Twenty four-option questions, nine of them answered B: with more seeds checked than rows, each row
    is one trial, so an honest grader is not rejected for the imbalance its few rows show by chance (a
    constant letter won 50 of 100 seeds, 10 of 20 rows); a grader that pays B everywhere still is."""
    rng = random.Random(11)
    answers = list("B" * 9 + "D" * 8 + "CC" + "A")
    rng.shuffle(answers)
    rows = []
    for answer in answers:
        primes = [n for n in range(11, 100) if all(n % d for d in range(2, 10))]
        composites = [n for n in range(10, 100) if n not in primes]
        options = {letter: rng.choice(primes if letter == answer else composites) for letter in "ABCD"}
        shown = "\n".join(f"{letter}) {value}" for letter, value in options.items())
        rows.append({"prompt": f"Which number is prime?\n{shown}\nAnswer with the letter in \\\\boxed{{}}.",
                     "answer": answer})
    Path("choice.py").write_text(CHOICE)
    Path("choice.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = io.StringIO()
    code = main(["validate", "--reward=choice.py:letter", "--reward=choice.py:favours_b", "--data", "choice.jsonl",
                 "--examples", "0", "--plan-seed", plan_seed, "--json"], out=out)
    found = verdicts(json.loads(out.getvalue()))
    assert code == 1 and found["choice.py:letter"] == [], found
    assert {"trivially_solvable", "answer_variants", "wrong_answer_paid"} & set(found["choice.py:favours_b"]), found
