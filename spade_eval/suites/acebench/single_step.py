"""ACEBench's normal and special categories: one reply per dialogue state, scored by ``checker``.

Each entry gives the API specifications and the conversation so far as ACEBench writes it
(``user: ...\\nsystem: ...\\nuser: ...``); the model answers with the next API request(s), or, in the
special categories, possibly with the sentence that flags a problem.

The two multi-turn normal categories (``normal_multi_turn_user_adjust`` / ``_user_switch``) hold one row
per turn of a dialogue (ids ``..._<dialogue>_<turn>``). An item here is a whole dialogue: its score is 1
only when every turn is right (ACEBench's end accuracy), and ``process_accuracy`` (the mean fraction of
right turns) is reported beside it, as in ACEBench.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_eval.benchmark import EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.acebench.categories import benchmark_name
from spade_eval.suites.acebench.checker import Verdict, check_normal, check_special, extract_calls
from spade_eval.suites.acebench.data import load_category
from spade_eval.suites.acebench.prompts import (
    conversation_message,
    normal_system_prompt,
    special_system_prompt,
)
from spade_eval.suites.tool_calls import CallSyntaxError
from spade_train.policies.base import GenerationRequest, SamplingParams

ACEBENCH_SAMPLING = SamplingParams(temperature=0.7, top_p=0.95, max_tokens=4000)
"""The defaults of ACEBench's generation script."""


@dataclass(frozen=True)
class Turn:
    """One row: what the model sees and the answer its reply is checked against."""

    row_id: str
    messages: list[dict[str, str]]
    functions: list[dict[str, Any]]
    answer: Any


def _turn(entry: dict[str, Any], answer: dict[str, Any], special: bool) -> Turn:
    functions = entry["function"]
    if special:
        system = special_system_prompt(functions, entry.get("time"))
    else:
        system = normal_system_prompt(functions, entry.get("time"), entry.get("profile"))
    messages = [
        {"role": "system", "content": system},
        {"role": "user", "content": conversation_message(entry["question"])},
    ]
    return Turn(row_id=entry["id"], messages=messages, functions=functions, answer=answer["ground_truth"])


class _SingleStepBenchmark:
    suite = "tool_use"
    samples = 1
    metric = "accuracy"
    special = False
    user_supplied_data = True
    """ACEBench is on no package registry: its data comes from the user (``--data-dir``), so a whole-suite
    run without it skips these benchmarks with a note (BFCL's data ships in its wheel)."""

    def __init__(self, category: str) -> None:
        self.category = category
        self.name = benchmark_name(category)
        self.sampling = ACEBENCH_SAMPLING

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        items: list[EvalItem] = []
        groups: dict[str, list[Turn]] = {}
        for entry, answer in load_category(data_dir, self.category):
            turn = _turn(entry, answer, self.special)
            if "multi_turn" in self.category:  # one item per dialogue: ..._<dialogue>_<turn>
                dialogue = entry["id"].rsplit("_", 1)[0]
                if dialogue not in groups:
                    groups[dialogue] = []
                    items.append(EvalItem(id=dialogue, payload=groups[dialogue]))
                groups[dialogue].append(turn)
            else:
                items.append(EvalItem(id=entry["id"], payload=[turn]))
        return items[:limit] if limit is not None else items

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        turns: list[Turn] = item.payload
        records = []
        for _ in range(samples):
            verdicts: list[Verdict] = []
            reply = ""
            for turn in turns:
                generation = await generate(GenerationRequest(messages=turn.messages, sampling=sampling))
                reply = generation.text
                verdicts.append(
                    self.score_reply(turn, reply)
                    if generation.ok
                    else Verdict(False, f"generation failed: {generation.error}")
                )
            right = sum(verdict.valid for verdict in verdicts)
            details: dict[str, Any] = {
                "turns": len(turns),
                "turns_right": right,
                "process": right / len(turns),
            }
            failed = next((verdict.reason for verdict in verdicts if not verdict.valid), None)
            if failed:
                details["error"] = failed
            records.append(SampleRecord(score=float(right == len(turns)), response=reply, details=details))
        gold = [turn.answer for turn in turns]
        return ItemRecord(id=item.id, samples=records, gold=gold[0] if len(gold) == 1 else gold)

    def score_reply(self, turn: Turn, reply: str) -> Verdict:
        raise NotImplementedError

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        """Process accuracy (mean fraction of right turns) for the multi-turn normal categories."""
        if "multi_turn" not in self.category or not records:
            return {}
        per_item = [
            sum(sample.details.get("process", 0.0) for sample in record.samples) / len(record.samples)
            for record in records
            if record.samples
        ]
        return {"process_accuracy": sum(per_item) / len(per_item)} if per_item else {}


class NormalBenchmark(_SingleStepBenchmark):
    """A normal category: the reply's calls must match the answer's."""

    def score_reply(self, turn: Turn, reply: str) -> Verdict:
        try:
            calls = extract_calls(reply)
        except CallSyntaxError as error:
            return Verdict(False, f"wrong output format: {error}")
        return check_normal(turn.functions, calls, turn.answer)


class SpecialBenchmark(_SingleStepBenchmark):
    """A special category: the reply must flag the missing, incorrect or out-of-scope request."""

    special = True

    def score_reply(self, turn: Turn, reply: str) -> Verdict:
        return check_special(self.category, reply, turn.answer)
