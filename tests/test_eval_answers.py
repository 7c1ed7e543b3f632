"""Final-answer extraction (one table row per form a model writes), and avg@k / pass@k through both
routes: spade-eval's runner and lm-eval's own ``simple_evaluate`` with a policy as the model."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spade_eval.suites.answers import extract_choice, extract_math_span
from spade_eval.suites.math_data import score_choice, score_math
from spade_train.policies.scripted import ScriptedPolicy

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"benchmark data folder {DATA} is absent")
OPTIONS = ["red light", "blue light", "green light", "yellow light"]

CHOICE_FORMS = [
    # (form, reply, letter read)
    ("boxed letter", r"Reasoning. \boxed{C}", "C"),
    ("boxed in parentheses", r"So \boxed{(C)}", "C"),
    ("boxed text", r"So \boxed{\text{C}}", "C"),
    ("boxed text in parentheses", r"So \boxed{\text{(C)}}", "C"),
    ("boxed bold text", r"So \boxed{\textbf{C}}", "C"),
    ("boxed letter and option text", r"So \boxed{C) green light}", "C"),
    ("boxed letter, period, option text", r"So \boxed{C. green light}", "C"),
    ("boxed letter, colon, option text", r"So \boxed{C: green light}", "C"),
    ("boxed text with option text", r"So \boxed{\text{C) green light}}", "C"),
    ("boxed option text only", r"So \boxed{green light}", "C"),
    ("boxed in math mode", r"So $\boxed{C}$.", "C"),
    ("Answer: (C)", "Reasoning.\nAnswer: (C)", "C"),
    ("Answer: C", "Reasoning.\nAnswer: C", "C"),
    ("bold label", "Reasoning.\n**Answer:** C", "C"),
    ("bold statement", "Reasoning.\n**Answer: (C)**", "C"),
    ("the answer is", "Thus the answer is C.", "C"),
    ("correct answer with text", "The correct answer is (C) green light.", "C"),
    ("final answer", "Final answer: C", "C"),
    ("statement in a statement", "Final Answer: The correct answer is (C). I hope it is correct.", "C"),
    ("answer is bold", "The answer is **C**", "C"),
    ("option word", "Answer: Option C", "C"),
    ("bold last line", "A and B fail.\n**C**", "C"),
    ("bold last line with text", "A and B fail.\n**(C) green light**", "C"),
    ("after reasoning tags", r"<think>maybe \boxed{A}</think>The answer is C", "C"),
    ("later doubt names no option", "The answer is C.\nLet me check whether the answer is right. Yes.", "C"),
    # never a letter only mentioned in the reasoning
    ("letters in reasoning only", "A is wrong, B is wrong, C fits.", None),
    ("parenthesised letter in reasoning", "(C) seems right", None),
    ("a letter after 'answer' as a word", "answer D is wrong", None),
    ("the article a", "The answer is a bit unclear.", None),
    ("boxed wins over reasoning", r"Option C is tempting, but \boxed{B}", "B"),
    ("last statement wins", "The answer is a bit tricky.\nAnswer: D", "D"),
]


@pytest.mark.parametrize("form,reply,letter", CHOICE_FORMS, ids=[row[0] for row in CHOICE_FORMS])
def test_every_multiple_choice_form_is_read(form, reply, letter):
    assert extract_choice(reply, options=OPTIONS) == letter
    if letter is not None:
        assert score_choice(letter, reply, OPTIONS) == (1.0, letter)
        other = "ABCD"[("ABCD".index(letter) + 1) % 4]
        assert score_choice(other, reply, OPTIONS)[0] == 0.0


MATH_FORMS = [
    # (form, reply, gold, read)
    ("boxed", r"Step by step. \boxed{42}", "42", r"\boxed{42}"),
    ("boxed in math mode", r"$\boxed{42}$", "42", r"\boxed{42}"),
    ("boxed fraction vs decimal", r"\boxed{\frac{1}{2}}", "0.5", r"\boxed{\frac{1}{2}}"),
    ("boxed text", r"\boxed{\text{42}}", "42", r"\boxed{\text{42}}"),
    ("Answer: X", "We compute 8 first.\nAnswer: 42", "42", r"\boxed{42}"),
    ("bold label", "**Answer:** 42", "42", r"\boxed{42}"),
    ("bold statement", "**Answer: 42**", "42", r"\boxed{42}"),
    ("final answer in math mode", r"The final answer is $\frac{1}{2}$.", "1/2", r"\boxed{\frac{1}{2}}"),
    ("bold answer", "The answer is **7**.", "7", r"\boxed{7}"),
    (
        "Minerva's statement in a statement",
        "Final Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.",
        "1/2",
        r"\boxed{\frac{1}{2}}",
    ),
    ("sentence goes on", "The answer is 7 because 3 + 4 = 7.", "7", r"\boxed{7}"),
    ("tuple", "Answer: (1, 2)", "(1, 2)", r"\boxed{(1, 2)}"),
    ("decimal", "The answer is 3.5.", "3.5", r"\boxed{3.5}"),
    ("boxed wins over reasoning", r"8 is tempting, but \boxed{7}", "7", r"\boxed{7}"),
    ("after reasoning tags", r"<think>\boxed{5}</think>So the answer is 7.", "7", r"\boxed{7}"),
    # never a number only mentioned in the reasoning (math-verify alone would take the last one, 12)
    ("numbers in reasoning only", "We add 5 and 3 to get 8, then think about 12.", "12", None),
]


@pytest.mark.parametrize("form,reply,gold,read", MATH_FORMS, ids=[row[0] for row in MATH_FORMS])
def test_every_math_answer_form_is_read(form, reply, gold, read):
    assert extract_math_span(reply) == read
    assert score_math(gold, reply)[0] == (0.0 if read is None else 1.0)
    if read is not None:
        assert score_math("1000003", reply)[0] == 0.0


# ---------------------------------------------------------------------- avg@k and pass@k, both routes
@needs_data
def test_avg_at_64_and_pass_at_64_agree_between_our_runner_and_lm_eval():
    """A policy right on exactly one of the 64 samples of each problem (the one sampled with the base
    seed): avg@64 = 1/64 and pass@64 = 1 through spade-eval's runner and through lm_eval.simple_evaluate
    (whose default take_first filter would have scored sample 1 only), with the same 64 generations."""
    import lm_eval

    from spade_eval.models import ModelHandle
    from spade_eval.runner import RunOptions, run_benchmark
    from spade_eval.suites.lm_eval_bridge import PolicyLM, task_manager
    from spade_eval.suites.math import BENCHMARKS
    from spade_eval.suites.math_data import load_math

    answers = {row["problem"]: row["answer"] for row in load_math("aime25", DATA)}

    def responder(seen: list[tuple[str, int]]):
        def reply(request) -> str:
            prompt = request.messages[-1]["content"]
            gold = next(a for problem, a in answers.items() if prompt.startswith(problem))
            seen.append((prompt, request.sampling.seed))
            return f"\\boxed{{{gold}}}" if request.sampling.seed % 64 == 0 else f"\\boxed{{{int(gold) + 1}}}"

        return reply

    ours_seen: list[tuple[str, int]] = []
    policy = ScriptedPolicy(responder(ours_seen))
    model = ModelHandle(policy=policy, spec="scripted", kind="scripted", name="once-in-64", fingerprint="x")
    ours = asyncio.run(
        run_benchmark(BENCHMARKS["aime25"](None), model, RunOptions(data_dir=DATA, limit=2,
                                                                    sampling_overrides={"seed": 0}))
    )
    assert [len(item.samples) for item in ours.items] == [64, 64]
    assert [item.score for item in ours.items] == [1 / 64, 1 / 64]
    assert ours.score == 1 / 64 and ours.metrics["pass@64"] == 1.0

    theirs_seen: list[tuple[str, int]] = []
    output = lm_eval.simple_evaluate(
        model=PolicyLM(ScriptedPolicy(responder(theirs_seen)), seed=0),
        tasks=["spade_aime25"],
        task_manager=task_manager(DATA),
        limit=2,
        apply_chat_template=True,
        log_samples=True,
    )
    results = output["results"]["spade_aime25"]
    assert results["math_verify,all_samples"] == pytest.approx(1 / 64)
    assert results["pass@k,all_samples"] == 1.0
    per_doc = [sample["math_verify"] for sample in output["samples"]["spade_aime25"]]
    assert per_doc == pytest.approx([item.score for item in ours.items])
    assert sorted(ours_seen) == sorted(theirs_seen)  # the same 128 (prompt, seed) requests
