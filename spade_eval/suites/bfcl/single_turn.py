"""BFCL's single-turn categories (non-live and live): one request per entry, scored by bfcl's checkers.

AST categories go through ``ast_checker`` with the entry's original function docs (the model saw the
docs with bfcl's language hints, where Java and JavaScript parameters become strings), exactly as
bfcl's ``_evaluate_single_ast_entry`` does: an undecodable reply or one that is not a list of calls fails
before the checker runs. Relevance categories only ask whether the reply holds a call: irrelevance
entries must not, live_relevance entries must.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError, EvalItem, Generate, ItemRecord, SampleRecord
from spade_eval.suites.bfcl.categories import RELEVANCE, language_of
from spade_eval.suites.bfcl.library import CHECKER_MODEL_NAME, BfclCategoryBenchmark
from spade_eval.suites.bfcl.prompting import (
    ToolSet,
    ast_form,
    build_toolset,
    decode_reply,
    prompt_system_text,
    with_system_prompt,
)
from spade_eval.suites.tool_calls import CallSyntaxError, render_call
from spade_train.policies.base import GenerationRequest, SamplingParams


@dataclass(frozen=True)
class SingleTurnEntry:
    """One entry: what the model is shown, and what the checker compares against."""

    messages: list[dict[str, str]]
    toolset: ToolSet
    eval_functions: list[dict[str, Any]]
    """The docs without language hints: the AST checker's type rules read the original types."""
    ground_truth: list[dict[str, Any]] | None
    """None for relevance categories, which have no ground truth."""


class SingleTurnBenchmark(BfclCategoryBenchmark):
    """One BFCL single-turn category."""

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        """Entries from the bfcl-eval wheel (``data_dir`` is not used: the data ships in the package)."""
        utils = self.bfcl.utils
        if self.category not in self.bfcl.category_mapping.SINGLE_TURN_CATEGORY:
            raise BenchmarkDataError(f"bfcl-eval has no single-turn category {self.category!r}")
        shown = utils.load_dataset_entry(
            self.category, include_prereq=False, include_language_specific_hint=True
        )
        original = utils.load_dataset_entry(
            self.category, include_prereq=False, include_language_specific_hint=False
        )
        answers: list[Any] = [None] * len(shown)
        if self.category not in RELEVANCE:
            answers = [entry["ground_truth"] for entry in utils.load_ground_truth_entry(self.category)]
        if not (len(shown) == len(original) == len(answers)):
            raise BenchmarkDataError(f"bfcl-eval's {self.category} entries and ground truth differ in length")
        items = []
        for entry, plain, answer in zip(shown, original, answers):
            messages = [dict(message) for message in entry["question"][0]]
            toolset = build_toolset(entry["function"], self.bfcl)
            if self.mode == "prompt":
                messages = with_system_prompt(messages, prompt_system_text(entry["function"], self.bfcl))
            items.append(
                EvalItem(
                    id=entry["id"], payload=SingleTurnEntry(messages, toolset, plain["function"], answer)
                )
            )
        return items[:limit] if limit is not None else items

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        entry: SingleTurnEntry = item.payload
        tools = list(entry.toolset.tools) if self.mode == "fc" else None
        records = []
        for _ in range(samples):
            generation = await generate(
                GenerationRequest(messages=entry.messages, sampling=sampling, tools=tools)
            )
            if not generation.ok:
                records.append(SampleRecord(score=0.0, details={"error": generation.error}))
                continue
            records.append(self.score_reply(entry, generation.text))
        return ItemRecord(id=item.id, samples=records, gold=entry.ground_truth)

    def score_reply(self, entry: SingleTurnEntry, text: str) -> SampleRecord:
        """Score one reply with bfcl's checkers (public: the gold-answer tests feed replies here too)."""
        try:
            calls = decode_reply(text, self.mode, entry.toolset)
        except CallSyntaxError as error:
            calls, decode_error = None, str(error)
        extracted = None if calls is None else "; ".join(_describe(call) for call in calls)
        if self.category in RELEVANCE:
            holds_call = calls is not None and not self.bfcl.utils.is_empty_output(ast_form(calls))
            success = not holds_call if "irrelevance" in self.category else holds_call
            return SampleRecord(
                score=float(success), response=text, extracted=extracted, details={"holds_call": holds_call}
            )
        if calls is None:
            return SampleRecord(
                score=0.0,
                response=text,
                details={"error_type": "ast_decoder:decoder_failed", "error": decode_error},
            )
        decoded = ast_form(calls)
        if not self.bfcl.utils.is_function_calling_format_output(decoded):
            return SampleRecord(
                score=0.0,
                response=text,
                extracted=extracted,
                details={"error_type": "ast_decoder:decoder_wrong_output_format"},
            )
        language = self.bfcl.enums.Language(language_of(self.category))
        try:
            verdict = self.bfcl.ast_checker.ast_checker(
                entry.eval_functions, decoded, entry.ground_truth, language, self.category, CHECKER_MODEL_NAME
            )
        except Exception as error:  # noqa: BLE001 - bfcl's type converters raise on odd values: a wrong answer
            verdict = {
                "valid": False,
                "error_type": "ast_checker:error",
                "error": [f"{type(error).__name__}: {error}"],
            }
        details: dict[str, Any] = {}
        if not verdict["valid"]:
            details = {"error_type": verdict.get("error_type", ""), "error": _first(verdict.get("error"))}
        return SampleRecord(
            score=float(verdict["valid"]), response=text, extracted=extracted, details=details
        )


def _describe(call: Any) -> str:
    try:
        return render_call(call)
    except CallSyntaxError:
        return call.name


def _first(errors: Any) -> str:
    if isinstance(errors, list) and errors:
        return str(errors[0])
    return str(errors or "")
