"""ACEBench's agent categories: the model acts on our scenario classes until the task is done.

``agent_multi_step``: the task is the first user message; the agent calls tools (each reply that holds a
``[ApiName(...)]`` list is executed and the results come back as the next user message) until it replies
without calls. ``agent_multi_turn``: a simulated user who knows the task (the entry's ``question``)
talks to the agent and only gives details when asked; the dialogue ends when the user says "finish
conversation" (or the agent does). Both stop after 40 dialogue messages, as in ACEBench.

The simulated user is ``EvalOptions.user_simulator`` when given, else the model under test. The paper
used gpt-4o: scores with another simulator are comparable with each other, not with the paper's.

Scores, as in ACEBench:

- end-to-end accuracy (the item score): after the dialogue, every class in the answer's expected state
  equals the world's state, attribute by attribute. The answer files misspell three class names
  (``BaseAPI``, ``ReminderAPI``, ``Reminderpi`` in agent_multi_turn_9, agent_multi_step_0/1 and
  agent_multi_turn_7); such an entry names no class and is not compared, which is also what ACEBench's
  checker does with them (its lookup by exact name finds nothing);
- process accuracy (``summary_metrics``): the fraction of the answer's ``mile_stone`` steps the agent's
  tool steps reproduce in order (the count stops at the first milestone not found), best over the
  alternative milestone lists; 1 when the end state is right. A step matches when it holds the same calls
  with the same arguments (order of calls and of arguments aside).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.acebench.categories import benchmark_name
from spade_eval.suites.acebench.checker import extract_calls
from spade_eval.suites.acebench.data import load_category
from spade_eval.suites.acebench.prompts import (
    USER_SIMULATOR_OPENING,
    agent_system_prompt,
    user_simulator_prompt,
)
from spade_eval.suites.acebench.scenarios import UnknownScenarioError, World, describe_result
from spade_eval.suites.acebench.single_step import ACEBENCH_SAMPLING
from spade_eval.suites.tool_calls import CallSyntaxError, ToolCall, parse_python_calls
from spade_train.policies.base import GenerationRequest, Policy, SamplingParams

MAX_DIALOGUE_MESSAGES = 40
FINISH = "finish conversation"
PAPER_USER_SIMULATOR = "gpt-4o"
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[A-Za-z])")
MULTI_STEP_NOTE = (
    "\n\nNobody will answer questions in this task: complete it with the tools, then reply "
    '"finish conversation".'
)


@dataclass(frozen=True)
class AgentEntry:
    entry_id: str
    instruction: str
    functions: list[dict[str, Any]]
    involved_classes: list[str]
    initial_config: dict[str, Any]
    expected: list[dict[str, Any]]
    milestones: list[list[str]]
    """Alternative milestone lists; each step is a ``[call, ...]`` string."""


@dataclass
class Transcript:
    steps: list[list[ToolCall]] = field(default_factory=list)
    messages: int = 0
    error: str | None = None
    last_reply: str = ""


def milestone_calls(step: str) -> list[ToolCall]:
    """Parse one milestone step. Some are written with unescaped apostrophes ('Domino's'); those are
    escaped between letters and parsed again (the answer files are trusted data, not model output)."""
    try:
        return parse_python_calls(step.strip())
    except CallSyntaxError:
        return parse_python_calls(_APOSTROPHE.sub("\\'", step.strip()))


def step_signature(calls: list[ToolCall]) -> tuple[str, ...]:
    return tuple(
        sorted(
            json.dumps([call.name, call.arguments, list(call.positional)], sort_keys=True, default=str)
            for call in calls
        )
    )


def process_accuracy(steps: list[list[ToolCall]], milestones: list[list[str]]) -> float:
    """Best over alternatives of: milestones found in order in the agent's steps, up to the first miss."""
    done = [step_signature(step) for step in steps]
    best = 0.0
    for alternative in milestones:
        if not alternative:
            return 1.0
        position, found = 0, 0
        for milestone in alternative:
            wanted = step_signature(milestone_calls(milestone))
            while position < len(done) and done[position] != wanted:
                position += 1
            if position == len(done):
                break
            found += 1
            position += 1
        best = max(best, found / len(alternative))
    return best


def end_to_end(
    state: dict[str, dict[str, Any]], expected: list[dict[str, Any]]
) -> tuple[bool, list[str], list[str]]:
    """(every named class matches, classes that differ, answer entries naming no class)."""
    mismatched, skipped = [], []
    for entry in expected:
        for name, attributes in entry.items():
            if name not in state:
                skipped.append(name)
            elif state[name] != attributes:
                mismatched.append(name)
    return not mismatched, mismatched, skipped


class AgentBenchmark:
    """``agent_multi_turn`` (with a simulated user) or ``agent_multi_step``."""

    suite = "tool_use"
    samples = 1
    user_supplied_data = True
    """ACEBench is on no package registry: its data comes from the user (``--data-dir``), so a whole-suite
    run without it skips these benchmarks with a note (BFCL's data ships in its wheel)."""

    def __init__(self, category: str, user_simulator: Policy | None = None) -> None:
        self.category = category
        self.name = benchmark_name(category)
        self.sampling = ACEBENCH_SAMPLING
        self.user_simulator = user_simulator
        self.multi_turn = category == "agent_multi_turn"
        if self.multi_turn:
            who = user_simulator.name if user_simulator is not None else "the model under test"
            self.metric = (
                f"end-to-end accuracy (simulated user: {who}; the paper used {PAPER_USER_SIMULATOR})"
            )
        else:
            self.metric = "end-to-end accuracy"

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        items = []
        for entry, answer in load_category(data_dir, self.category):
            milestones = answer.get("mile_stone") or []
            if milestones and not isinstance(milestones[0], list):
                milestones = [milestones]
            payload = AgentEntry(
                entry_id=entry["id"],
                instruction=entry["question"],
                functions=entry["function"],
                involved_classes=list(entry["involved_classes"]),
                initial_config=entry.get("initial_config") or {},
                expected=answer["ground_truth"],
                milestones=milestones,
            )
            try:  # an entry naming a class this suite does not implement fails at load, not mid-run
                World(payload.involved_classes, payload.initial_config)
            except UnknownScenarioError as error:
                raise BenchmarkDataError(f"ACEBench {entry['id']}: {error}") from None
            items.append(EvalItem(id=entry["id"], payload=payload))
        return items[:limit] if limit is not None else items

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        entry: AgentEntry = item.payload
        records = []
        for _ in range(samples):
            world = World(entry.involved_classes, entry.initial_config)
            if self.multi_turn:
                transcript = await self.converse(entry, world, generate, sampling)
            else:
                transcript = await self.work_alone(entry, world, generate, sampling)
            records.append(self.score(entry, world, transcript))
        return ItemRecord(id=item.id, samples=records, gold=entry.expected)

    # ------------------------------------------------------------------ dialogues
    async def work_alone(
        self, entry: AgentEntry, world: World, generate: Generate, sampling: SamplingParams
    ) -> Transcript:
        transcript = Transcript()
        messages = [
            {
                "role": "system",
                "content": agent_system_prompt(entry.involved_classes, entry.functions) + MULTI_STEP_NOTE,
            },
            {"role": "user", "content": entry.instruction},
        ]
        transcript.messages = 1
        await self._act(messages, world, generate, sampling, transcript)
        return transcript

    async def converse(
        self, entry: AgentEntry, world: World, generate: Generate, sampling: SamplingParams
    ) -> Transcript:
        transcript = Transcript()
        agent_messages = [
            {"role": "system", "content": agent_system_prompt(entry.involved_classes, entry.functions)}
        ]
        user_messages = [
            {"role": "system", "content": user_simulator_prompt(entry.instruction)},
            {"role": "user", "content": USER_SIMULATOR_OPENING},
        ]
        simulate = self.user_simulator.generate if self.user_simulator is not None else generate
        while transcript.messages < MAX_DIALOGUE_MESSAGES:
            said = await simulate(
                GenerationRequest(messages=list(user_messages), sampling=sampling, role="user_simulator")
            )
            transcript.messages += 1
            if not said.ok:
                transcript.error = f"user simulator: {said.error}"
                break
            user_messages.append({"role": "assistant", "content": said.text})
            if FINISH in said.text.lower():
                break
            agent_messages.append({"role": "user", "content": said.text})
            reply = await self._act(agent_messages, world, generate, sampling, transcript)
            if reply is None or FINISH in reply.lower():
                break
            user_messages.append({"role": "user", "content": reply})
        return transcript

    async def _act(
        self,
        messages: list[dict[str, str]],
        world: World,
        generate: Generate,
        sampling: SamplingParams,
        transcript: Transcript,
    ) -> str | None:
        """Let the agent call tools until it replies in words; None when the dialogue must stop."""
        while transcript.messages < MAX_DIALOGUE_MESSAGES:
            generation = await generate(GenerationRequest(messages=list(messages), sampling=sampling))
            transcript.messages += 1
            if not generation.ok:
                transcript.error = f"agent: {generation.error}"
                return None
            text = generation.text
            transcript.last_reply = text
            messages.append({"role": "assistant", "content": text})
            try:
                calls = extract_calls(text)
            except CallSyntaxError:
                calls = []
            if not calls:
                return text
            transcript.steps.append(calls)
            results = [world.call(call) for call in calls]
            report = "\n".join(
                f"{call.name} -> {describe_result(result)}" for call, result in zip(calls, results)
            )
            messages.append({"role": "user", "content": f"Execution results:\n{report}"})
            transcript.messages += 1
        return None

    # ------------------------------------------------------------------ scoring
    def score(self, entry: AgentEntry, world: World, transcript: Transcript) -> SampleRecord:
        correct, mismatched, skipped = end_to_end(world.state(), entry.expected)
        process = 1.0 if correct else process_accuracy(transcript.steps, entry.milestones)
        details: dict[str, Any] = {
            "process": process,
            "steps": len(transcript.steps),
            "messages": transcript.messages,
        }
        if mismatched:
            details["mismatched_classes"] = mismatched
        if skipped:
            details["unchecked_answer_classes"] = skipped
        if transcript.error:
            details["error"] = transcript.error
        return SampleRecord(score=float(correct), response=transcript.last_reply, details=details)

    def summary_metrics(self, records: list[ItemRecord]) -> dict[str, float]:
        per_item = [
            sum(sample.details.get("process", 0.0) for sample in record.samples) / len(record.samples)
            for record in records
            if record.samples
        ]
        return {"process_accuracy": sum(per_item) / len(per_item)} if per_item else {}
