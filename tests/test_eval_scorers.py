"""Every reasoning scorer on real data: gold answers score 100%, corrupted answers 0%.

The answers go through the same path a model's reply takes (prompt, generation, extraction, scorer), with
a scripted policy replying the gold answer (or a corrupted one) in the format each prompt asks for. The
math sets are checked on their first items here (all 1,547 gold answers pass; see the eval notes); the
code sets on problems that exercise tuples, floats and long outputs.
"""

from __future__ import annotations

import asyncio
import base64
import json
import pickle
import re
import zlib
from pathlib import Path

import pytest

from spade_eval.benchmark import BenchmarkDataError, EvalItem, ItemRecord
from spade_train.policies.base import GenerationRequest, SamplingParams
from spade_train.policies.scripted import ScriptedPolicy

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"benchmark data folder {DATA} is absent")
GREEDY = SamplingParams(temperature=0.0, max_tokens=64)


def run_items(benchmark, items: list[EvalItem], reply) -> list[ItemRecord]:
    """Run ``items`` with a scripted policy whose reply is ``reply(item, request)``."""

    async def main() -> list[ItemRecord]:
        records = []
        for item in items:
            policy = ScriptedPolicy(lambda request, item=item: reply(item, request))
            records.append(await benchmark.run_item(item, policy.generate, GREEDY, 1))
        return records

    return asyncio.run(main())


def scores(records: list[ItemRecord]) -> list[float]:
    return [record.score for record in records]


# ---------------------------------------------------------------------- math (lm-eval tasks + math-verify)
def _corrupted(rows: list[dict], index: int) -> str:
    """Another item's answer, textually different once a leading 'x =' is ignored."""

    def core(text: str) -> str:
        return re.sub(r"^[A-Za-z]\s*=\s*", "", text.replace(" ", ""))

    for offset in range(1, len(rows)):
        other = rows[(index + offset) % len(rows)]["answer"]
        if core(other) != core(rows[index]["answer"]):
            return other
    raise AssertionError("no distinct answer")


@needs_data
@pytest.mark.parametrize("name", ["aime24", "aime25", "amc23", "math500", "minerva_math", "olympiadbench"])
def test_math_gold_answers_score_one_and_corrupted_zero(name):
    from spade_eval.suites.math import BENCHMARKS
    from spade_eval.suites.math_data import load_math

    benchmark = BENCHMARKS[name](None)
    items = benchmark.load(DATA, 8)
    rows = load_math(name, DATA)
    assert len(items) == 8 and benchmark.samples >= 1
    gold = run_items(benchmark, items, lambda item, _: f"Step by step... \\boxed{{{item.payload['answer']}}}")
    assert scores(gold) == [1.0] * 8, [(r.id, r.samples[0].extracted) for r in gold if r.score != 1.0]
    wrong = run_items(
        benchmark, items, lambda item, _: f"So \\boxed{{{_corrupted(rows, items.index(item))}}}"
    )
    assert scores(wrong) == [0.0] * 8


@needs_data
def test_math_counts_and_paper_sampling():
    from spade_eval.suites.math import BENCHMARKS
    from spade_eval.suites.math_data import load_math

    counts = {
        name: len(load_math(name, DATA))
        for name in ("aime24", "aime25", "amc23", "math500", "minerva_math", "olympiadbench")
    }
    assert counts == {
        "aime24": 30,
        "aime25": 30,
        "amc23": 40,
        "math500": 500,
        "minerva_math": 272,
        "olympiadbench": 675,
    }
    aime = BENCHMARKS["aime25"](None)
    assert aime.samples == 64
    assert (aime.sampling.temperature, aime.sampling.top_p, aime.sampling.top_k) == (1.0, 0.95, 20)


def test_aime26_is_user_supplied_and_missing_data_is_one_clear_error(tmp_path):
    from spade_eval.suites.math import BENCHMARKS

    benchmark = BENCHMARKS["aime26"](None)
    assert benchmark.user_supplied_data
    with pytest.raises(BenchmarkDataError, match=r"aime26: .*math/aime26/test.jsonl is missing"):
        benchmark.load(tmp_path, None)


# ---------------------------------------------------------------------- GPQA-Diamond (made-up fixture)
GPQA_ROWS = [
    {
        "Record ID": "rec1",
        "Question": "Which gas makes up most of Earth's atmosphere?",
        "Correct Answer": "Nitrogen",
        "Incorrect Answer 1": "Oxygen",
        "Incorrect Answer 2": "Argon",
        "Incorrect Answer 3": "Carbon dioxide",
    },
    {
        "Record ID": "rec2",
        "Question": "What is the SI unit of force?",
        "Correct Answer": "newton",
        "Incorrect Answer 1": "joule",
        "Incorrect Answer 2": "watt",
        "Incorrect Answer 3": "pascal",
    },
    {
        "Record ID": "rec3",
        "Question": "How many protons does a carbon atom have?",
        "Correct Answer": "6",
        "Incorrect Answer 1": "12",
        "Incorrect Answer 2": "8",
        "Incorrect Answer 3": "14",
    },
]


def write_gpqa_csv(directory: Path) -> Path:
    import csv

    path = directory / "science" / "gpqa_diamond.csv"
    path.parent.mkdir(parents=True)
    columns = ["Pre-Revision Question", *GPQA_ROWS[0].keys()]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows({"Pre-Revision Question": "", **row} for row in GPQA_ROWS)
    return path


def test_gpqa_loader_reads_the_official_csv_format_and_scores_letters(tmp_path):
    from spade_eval.suites.science import BENCHMARKS

    write_gpqa_csv(tmp_path)
    benchmark = BENCHMARKS["gpqa_diamond"](None)
    assert (benchmark.samples, benchmark.sampling.temperature) == (8, 0.7)
    items = benchmark.load(tmp_path, None)
    assert [item.id for item in items] == ["rec1", "rec2", "rec3"]
    for item, row in zip(items, GPQA_ROWS):
        choices = item.payload["choices"]
        assert sorted(choices) == sorted(
            [row["Correct Answer"]] + [row[f"Incorrect Answer {k}"] for k in (1, 2, 3)]
        )
        assert choices["ABCD".index(item.payload["answer"])] == row["Correct Answer"]
    assert items == benchmark.load(tmp_path, None)  # the shuffle is seeded by the record: stable

    gold = run_items(
        benchmark, items, lambda item, _: f"Reasoning. The answer is \\boxed{{{item.payload['answer']}}}"
    )
    assert scores(gold) == [1.0, 1.0, 1.0]
    wrong = run_items(
        benchmark, items, lambda item, _: "Answer: " + "ABCD"[("ABCD".index(item.payload["answer"]) + 1) % 4]
    )
    assert scores(wrong) == [0.0, 0.0, 0.0]
    prompt_seen: list[str] = []
    run_items(
        benchmark, items[:1], lambda item, request: prompt_seen.append(request.messages[0]["content"]) or ""
    )
    assert "A) " in prompt_seen[0] and "D) " in prompt_seen[0] and GPQA_ROWS[0]["Question"] in prompt_seen[0]


def test_gpqa_missing_file_names_where_to_put_it(tmp_path):
    from spade_eval.suites.science import BENCHMARKS

    with pytest.raises(BenchmarkDataError, match="science/gpqa_diamond.csv"):
        BENCHMARKS["gpqa_diamond"](None).load(tmp_path, None)


# ---------------------------------------------------------------------- BBEH mini
@needs_data
def test_bbeh_gold_answers_score_one_and_corrupted_zero():
    from spade_eval.suites.bbeh import BBEHMini, answers_match, extract_answer, normalize

    benchmark = BBEHMini()
    items = benchmark.load(DATA, None)
    assert len(items) == 460
    targets = [item.payload["target"] for item in items]
    gold = [answers_match(t, extract_answer(f"Thinking...\nThe answer is: {t}")) for t in targets]
    assert all(gold)
    corrupted = []
    for index, target in enumerate(targets):
        other = next(t for t in targets[index + 1 :] + targets[:index] if normalize(t) != normalize(target))
        corrupted.append(answers_match(target, extract_answer(f"The answer is: {other}")))
    assert not any(corrupted)
    records = run_items(benchmark, items[:3], lambda item, _: f"The answer is: **{item.payload['target']}**.")
    assert scores(records) == [1.0, 1.0, 1.0]


def test_bbeh_normalisation_equivalences():
    from spade_eval.suites.bbeh import answers_match, extract_answer

    def match(target: str, response: str) -> bool:
        return answers_match(target, extract_answer(response))

    assert match("(B)", "The answer is: b")
    assert match("yes, no, yes", "so... The final answer is: Yes,no , yes")
    assert match("7.35", "The answer is: 7.350")
    assert match("spoon", "I think \\boxed{Spoon}")
    assert not match("(B)", "The answer is: (C)")
    assert not match("15", "no answer given")


# ---------------------------------------------------------------------- Reasoning Gym (hard groups)
@pytest.mark.parametrize("group", ["math", "algorithmic", "cognition", "logic"])
def test_reasoning_gym_gold_answers_score_one_and_corrupted_zero(group):
    from spade_eval.suites.reasoning_gym import EPISODES_PER_TASK, ReasoningGymGroup, group_tasks

    benchmark = ReasoningGymGroup(group=group)
    items = [
        item for item in benchmark.load(None, 2 * EPISODES_PER_TASK) if item.payload["answer"] is not None
    ]
    assert len(items) >= EPISODES_PER_TASK
    assert group_tasks(group)[0] == items[0].payload["task"]
    gold = run_items(benchmark, items, lambda item, _: f"<answer>{item.payload['answer']}</answer>")
    assert scores(gold) == [1.0] * len(items), [r.id for r in gold if r.score != 1.0]
    wrong = run_items(benchmark, items, lambda item, _: "<answer>certainly not this</answer>")
    assert scores(wrong) == [0.0] * len(items)
    assert benchmark.summary_metrics(gold)  # per-task means


def test_reasoning_gym_groups_cover_79_tasks_and_hard_levels():
    from spade_eval.suites.reasoning_gym import GROUPS, group_tasks, hard_dataset

    sizes = {group: len(group_tasks(group)) for group in GROUPS}
    assert sizes == {"math": 31, "algorithmic": 34, "cognition": 7, "logic": 7}
    _, level = hard_dataset("caesar_cipher", 2, 0)  # its top level asserts: the next generable one is used
    assert level == 1


# ---------------------------------------------------------------------- HumanEval+ / MBPP+ in the sandbox
MUTATE = """
def _mutate(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, (list, tuple)):
        return type(value)(list(value) + [0])
    return 0

_gold_{ep} = {ep}

def {ep}(*args):
    return _mutate(_gold_{ep}(*args))
"""


@needs_data
@pytest.mark.parametrize(
    "flavour,wanted",
    [
        ("humaneval", ["HumanEval/0", "HumanEval/2", "HumanEval/14"]),  # floats, atol, a long output (hashed)
        ("mbpp", ["Mbpp/2", "Mbpp/3", "Mbpp/4"]),  # tuple arguments from the contract
    ],
)
def test_evalplus_reference_passes_and_mutated_reference_fails(flavour, wanted):
    from spade_eval.suites.code import EvalPlusBenchmark

    benchmark = EvalPlusBenchmark(flavour)
    items = [item for item in benchmark.load(DATA, 15) if item.id in wanted]
    assert [item.id for item in items] == wanted
    gold = run_items(
        benchmark, items, lambda item, _: f"```python\n{benchmark.reference_program(item.payload)}\n```"
    )
    assert scores(gold) == [1.0] * len(items), [r.samples[0].details for r in gold]
    wrong = run_items(
        benchmark,
        items,
        lambda item, _: (
            "```python\n"
            + benchmark.reference_program(item.payload)
            + MUTATE.replace("{ep}", item.payload["entry_point"])
            + "```"
        ),
    )
    assert scores(wrong) == [0.0] * len(items)
    assert all(r.samples[0].details["tests"] > 10 for r in gold)  # base and plus inputs


@needs_data
def test_code_runs_in_the_sandbox_not_the_host(tmp_path):
    from spade_eval.suites.code import EvalPlusBenchmark

    benchmark = EvalPlusBenchmark("humaneval")
    item = benchmark.load(DATA, 1)[0]
    marker = tmp_path / "written-by-candidate"
    escape = (
        f"```python\ndef has_close_elements(numbers, threshold):\n"
        f"    open({str(marker)!r}, 'w').write('x')\n    return False\n```"
    )
    record = run_items(benchmark, [item], lambda *_: escape)[0]
    assert record.score == 0.0 and not marker.exists()
    assert (
        "FileNotFoundError" in record.samples[0].details["error"]
        or "Error" in record.samples[0].details["error"]
    )


# ---------------------------------------------------------------------- LiveCodeBench (made-up fixture)
def _compressed(cases: list[dict]) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(cases)))).decode()


LCB_ROWS = [
    {
        "question_title": "Sum of two",
        "question_content": "Read a and b; print a+b.",
        "platform": "atcoder",
        "question_id": "abc001_a",
        "contest_id": "abc001",
        "contest_date": "2025-02-01T00:00:00",
        "starter_code": "",
        "difficulty": "easy",
        "public_test_cases": json.dumps([{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]),
        "private_test_cases": _compressed(
            [
                {"input": "10 -4\n", "output": "6\n", "testtype": "stdin"},
                {"input": "0 0\n", "output": "0\n", "testtype": "stdin"},
            ]
        ),
        "metadata": "{}",
    },
    {
        "question_title": "Double",
        "question_content": "Return 2*x for each x.",
        "platform": "leetcode",
        "question_id": "9001",
        "contest_id": "weekly-1",
        "contest_date": "2025-03-01T00:00:00",
        "starter_code": "class Solution:\n    def double(self, nums: List[int]) -> List[int]:\n        ",
        "difficulty": "easy",
        "public_test_cases": json.dumps([{"input": "[1, 2]", "output": "[2, 4]", "testtype": "functional"}]),
        "private_test_cases": _compressed([{"input": "[]", "output": "[]", "testtype": "functional"}]),
        "metadata": json.dumps({"func_name": "double"}),
    },
]
LCB_SOLUTIONS = {
    "abc001_a": "import sys\na, b = map(int, sys.stdin.readline().split())\nprint(a + b)\n",
    "9001": (
        "class Solution:\n    def double(self, nums: List[int]) -> List[int]:\n"
        "        return [2 * x for x in nums]\n"
    ),
}


def test_livecodebench_loader_and_sandboxed_checks(tmp_path):
    from spade_eval.suites.code import LiveCodeBench

    path = tmp_path / "code" / "livecodebench" / "test6.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in LCB_ROWS), encoding="utf-8")
    benchmark = LiveCodeBench()
    assert benchmark.sampling.temperature == 0.2 and benchmark.user_supplied_data
    items = benchmark.load(tmp_path, None)
    assert [len(item.payload["tests"]) for item in items] == [3, 2]
    gold = run_items(benchmark, items, lambda item, _: f"```python\n{LCB_SOLUTIONS[item.id]}```")
    assert scores(gold) == [1.0, 1.0], [r.samples[0].details for r in gold]
    wrong = run_items(
        benchmark,
        items,
        lambda item, _: (
            "```python\n" + LCB_SOLUTIONS[item.id].replace("a + b", "a - b").replace("2 * x", "x") + "```"
        ),
    )
    assert scores(wrong) == [0.0, 0.0]


def test_livecodebench_refuses_pickles_that_name_code(tmp_path):
    from spade_eval.suites.code import LiveCodeBench

    # Protocol-0 opcodes spelt out: builtins.print called with ("owned",). (pickle.dumps of a __reduce__
    # would name whatever ``print`` is at the time; Ray's tqdm replaces builtins.print once imported.)
    evil = b"cbuiltins\nprint\n(Vowned\ntR."
    row = dict(LCB_ROWS[0], private_test_cases=base64.b64encode(zlib.compress(evil)).decode())
    path = tmp_path / "code" / "livecodebench" / "test6.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(BenchmarkDataError, match="refusing to load builtins.print"):
        LiveCodeBench().load(tmp_path, None)


def test_generation_errors_score_zero_and_are_recorded():
    from spade_eval.suites.bbeh import BBEHMini

    item = EvalItem(id="0", payload={"input": "q", "target": "1"})
    policy = ScriptedPolicy(["x"], fail_every=1, failure_message="server down")
    record = asyncio.run(BBEHMini().run_item(item, policy.generate, GREEDY, 2))
    assert record.score == 0.0 and record.samples[0].details["error"] == "server down"
    assert isinstance(policy.requests[0], GenerationRequest)


def test_reasoning_gym_task_with_a_broken_scorer_is_compared_exactly():
    from spade_eval.suites.reasoning_gym import hard_dataset, score_answer

    dataset, _ = hard_dataset("game_of_life_halting", 4, 0)
    entry = dataset[0]
    assert dataset.score_answer("certainly not this", entry) == 1.0  # the package's own bug
    assert score_answer(dataset, "certainly not this", entry, "game_of_life_halting") == 0.0
    assert score_answer(dataset, str(entry["answer"]), entry, "game_of_life_halting") == 1.0
