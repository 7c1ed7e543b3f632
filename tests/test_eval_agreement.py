"""Item by item against the official scorers of the reasoning suite: math against math-verify used as its
authors document it, GPQA-style multiple choice against lm-eval's own GPQA task filters and metric,
Reasoning Gym against its own answer extraction and task scorers.

Each comparison is a table of reply forms applied to a sample of items: on the forms both scorers are
meant to read, every verdict must agree; the forms where this suite knowingly reads differently are
listed with the reason, and the test checks the difference is exactly that. The other suites' agreement
tests: HumanEval+ / MBPP+ against evalplus (``test_eval_code.py``, all tasks in
``benchmarks/code_agreement.py``), BFCL against bfcl-eval's own evaluation (``test_eval_bfcl.py``),
ACEBench against its own classes and checker (``test_eval_acebench.py``, side by side in
``benchmarks/acebench_agreement.py``). BBEH's scorer lives in its repository, not in a package; its
gold and perturbed answers are checked in ``test_eval_scorers.py``. LiveCodeBench's official harness is
not packaged either; its stdin and call-based semantics are tested in ``test_eval_code.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spade_eval.suites import math_data
from spade_eval.suites.math_data import score_choice, score_math

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not (DATA / "math").is_dir(), reason=f"the benchmark data is not at {DATA}")
MATH_BENCHMARKS = ("aime24", "aime25", "amc23", "math500", "minerva_math", "olympiadbench")


# ---------------------------------------------------------------------- math: math-verify
MATH_AGREE = {
    "boxed": lambda gold: f"Some reasoning.\n\nThe final answer is $\\boxed{{{gold}}}$.",
    "boxed without math mode": lambda gold: f"So we get \\boxed{{{gold}}}",
    "Minerva's statement": lambda gold: f"Work.\nFinal Answer: The final answer is ${gold}$. I hope it is correct.",
    "statement in math mode": lambda gold: f"Hence the answer is ${gold}$.",
    "wrong boxed": lambda gold: f"Reasoning.\n\\boxed{{{gold}+1}}",
    "earlier guess, then boxed": lambda gold: f"Maybe $0$? No: \\boxed{{{gold}}}",
    "no answer": lambda gold: "I am not sure.",
}
"""Forms math-verify reads from the whole reply as this suite reads them."""


def _math_verify_own(gold: str, reply: str) -> float:
    """math-verify as its README uses it: the gold in math mode, the whole reply parsed as it comes."""
    from math_verify import parse, verify

    return float(verify(parse(f"${gold}$"), parse(reply)))


def _math_sample() -> list[tuple[str, str]]:
    return [(name, row["answer"]) for name in MATH_BENCHMARKS for row in math_data.load_math(name, DATA)[::10]]


@needs_data
def test_math_verdicts_equal_math_verify_on_every_tenth_item():
    """Every tenth item of the six math benchmarks (156), seven reply forms each: ours equals
    math-verify's own reading of the whole reply, one by one."""
    sample = _math_sample()
    differ = [
        (name, form, gold)
        for name, gold in sample
        for form, make in MATH_AGREE.items()
        if score_math(gold, make(gold))[0] != _math_verify_own(gold, make(gold))
    ]
    assert len(sample) == 156 and differ == []


@needs_data
def test_math_forms_read_differently_from_math_verify_alone():
    """Where math-verify alone reads a reply differently, always because this suite first takes the
    reply's final answer (answers.extract_math_span) and hands only that to math-verify:

    - an answer statement without math delimiters ("Answer: \\frac{1}{2}"): math-verify alone parses
      only delimited LaTeX and plain expressions, so it misses such an answer; this suite reads it;
    - a boxed answer math-verify cannot parse as written: math-verify falls back to other math in the
      reply (an earlier guess may then count); here the boxed answer is final and such a reply scores 0;
    - no final answer, a number only mentioned: math-verify's last resort is the last number anywhere.
    """
    plain = [(gold, f"Reasoning.\nAnswer: {gold}") for _, gold in _math_sample()]
    differ = [gold for gold, reply in plain if score_math(gold, reply)[0] != _math_verify_own(gold, reply)]
    assert differ and all(score_math(gold, f"Answer: {gold}")[0] == 1.0 for gold in differ)
    assert all(_math_verify_own(gold, f"Answer: {gold}") == 0.0 for gold in differ)
    assert "\\frac{n(n+1)(2 n+1)}{6}" in differ  # undelimited LaTeX

    guess_then_unparsable = "At first I thought $(6,31,-1)$ but actually \\boxed{(6,31,-1)+1}"
    assert (score_math("(6,31,-1)", guess_then_unparsable)[0], _math_verify_own("(6,31,-1)", guess_then_unparsable)) == (
        0.0,
        1.0,
    )
    mentioned = "We add 5 and 3 to get 8, then think about 12."
    assert (score_math("12", mentioned)[0], _math_verify_own("12", mentioned)) == (0.0, 1.0)


# ---------------------------------------------------------------------- multiple choice: lm-eval's GPQA task
CHOICES = ["Nitrogen", "Oxygen", "Argon", "Carbon dioxide"]
GPQA_AGREE = {
    "the answer is (X).": lambda letter, other: f"Step by step, (A) fails. The answer is ({letter}).",
    "Answer: (X)": lambda letter, other: f"Reasoning.\nAnswer: ({letter})",
    "Answer: X": lambda letter, other: f"Reasoning.\nAnswer: {letter}",
    "a doubt, then the answer": lambda letter, other: f"({other}) looks right, but the answer is ({letter}).",
    "wrong answer": lambda letter, other: f"The answer is ({other}).",
}
"""Forms lm-eval's flexible-extract filter reads as this suite does (the last "(X)", else ": X")."""


def _lm_eval_gpqa():
    """The filters and metric of lm-eval's ``gpqa_diamond_cot_zeroshot`` task, read from its own YAML."""
    from importlib import resources

    from lm_eval.api.metrics import exact_match_hf_evaluate
    from lm_eval.api.registry import get_filter
    from lm_eval.tasks._yaml_loader import load_yaml

    folder = resources.files("lm_eval") / "tasks" / "gpqa" / "cot_zeroshot"
    config = load_yaml(folder / "gpqa_diamond_cot_zeroshot.yaml", resolve_func=False)
    metric = next(metric for metric in config["metric_list"] if metric["metric"] == "exact_match")
    options = {key: value for key, value in metric.items() if key.startswith("ignore")}

    def score(filter_name: str, reply: str, gold_letter: str) -> float:
        spec = next(item for item in config["filter_list"] if item["name"] == filter_name)
        responses = [[reply]]
        doc = {"choices": CHOICES, "answer": f"({gold_letter})"}
        for step in spec["filter"]:
            kwargs = {key: value for key, value in step.items() if key != "function"}
            responses = list(get_filter(step["function"])(**kwargs).apply(responses, [doc]))
        (prediction,) = responses  # take_first leaves one prediction per document
        return float(exact_match_hf_evaluate([prediction], [doc["answer"]], **options)["exact_match"])

    return score


def test_multiple_choice_verdicts_equal_lm_eval_gpqa_flexible_extract():
    """Five forms for every gold letter: ours equals lm-eval's flexible-extract score, and its
    strict-match score where the reply says "The answer is (X)." as its few-shot answers do."""
    lm_eval_score = _lm_eval_gpqa()
    compared, differ = 0, []
    for letter in "ABCD":
        other = "ABCD"[("ABCD".index(letter) + 2) % 4]
        for form, make in GPQA_AGREE.items():
            reply = make(letter, other)
            ours = score_choice(letter, reply, CHOICES)[0]
            compared += 1
            if ours != lm_eval_score("flexible-extract", reply, letter):
                differ.append((form, letter, "flexible-extract"))
            if "The answer is" in reply and reply.endswith(").") and ours != lm_eval_score("strict-match", reply, letter):
                differ.append((form, letter, "strict-match"))
    assert compared == 20 and differ == []


def test_multiple_choice_forms_read_differently_from_lm_eval_gpqa():
    """Where lm-eval's GPQA filters read differently, always because this suite takes only the reply's
    final answer and reads it in more forms:

    - ``\\boxed{C}``, the form this suite's GPQA prompt asks for: lm-eval's task prompts for "(C)" and
      finds no letter in a boxed one;
    - a letter named after the answer ("The answer is (C). (A) is wrong."): lm-eval takes the last
      "(X)" in the reply; here the answer statement is the answer;
    - a letter only mentioned while reasoning, with no final answer: lm-eval takes it; here there is no
      answer, so it scores 0.
    """
    lm_eval_score = _lm_eval_gpqa()
    cases = {
        "boxed": (r"Reasoning. \boxed{C}", 1.0, 0.0),
        "a letter after the answer": ("The answer is (C). (A) is wrong.", 1.0, 0.0),
        "a letter only mentioned": ("Option (C) seems plausible at first sight.", 0.0, 1.0),
    }
    for form, (reply, ours, theirs) in cases.items():
        assert (score_choice("C", reply, CHOICES)[0], lm_eval_score("flexible-extract", reply, "C")) == (
            ours,
            theirs,
        ), form


# ---------------------------------------------------------------------- Reasoning Gym: its own extraction and scorers
RG_AGREE = {
    "tags": lambda gold: f"Thinking.\n<answer>{gold}</answer>",
    "tags with spaces": lambda gold: f"<answer>\n{gold}\n</answer>",
    "a draft, then the answer": lambda gold: f"<answer>draft</answer> Let me fix that. <answer>{gold}</answer>",
    "no tags": lambda gold: f"{gold}",
    "wrong": lambda gold: "<answer>certainly not this</answer>",
}


@pytest.mark.parametrize("group", ["math", "algorithmic", "cognition", "logic"])
def test_reasoning_gym_verdicts_equal_its_own_extraction_and_scorer(group):
    """The first two tasks of each group, every episode, five forms: ours equals reasoning-gym's own
    ``utils.extract_answer`` then the task's ``score_answer`` (full marks = solved). The one exception is
    documented in the suite: ``EXACT_ANSWER_TASKS``, whose own scorer accepts any answer. Tags in capitals
    (``<ANSWER>``) are read here and not by reasoning-gym."""
    from reasoning_gym.utils import extract_answer as rg_extract

    from spade_eval.suites.reasoning_gym import (
        EPISODES_PER_TASK,
        ReasoningGymGroup,
        extract_answer,
        score_answer,
    )

    benchmark = ReasoningGymGroup(group=group)
    differ, compared = [], 0
    for item in benchmark.load(None, 2 * EPISODES_PER_TASK):
        task, entry = item.payload["task"], benchmark.entry(item)
        dataset = benchmark._datasets[task]
        gold = item.payload["answer"]
        if gold is None:
            continue
        for form, make in RG_AGREE.items():
            reply = make(gold)
            ours = score_answer(dataset, extract_answer(reply), entry, task) >= 1.0
            try:
                theirs = float(dataset.score_answer(rg_extract(reply), entry)) >= 1.0
            except Exception:  # noqa: BLE001 - a scorer raising on an odd answer: that answer is wrong
                theirs = False
            compared += 1
            if ours != theirs:
                differ.append((item.id, form))
    assert compared >= 5 * EPISODES_PER_TASK and differ == []
