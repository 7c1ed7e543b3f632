"""BIG-Bench Extra Hard, mini split (460 questions, 23 tasks), from ``DATA_DIR/bbeh/mini/data.json``.

The model is asked to end with "The answer is: ..."; the scorer reads the last such line (or the last
``\\boxed{}``) and compares it with the target after the normalisation the BBEH authors describe:
case, surrounding markup, quotes and a final period do not matter, an option may be written ``(b)``
or ``b``, lists compare item by item ignoring the spacing around commas, and numbers compare by value.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from spade_eval.benchmark import (
    BenchmarkDataError,
    BenchmarkFactory,
    EvalItem,
    Generate,
    ItemRecord,
    SampleRecord,
)
from spade_eval.suites.common import data_file, last_boxed, sample
from spade_train.policies.base import SamplingParams

DATA_PATH = "bbeh/mini/data.json"
HOW_TO_GET = "download data.json of the mini split from the google-deepmind/bbeh repository"
INSTRUCTION = (
    '\n\nThink step by step. Then give the final answer on its own line, starting with "The answer is: " '
    "followed by the answer only, without formatting. For a multiple-choice question, give only the "
    'option, for example "The answer is: (A)".'
)
_ANSWER = re.compile(r"the\s+(?:final\s+)?answer\s+is\s*:?", re.IGNORECASE)
_OPTION = re.compile(r"^\(([a-z])\)$")


def extract_answer(response: str) -> str | None:
    """The text after the last "The answer is:", else the last ``\\boxed{}``; None when neither is there."""
    matches = list(_ANSWER.finditer(response))
    if matches:
        rest = response[matches[-1].end() :].strip()
        return rest.splitlines()[0].strip() if rest else None
    return last_boxed(response)


def normalize(answer: str) -> str:
    text = answer.strip()
    boxed = last_boxed(text)
    if boxed is not None:
        text = boxed
    text = re.sub(r"\\text\{([^{}]*)\}", r"\1", text)
    text = text.replace("**", "").replace("`", "").strip()
    text = text.strip("$").strip().rstrip(".").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    text = " ".join(text.lower().split())
    text = re.sub(r"\s*,\s*", ", ", text)
    option = _OPTION.match(text)
    return option.group(1) if option else text


def answers_match(target: str, response_answer: str | None) -> bool:
    if response_answer is None:
        return False
    gold, given = normalize(target), normalize(response_answer)
    if gold == given:
        return True
    gold_parts, given_parts = gold.split(", "), given.split(", ")
    return len(gold_parts) == len(given_parts) and all(_same(a, b) for a, b in zip(gold_parts, given_parts))


def _same(gold: str, given: str) -> bool:
    if gold == given:
        return True
    try:
        return abs(float(gold) - float(given)) <= 1e-6 * max(1.0, abs(float(gold)))
    except ValueError:
        return False


class BBEHMini:
    name = "bbeh_mini"
    suite = "reasoning"
    metric = "accuracy"
    samples = 1
    sampling = SamplingParams(temperature=0.6, top_p=0.95, max_tokens=32768)

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        path = data_file(data_dir, DATA_PATH, self.name, HOW_TO_GET)
        try:
            examples = json.loads(path.read_text(encoding="utf-8"))["examples"]
            rows = [(str(e["input"]), str(e["target"])) for e in examples]
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise BenchmarkDataError(
                f"{self.name}: {path} is not the BBEH mini data.json ({error})"
            ) from None
        rows = rows if limit is None else rows[:limit]
        return [
            EvalItem(id=str(index), payload={"input": text, "target": target})
            for index, (text, target) in enumerate(rows)
        ]

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        messages = [{"role": "user", "content": item.payload["input"] + INSTRUCTION}]
        records = []
        for generation in await sample(generate, messages, sampling, samples):
            if not generation.ok:
                records.append(SampleRecord(score=0.0, details={"error": generation.error}))
                continue
            answer = extract_answer(generation.text)
            records.append(
                SampleRecord(
                    score=float(answers_match(item.payload["target"], answer)),
                    response=generation.text,
                    extracted=answer,
                )
            )
        return ItemRecord(id=item.id, samples=records, gold=item.payload["target"])


BENCHMARKS: dict[str, BenchmarkFactory] = {"bbeh_mini": lambda options: BBEHMini()}
