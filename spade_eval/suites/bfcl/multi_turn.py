"""BFCL's multi-turn categories with our own generation loop, scored by bfcl's ``multi_turn_checker``.

The loop follows bfcl's ``inference_multi_turn_FC`` / ``_prompting``: for each user turn the model
replies; every reply that decodes to calls is executed against bfcl's simulated APIs (file system,
trading bot, travel booking, ...) and the results go back to the model; a reply with no decodable call
ends the turn. More than ``MAXIMUM_STEP_LIMIT`` (20) executed steps in one turn force-quits the entry,
which then fails. In ``multi_turn_miss_func`` the held-out functions are revealed at their turn with
bfcl's own follow-up message ("I have updated some more functions you can choose from...").

Safety: bfcl's executor ``eval()``s call strings. Model text never reaches it. Each reply is parsed into
``ToolCall`` structures (``spade_eval.suites.tool_calls``), each call's name must be one of the entry's
documented functions (methods of its API classes), and the string handed to bfcl is rebuilt from the
validated structure by ``render_call``: a method name applied to literal values. A call to anything else
is answered with the error bfcl would give for an unknown name, without executing anything.

Isolation: bfcl caches API instances in its module globals under ``{model_name}_{entry_id}_...``. Every
attempt uses its own fresh name, and its instances are removed from those globals once it is scored, so
runs, samples and concurrent items never see each other's state.

Tool results are returned as one user message (``spade_train.policies.base.Message`` is plain text): in
``fc`` mode as ``<tool_response>`` blocks, which is how Qwen-family chat templates render ``tool``
messages; in ``prompt`` mode as bfcl's prompting handlers write them (the repr of a list of
``{"role": "tool", "name": call, "content": result}``).
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.bfcl.library import BfclCategoryBenchmark
from spade_eval.suites.bfcl.prompting import (
    build_toolset,
    decode_reply,
    prompt_system_text,
    with_system_prompt,
)
from spade_eval.suites.tool_calls import CallSyntaxError, ToolCall, render_call
from spade_train.policies.base import GenerationRequest, SamplingParams

_EXECUTOR_LOCK = threading.Lock()
"""bfcl's executor keeps instances in module globals; one attempt touches them at a time."""


@dataclass(frozen=True)
class MultiTurnEntry:
    entry_id: str
    turns: list[list[dict[str, str]]]
    docs: list[dict[str, Any]]
    """Function docs offered from the start (held-out ones removed)."""
    held_out: dict[int, list[dict[str, Any]]]
    """Turn index -> function docs revealed at that turn (``multi_turn_miss_func``)."""
    initial_config: dict[str, Any]
    involved_classes: list[str]
    ground_truth: list[list[str]]

    @property
    def callable_names(self) -> frozenset[str]:
        """Every documented function of the entry's API classes, revealed or not (bfcl executes both)."""
        names = {doc["name"] for doc in self.docs}
        names.update(doc["name"] for docs in self.held_out.values() for doc in docs)
        return frozenset(names)


@dataclass
class Episode:
    """What one attempt produced: executable call strings per turn and step, and how it ended."""

    decoded_turns: list[list[list[str]]] = field(default_factory=list)
    steps: int = 0
    calls: int = 0
    force_quit: bool = False
    error: str | None = None
    last_reply: str = ""


class MultiTurnBenchmark(BfclCategoryBenchmark):
    """One BFCL multi-turn category (base, miss_func, miss_param, long_context)."""

    @property
    def long_context(self) -> bool:
        return "long_context" in self.category

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """Entries from the bfcl-eval wheel (``data_dir`` is not used: the data ships in the package)."""
        if self.category not in self.bfcl.category_mapping.MULTI_TURN_CATEGORY:
            raise BenchmarkDataError(f"bfcl-eval has no multi-turn category {self.category!r}")
        utils = self.bfcl.utils
        entries = utils.load_dataset_entry(
            self.category, include_prereq=False, include_language_specific_hint=True
        )
        answers = utils.load_ground_truth_entry(self.category)
        if len(entries) != len(answers):
            raise BenchmarkDataError(f"bfcl-eval's {self.category} entries and ground truth differ in length")
        items = []
        for entry, answer in zip(entries, answers):
            held_out = {int(turn): list(docs) for turn, docs in (entry.get("missed_function") or {}).items()}
            items.append(
                EvalItem(
                    id=entry["id"],
                    payload=MultiTurnEntry(
                        entry_id=entry["id"],
                        turns=entry["question"],
                        docs=list(entry["function"]),
                        held_out=held_out,
                        initial_config=entry.get("initial_config", {}),
                        involved_classes=list(entry["involved_classes"]),
                        ground_truth=answer["ground_truth"],
                    ),
                )
            )
        return items[:limit] if limit is not None else items

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        entry: MultiTurnEntry = item.payload
        records = []
        for _ in range(samples):
            run_name = f"spade_{uuid.uuid4().hex[:16]}"
            try:
                episode = await self.play(entry, generate, sampling, run_name)
                records.append(self.score_episode(entry, episode, run_name))
            finally:
                self._forget(run_name)
        return ItemRecord(id=item.id, samples=records, gold=entry.ground_truth)

    # ------------------------------------------------------------------ the generation loop
    async def play(
        self, entry: MultiTurnEntry, generate: Generate, sampling: SamplingParams, run_name: str
    ) -> Episode:
        prompts = self.bfcl.default_prompts
        docs = list(entry.docs)
        toolset = build_toolset(docs, self.bfcl)
        system_text = prompt_system_text(docs, self.bfcl) if self.mode == "prompt" else ""
        messages: list[dict[str, str]] = []
        episode = Episode()
        for turn_index, turn_messages in enumerate(entry.turns):
            if turn_index in entry.held_out:
                revealed = entry.held_out[turn_index]
                if self.mode == "fc":
                    docs.extend(revealed)
                    toolset = build_toolset(docs, self.bfcl)
                    text = prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC
                else:
                    text = prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING.format(
                        functions=revealed
                    )
                turn_messages = [{"role": "user", "content": text}]
            turn_messages = [dict(message) for message in turn_messages]
            if turn_index == 0 and self.mode == "prompt":
                turn_messages = with_system_prompt(turn_messages, system_text)
            messages.extend(turn_messages)
            turn_steps: list[list[str]] = []
            executed_steps = 0
            while True:
                request = GenerationRequest(
                    messages=list(messages),
                    sampling=sampling,
                    tools=list(toolset.tools) if self.mode == "fc" else None,
                )
                generation = await generate(request)
                if not generation.ok:
                    episode.error = generation.error
                    episode.decoded_turns.append(turn_steps)
                    return episode
                episode.last_reply = generation.text
                messages.append({"role": "assistant", "content": generation.text})
                try:
                    calls = decode_reply(generation.text, self.mode, toolset, for_execution=True)
                except CallSyntaxError:
                    calls = []
                if not calls:
                    break
                executable, results = self.execute(entry, calls, run_name)
                if executable:
                    turn_steps.append(executable)
                messages.append({"role": "user", "content": self._results_message(calls, results)})
                episode.steps += 1
                episode.calls += len(calls)
                executed_steps += 1
                if executed_steps > self.bfcl.step_limit:
                    episode.force_quit = True
                    break
            episode.decoded_turns.append(turn_steps)
            if episode.force_quit:
                break
        return episode

    def execute(
        self, entry: MultiTurnEntry, calls: list[ToolCall], run_name: str
    ) -> tuple[list[str], list[str]]:
        """Run one step's calls on bfcl's APIs; returns the executed call strings and every call's result."""
        results: list[str | None] = []
        executable: list[str] = []
        allowed = entry.callable_names
        for call in calls:
            if call.name not in allowed:
                results.append(f"Error during execution: name '{call.name}' is not defined")
                continue
            try:
                executable.append(render_call(call))
                results.append(None)
            except CallSyntaxError as error:
                results.append(f"Error during execution: {error}")
        if executable:
            with _EXECUTOR_LOCK:
                outputs, _ = self.bfcl.multi_turn_utils.execute_multi_turn_func_call(
                    executable,
                    entry.initial_config,
                    entry.involved_classes,
                    run_name,
                    entry.entry_id,
                    long_context=self.long_context,
                    is_evaL_run=False,
                )
            filled = iter(outputs)
            results = [next(filled) if result is None else result for result in results]
        return executable, [str(result) for result in results]

    def _results_message(self, calls: list[ToolCall], results: list[str]) -> str:
        if self.mode == "fc":
            return "\n".join(f"<tool_response>\n{result}\n</tool_response>" for result in results)
        described = []
        for call, result in zip(calls, results):
            try:
                name = render_call(call)
            except CallSyntaxError:
                name = call.name
            described.append({"role": "tool", "name": name, "content": result})
        return repr(described)

    # ------------------------------------------------------------------ scoring
    def score_episode(self, entry: MultiTurnEntry, episode: Episode, run_name: str) -> SampleRecord:
        details: dict[str, Any] = {"steps": episode.steps, "calls": episode.calls}
        if episode.error is not None:
            return SampleRecord(
                score=0.0,
                response=episode.last_reply,
                details={**details, "error_type": "multi_turn:generation_error", "error": episode.error},
            )
        if episode.force_quit or len(episode.decoded_turns) != len(entry.ground_truth):
            return SampleRecord(
                score=0.0,
                response=episode.last_reply,
                details={**details, "error_type": "multi_turn:force_terminated"},
            )
        test_entry = {
            "id": entry.entry_id,
            "initial_config": entry.initial_config,
            "involved_classes": entry.involved_classes,
        }
        try:
            with _EXECUTOR_LOCK:
                verdict = self.bfcl.multi_turn_checker.multi_turn_checker(
                    episode.decoded_turns, entry.ground_truth, test_entry, self.category, run_name
                )
        except Exception as error:  # noqa: BLE001 - bfcl asserts on malformed states: the attempt fails
            verdict = {"valid": False, "error_type": "multi_turn:checker_error", "error_message": str(error)}
        if not verdict["valid"]:
            details.update(
                error_type=verdict.get("error_type", ""), error=str(verdict.get("error_message", ""))
            )
        return SampleRecord(score=float(verdict["valid"]), response=episode.last_reply, details=details)

    def _forget(self, run_name: str) -> None:
        """Drop the API instances this attempt left in bfcl's module globals."""
        module_globals = vars(self.bfcl.multi_turn_utils)
        with _EXECUTOR_LOCK:
            for key in [key for key in module_globals if key.startswith(run_name)]:
                del module_globals[key]
