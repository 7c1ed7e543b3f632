"""Reasoning Gym "hard" groups: Math, Algorithmic, Cognition and Logic, generated offline.

The ``reasoning-gym`` package generates every task procedurally, so nothing is downloaded. Each group is
one benchmark; an item is one episode (question) of one task, 8 per task as in the paper, judged by that
task's own ``score_answer``: an episode counts as solved when it gives full marks (1.0). The raw score is
kept in the sample's details; it is not averaged in, because several tasks give 0.01 to any well-formed
wrong answer, which would credit a model for answering at all.

Groups, by the package's own module folders: Math = algebra, arithmetic, geometry and graphs;
Algorithmic = algorithmic; Cognition = cognition; Logic = logic (79 tasks with reasoning-gym 0.1.23).

"Hard" is each task's curriculum at its top level (every attribute at its highest defined level); a task
without a curriculum uses its default configuration. Where the top level cannot be generated (the
package asserts, e.g. caesar_cipher) the next lower level is used, and two tasks whose top levels take
minutes to generate are capped (``LEVEL_CAPS``). The level used is recorded in every item's details.
One task's own scorer accepts any answer in this package version and is replaced by an exact comparison
(``EXACT_ANSWER_TASKS``).
Episodes are seeded by ``EvalOptions.seed``, so every run and every model gets the same questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import reasoning_gym  # noqa: F401 - imported here so a missing package fails at selection, with a hint

from spade_eval.benchmark import BenchmarkFactory, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.common import first_line, sample
from spade_train.policies.base import SamplingParams

EPISODES_PER_TASK = 8
GROUPS: dict[str, tuple[str, ...]] = {
    "math": ("algebra", "arithmetic", "geometry", "graphs"),
    "algorithmic": ("algorithmic",),
    "cognition": ("cognition",),
    "logic": ("logic",),
}
LEVEL_CAPS: dict[str, int] = {"jugs": 1, "zebra_puzzles": 3}
"""Top curriculum level used for tasks whose higher levels take minutes per 8 episodes to generate."""
EXACT_ANSWER_TASKS = frozenset({"game_of_life_halting"})
"""Tasks whose own scorer is broken in reasoning-gym 0.1.23: game_of_life_halting compares ``bool(answer)``
with ``bool("True" / "False")``, so every non-empty answer scores 1.0. These compare the answer text."""
INSTRUCTION = "\n\nThink step by step, then give only the final answer inside <answer></answer> tags."
_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)


def group_tasks(group: str) -> list[str]:
    """The task names of ``group``, sorted, from the package's registry."""
    from reasoning_gym.factory import DATASETS

    folders = GROUPS[group]
    return sorted(
        name for name, (dataset_cls, _) in DATASETS.items() if dataset_cls.__module__.split(".")[1] in folders
    )


def hard_dataset(task: str, size: int, seed: int) -> tuple[Any, int | None]:
    """The task's dataset at its hardest generable level, and that level (None: no curriculum)."""
    from reasoning_gym.factory import CURRICULA, DATASETS, create_curriculum

    dataset_cls, config_cls = DATASETS[task]
    if task not in CURRICULA:
        return dataset_cls(config_cls(size=size, seed=seed)), None
    top = max(len(attribute.levels) for attribute in create_curriculum(task).attributes.values()) - 1
    level = min(top, LEVEL_CAPS.get(task, top))
    while True:
        curriculum = create_curriculum(task)
        curriculum.set_global_level(level)
        try:
            dataset = dataset_cls(curriculum.generate_configuration({"size": size, "seed": seed}))
            dataset[0]  # some configurations only fail when an episode is generated
            return dataset, level
        except (AssertionError, ValueError) as error:
            if level == 0:
                raise RuntimeError(
                    f"reasoning-gym task {task} cannot be generated: {first_line(str(error))}"
                ) from None
            level -= 1


def extract_answer(response: str) -> str | None:
    """The last ``<answer>...</answer>``; None when the model gave none (scored by the task all the same)."""
    found = _ANSWER_TAG.findall(response)
    return found[-1].strip() if found else None


@dataclass
class ReasoningGymGroup:
    """One group (``rg_math``, ...): every task of the group, ``episodes`` questions each."""

    group: str
    seed: int = 0
    episodes: int = EPISODES_PER_TASK
    suite: str = "reasoning"
    samples: int = 1
    sampling: SamplingParams = field(
        default_factory=lambda: SamplingParams(temperature=0.6, top_p=0.95, max_tokens=32768)
    )
    metric: str = "accuracy"

    def __post_init__(self) -> None:
        self.name = f"rg_{self.group}"
        self._datasets: dict[str, Any] = {}

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        items: list[EvalItem] = []
        for task in group_tasks(self.group):
            if limit is not None and len(items) >= limit:
                break  # tasks are generated only when needed: --limit stays fast
            dataset, level = hard_dataset(task, self.episodes, self.seed)
            self._datasets[task] = dataset
            for index in range(self.episodes):
                entry = dataset[index]
                items.append(
                    EvalItem(
                        id=f"{task}/{index}",
                        payload={
                            "task": task,
                            "index": index,
                            "level": level,
                            "question": entry["question"],
                            "answer": entry.get("answer"),
                        },
                    )
                )
        return items if limit is None else items[:limit]

    def entry(self, item: EvalItem) -> dict[str, Any]:
        return self._datasets[item.payload["task"]][item.payload["index"]]

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        task = item.payload["task"]
        dataset, entry = self._datasets[task], self.entry(item)
        messages = [{"role": "user", "content": entry["question"] + INSTRUCTION}]
        records = []
        for generation in await sample(generate, messages, sampling, samples):
            details: dict[str, Any] = {"task": task, "level": item.payload["level"]}
            if not generation.ok:
                records.append(SampleRecord(score=0.0, details={**details, "error": generation.error}))
                continue
            answer = extract_answer(generation.text)
            raw = score_answer(dataset, answer, entry, task)
            records.append(
                SampleRecord(
                    score=1.0 if raw >= 1.0 else 0.0,
                    response=generation.text,
                    extracted=answer,
                    details={**details, "raw_score": raw},
                )
            )
        return ItemRecord(id=item.id, samples=records, gold=item.payload["answer"])

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        """Accuracy per task (``task/<name>``), the view the paper's per-task tables use."""
        per_task: dict[str, list[float]] = {}
        for record in records:
            per_task.setdefault(record.id.split("/")[0], []).append(record.score)
        return {f"task/{task}": sum(scores) / len(scores) for task, scores in sorted(per_task.items())}


def score_answer(dataset: Any, answer: str | None, entry: dict[str, Any], task: str = "") -> float:
    """The task's own scorer, clipped to [0, 1]; a scorer that raises on a malformed answer scores 0.

    Tasks in ``EXACT_ANSWER_TASKS`` are compared with the gold answer instead (case-insensitive).
    """
    if task in EXACT_ANSWER_TASKS:
        given = (answer or "").strip().lower()
        return 1.0 if given and given == str(entry.get("answer", "")).strip().lower() else 0.0
    try:
        return min(1.0, max(0.0, float(dataset.score_answer(answer, entry))))
    except Exception:  # noqa: BLE001 - third-party scorers raise on odd answers; that answer is wrong
        return 0.0


def _factory(group: str) -> BenchmarkFactory:
    return lambda options: ReasoningGymGroup(group=group, seed=options.seed)


BENCHMARKS: dict[str, BenchmarkFactory] = {f"rg_{group}": _factory(group) for group in GROUPS}
