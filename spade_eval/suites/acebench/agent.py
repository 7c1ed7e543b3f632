"""ACEBench's agent categories: the model acts on the scenario classes until the task is done.

``agent_multi_step``: the task is the first user message; every reply of the agent goes to execution
(a reply that holds a ``[ApiName(...)]`` list is executed, any other is answered with ACEBench's "Please
do not ask me any questions" line) until one says "finish conversation". ``agent_multi_turn``: a
simulated user who knows the task (the entry's ``question``) talks to the agent and only gives details
when asked; replies with calls go to execution, the others to the user; the dialogue ends when the user
says "finish conversation" (or the agent does). Both stop after 40 dialogue messages, as in ACEBench.
Calls are executed as ACEBench's execution role executes them (``scenarios.World.execute``).

Where this loop knowingly differs from ACEBench's: calls are read from ``<tool_call>`` blocks too, and
from a ``[...]`` list inside prose, fences or after reasoning (ACEBench wants the reply to be the list
alone); argument values must be literals (ACEBench also evaluates arithmetic and turns bare names into
strings; this suite never evaluates model text); and results reach the agent as chat messages, one line
per call, rather than inside ACEBench's single history prompt.

The simulated user is ``EvalOptions.user_simulator`` when given, else the model under test. The paper
used gpt-4o: scores with another simulator are comparable with each other, not with the paper's.

Scores, as ACEBench's own evaluator computes them (``eval_main.py``: ``agent_checker`` and
``agent_eval_process``, whose behaviour is reproduced here):

- end-to-end accuracy (the item score): the saved state is one entry per involved class (its saved
  attributes, ``World.state``), or nothing when no batch counted (``World.recorded``: a multi-turn
  batch that raised does not). It must have as many entries as the answer's ``ground_truth``; each
  answer entry is compared with the saved entry of the same class: every saved attribute must appear
  in the answer, and equal it, except that for an attribute the answer gives as a dict only the
  answer's keys are compared (an extra inbox message or reminder goes unnoticed, as in ACEBench; lists
  such as orders and reservations are compared whole). The answer files misspell three class names
  (``BaseAPI``, ``ReminderAPI``, ``Reminderpi`` in agent_multi_turn_9, agent_multi_step_0/1 and
  agent_multi_turn_7); such an answer entry matches no saved class and is not compared, as in ACEBench;
- process accuracy (``summary_metrics``): the fraction of the answer's ``mile_stone`` steps found in
  order among the agent's messages that went to execution, compared as text after stripping (the count
  stops at the first milestone not found), best over the alternative milestone lists; 1 when the end
  state is right. A call written differently from the milestone (other quotes, argument order) does
  not count, as in ACEBench.
"""

from __future__ import annotations

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
from spade_eval.suites.acebench.scenarios import UnknownScenarioError, World, decodable, describe_result
from spade_eval.suites.acebench.single_step import ACEBENCH_SAMPLING
from spade_eval.suites.tool_calls import CallSyntaxError, ToolCall, parse_python_calls
from spade_train.policies.base import GenerationRequest, Policy, SamplingParams

MAX_DIALOGUE_MESSAGES = 40
FINISH = "finish conversation"
PAPER_USER_SIMULATOR = "gpt-4o"
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[A-Za-z])")
_REASONING = re.compile(r"^.*?</think>", re.DOTALL)
UNDECODABLE_STEP = "Please do not ask me any questions, use the known conditions to solve the problem"
"""ACEBench's multi-step executor's answer to a reply that is no list of calls."""
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
    step_texts: list[str] = field(default_factory=list)
    """The agent's messages that went to execution, as written (reasoning removed): what process
    accuracy compares with the milestones."""
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


def process_accuracy(step_texts: list[str], milestones: list[list[str]]) -> float:
    """Best over alternatives of: milestones found in order among the agent's execution messages
    (stripped text equality), counted up to the first one not found."""
    done = [text.strip() for text in step_texts]
    best = 0.0
    for alternative in milestones:
        if not alternative:
            return 1.0
        position, found = 0, 0
        for milestone in alternative:
            wanted = milestone.strip()
            while position < len(done) and done[position] != wanted:
                position += 1
            if position == len(done):
                break
            found += 1
            position += 1
        best = max(best, round(found / len(alternative), 3))
    return best


def end_to_end(
    state: dict[str, dict[str, Any]], expected: list[dict[str, Any]], executed: bool = True
) -> tuple[bool, list[str], list[str]]:
    """(the saved state passes ACEBench's check, classes that differ, answer classes matching no saved
    class). ``executed``: whether any call of the agent was executed (else nothing was saved)."""
    saved = [{name: attributes} for name, attributes in state.items()] if executed else []
    if len(saved) != len(expected):
        return False, ["(the number of saved classes differs from the answer's)"], []
    mismatched, skipped = [], []
    for answer in expected:
        match = next((entry for entry in saved if set(entry) == set(answer)), None)
        if match is None:
            skipped.extend(answer)
            continue
        for name, wanted in answer.items():
            if not _class_matches(match[name], wanted):
                mismatched.append(name)
    return not mismatched, mismatched, skipped


def _class_matches(saved: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """ACEBench's ``agent_checker`` on one class: saved attributes against the answer's."""
    for attribute, value in saved.items():
        if attribute not in wanted:
            return False
        target = wanted[attribute]
        if isinstance(target, dict):
            if not isinstance(value, dict) or any(key not in value or value[key] != item for key, item in target.items()):
                return False
        elif target != value:
            return False
    return True


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
        """Let the agent call tools until its turn ends; its last reply, or None when the dialogue must stop.

        Multi-turn: a reply without calls goes to the user. Multi-step, as ACEBench's loop: every reply
        goes to execution until one says "finish conversation" (from the agent's second reply on); a
        reply that holds no calls is answered with ``UNDECODABLE_STEP`` and counts as a step sent.
        """
        while transcript.messages < MAX_DIALOGUE_MESSAGES:
            generation = await generate(GenerationRequest(messages=list(messages), sampling=sampling))
            transcript.messages += 1
            if not generation.ok:
                transcript.error = f"agent: {generation.error}"
                return None
            text = generation.text
            transcript.last_reply = text
            messages.append({"role": "assistant", "content": text})
            said = _REASONING.sub("", text, count=1) if "</think>" in text else text
            if not self.multi_turn and FINISH in said and transcript.messages > 3:
                return text
            try:
                calls = extract_calls(text)
            except CallSyntaxError:
                calls = []
            if calls and decodable(calls):
                execution = world.execute(calls, multi_turn=self.multi_turn)
                if execution.aborted:
                    report = execution.results[0]
                else:
                    report = "\n".join(
                        f"{call.name} -> {describe_result(result)}"
                        for call, result in zip(calls, execution.results)
                    )
                transcript.steps.append(calls)
            elif not self.multi_turn:
                report = UNDECODABLE_STEP
            else:
                return text
            transcript.step_texts.append(said)
            messages.append({"role": "user", "content": f"Execution results:\n{report}"})
            transcript.messages += 1
        return None

    # ------------------------------------------------------------------ scoring
    def score(self, entry: AgentEntry, world: World, transcript: Transcript) -> SampleRecord:
        correct, mismatched, skipped = end_to_end(world.state(), entry.expected, world.recorded)
        process = 1.0 if correct else process_accuracy(transcript.step_texts, entry.milestones)
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
