"""BFCL-v4 through bfcl-eval: ground truth fed back as the model's answers scores 100%, corrupted answers 0.

The data and ground truth are the ``bfcl-eval`` wheel's own (every single-turn category in full, every
multi-turn entry in function-calling mode). A handful of bfcl entries cannot be answered correctly by any
model because their ground truth contradicts their own function docs; they are listed with the reason in
``UNWINNABLE`` and the tests check that exactly those fail.
"""

from __future__ import annotations

import asyncio
import keyword
import re
from typing import Any

import pytest

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (make setup installs it with --no-deps)")

from spade_eval.benchmark import BenchmarkDataError
from spade_eval.suites.bfcl import (
    BENCHMARKS,
    bfcl_overall,
    library,
    make_benchmarks,
)
from spade_eval.suites.bfcl.categories import MULTI_TURN, RELEVANCE, SINGLE_TURN, language_of
from spade_eval.suites.bfcl.fc_decoding import format_fc_reply
from spade_eval.suites.bfcl.multi_turn import MultiTurnBenchmark
from spade_eval.suites.bfcl.prompting import ToolSet, ast_form, decode_reply
from spade_eval.suites.bfcl.single_turn import SingleTurnBenchmark
from spade_eval.suites.tool_calls import (
    CallSyntaxError,
    ToolCall,
    format_python_calls,
    format_tagged_calls,
    parse_python_calls,
)
from spade_train.policies.base import Generation, GenerationRequest
from spade_train.policies.openai_compat import _parse_completion
from tests.corruption import corrupt_value

UNWINNABLE = {
    "simple_java_36": "ArrayList of `any` whose ground truth holds an int and a bool; the checker "
    "stringifies every element of such a list",
    "simple_java_65": "same as simple_java_36",
    "simple_java_64": "a HashMap value in the ground truth is a bare string, which the checker reads as a "
    "list of one-character allowed values",
    "live_simple_106-63-0": "the ground truth omits the required parameter auto_loan_payment_start",
    "live_simple_112-68-0": "required parameters whose allowed-value lists are empty",
    "live_multiple_507-149-4": "the required origin_airport may only be omitted",
    "live_multiple_862-181-3": "journey_start_time is not a parameter of Trains_1_FindTrains",
    "live_multiple_964-207-0": "the ground truth's parameter is question; the function's is statement",
}
OMIT = object()


# ---------------------------------------------------------------------- gold answers from ground truth
def _pick(allowed: list[Any]) -> Any:
    """The first allowed value ("" means the parameter may be omitted)."""
    for value in allowed:
        if value != "":
            return _plain(value)
    return OMIT


def _plain(value: Any) -> Any:
    if isinstance(value, dict):  # nested dicts hold allowed-value lists too
        picked = {key: _pick(item) if isinstance(item, list) else item for key, item in value.items()}
        return {key: item for key, item in picked.items() if item is not OMIT}
    if isinstance(value, list):
        return [_plain(item) if isinstance(item, dict) else item for item in value]
    return value


def _java_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else repr(value)


def _java_source(value: Any, spec: dict[str, Any]) -> str:
    """A value as Java source text, the form bfcl's Java type converter reads back."""
    if isinstance(value, str):
        return value
    kind, nested = spec.get("type"), (spec.get("items") or {}).get("type")
    if kind == "boolean":
        return "true" if value else "false"
    if kind in ("byte", "short", "integer"):
        return str(int(value))
    if kind == "long":
        return f"{int(value)}L"
    if kind == "float":
        return f"{float(value)!r}f"
    if kind == "double":
        return repr(float(value))
    if kind == "Array":
        parts = [_java_source(item, {"type": nested}) if nested else _java_scalar(item) for item in value]
        return "new Object[]{" + ", ".join(parts) + "}"
    if kind == "ArrayList":

        def element(item: Any) -> str:
            if nested == "String":
                return f'"{item}"'
            return _java_source(item, {"type": nested}) if nested else _java_scalar(item)

        return "new ArrayList<>(Arrays.asList(" + ", ".join(element(item) for item in value) + "))"
    if kind == "HashMap":
        puts = " ".join(f'put("{key}", {_java_scalar(item)});' for key, item in value.items())
        return "new HashMap<String, Object>() {{ " + puts + " }}"
    return str(value)


def _js_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_js_scalar(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_js_scalar(item)}" for key, item in value.items()) + "}"
    return repr(value)


def _js_source(value: Any, spec: dict[str, Any]) -> str:
    if isinstance(value, str):
        return value
    kind = spec.get("type")
    if kind == "Boolean":
        return "true" if value else "false"
    if kind == "integer":
        return str(int(value))
    if kind == "float":
        return repr(float(value))
    if kind == "Bigint":
        return f"{int(value)}n"
    return _js_scalar(value) if kind in ("array", "dict") else str(value)


def gold_calls(
    ground_truth: list[dict[str, Any]], docs: list[dict[str, Any]], language: str
) -> list[ToolCall]:
    calls = []
    for expected in ground_truth:
        ((name, params),) = expected.items()
        properties = next(doc for doc in docs if doc["name"] == name)["parameters"]["properties"]
        arguments = {}
        for param, allowed in params.items():
            value = _pick(allowed)
            if param not in properties or value is OMIT:
                continue
            if language == "java":
                value = _java_source(value, properties[param])
            elif language == "javascript":
                value = _js_source(value, properties[param])
            arguments[param] = value
        calls.append(ToolCall(name, arguments))
    return calls


def _reply(calls: list[ToolCall], mode: str, shown_to_real: dict[str, str]) -> str:
    if mode == "fc":
        shown = {real: offered for offered, real in shown_to_real.items()}
        return format_fc_reply([ToolCall(shown.get(call.name, call.name), call.arguments) for call in calls])
    return format_python_calls(calls)


def _uses_keyword_parameter(ground_truth: list[dict[str, Any]]) -> bool:
    return any(
        keyword.iskeyword(param) for call in ground_truth for params in call.values() for param in params
    )


# ---------------------------------------------------------------------- single-turn categories
@pytest.mark.parametrize("mode", ["fc", "prompt"])
def test_single_turn_gold_answers_score_full_marks(mode):
    failed: dict[str, str] = {}
    counts = {}
    for category in SINGLE_TURN:
        benchmark = SingleTurnBenchmark(category, mode)
        items = benchmark.load(None, None)
        counts[category] = len(items)
        for item in items:
            entry = item.payload
            if category in RELEVANCE:
                calls = (
                    [ToolCall(entry.toolset.docs[0]["name"], {})] if category == "live_relevance" else None
                )
                text = "I cannot help with that: no function fits." if calls is None else None
            else:
                if mode == "prompt" and _uses_keyword_parameter(entry.ground_truth):
                    continue  # `from=...` is not Python: unanswerable in prompting mode (also in bfcl)
                calls = gold_calls(entry.ground_truth, entry.eval_functions, language_of(category))
                text = None
            if text is None:
                text = _reply(calls, mode, dict(entry.toolset.shown_to_real))
            record = benchmark.score_reply(entry, text)
            if record.score != 1.0:
                failed[item.id] = str(record.details)
    assert set(failed) == set(UNWINNABLE), failed
    assert counts == {
        "simple_python": 400,
        "simple_java": 100,
        "simple_javascript": 50,
        "multiple": 200,
        "parallel": 200,
        "parallel_multiple": 200,
        "irrelevance": 240,
        "live_simple": 258,
        "live_multiple": 1053,
        "live_parallel": 16,
        "live_parallel_multiple": 24,
        "live_irrelevance": 884,
        "live_relevance": 16,
    }


def test_single_turn_corrupted_answers_score_zero():
    passed = []
    for category in SINGLE_TURN:
        benchmark = SingleTurnBenchmark(category, "fc")
        for item in benchmark.load(None, None):
            entry = item.payload
            if (
                category in RELEVANCE
            ):  # the opposite behaviour: a call where none fits, or none where one does
                name = entry.toolset.docs[0]["name"] if entry.toolset.docs else "lookup"
                text = (
                    "No function can do that."
                    if category == "live_relevance"
                    else _reply([ToolCall(name, {})], "fc", dict(entry.toolset.shown_to_real))
                )
            else:
                calls = gold_calls(entry.ground_truth, entry.eval_functions, language_of(category))
                first = calls[0]
                if first.arguments:
                    key = next(iter(first.arguments))
                    calls[0] = ToolCall(first.name, {**first.arguments, key: corrupt_value(first.arguments[key])})
                else:
                    calls[0] = ToolCall(first.name + "_unknown", {})
                text = _reply(calls, "fc", dict(entry.toolset.shown_to_real))
            if benchmark.score_reply(entry, text).score != 0.0:
                passed.append(item.id)
    assert passed == []


def test_prose_and_malformed_replies_fail_without_crashing():
    benchmark = SingleTurnBenchmark("simple_python", "prompt")
    entry = benchmark.load(None, 1)[0].payload
    for text in (
        "I think you should call the function.",
        "[calculate_triangle_area(base=10, height=__import__('os'))]",
        "[calculate_triangle_area(**{'base': 10})]",
        "[" * 5000,
        "",
    ):
        assert benchmark.score_reply(entry, text).score == 0.0


# ---------------------------------------------------------------------- multi-turn categories
def _keywordize(call: ToolCall, docs: list[dict[str, Any]]) -> ToolCall:
    """bfcl's ground truth writes some calls positionally (``sort('final_report.pdf')``)."""
    if not call.positional:
        return call
    names = list(next(doc for doc in docs if doc["name"] == call.name)["parameters"]["properties"])
    return ToolCall(call.name, {**dict(zip(names, call.positional)), **call.arguments})


def gold_policy(entry, mode: str, corrupt_turn: int | None = None):
    """Replies each turn's ground-truth calls in one step, then a plain sentence that ends the turn."""
    docs = entry.docs + [doc for held in entry.held_out.values() for doc in held]

    async def generate(request: GenerationRequest) -> Generation:
        turn, answered = -1, False
        for message in request.messages:
            if message["role"] != "user":
                continue
            result = message["content"].startswith(("<tool_response>", "[{'role': 'tool'"))
            turn, answered = (turn, True) if result else (turn + 1, False)
        calls = [
            _keywordize(call, docs) for text in entry.ground_truth[turn] for call in parse_python_calls(text)
        ]
        if answered or not calls or turn == corrupt_turn:
            return Generation(text="That is done.")
        if mode == "fc":
            return Generation(
                text=format_fc_reply([ToolCall(c.name.replace(".", "_"), c.arguments) for c in calls])
            )
        return Generation(text=format_python_calls(calls))

    return generate


def _run_multi_turn(category: str, mode: str, limit: int | None, corrupt: bool) -> tuple[int, float]:
    benchmark = MultiTurnBenchmark(category, mode)
    items = benchmark.load(None, limit)

    async def run() -> float:
        total = 0.0
        for item in items:
            answers = item.payload.ground_truth
            last = max(index for index, turn in enumerate(answers) if turn) if corrupt else None
            record = await benchmark.run_item(
                item, gold_policy(item.payload, mode, last), benchmark.sampling, 1
            )
            total += record.score
        return total

    return len(items), asyncio.run(run())


@pytest.mark.parametrize("category", MULTI_TURN)
def test_multi_turn_gold_answers_score_full_marks(category):
    count, score = _run_multi_turn(category, "fc", None, corrupt=False)
    assert (count, score) == (200, 200.0)
    count, score = _run_multi_turn(category, "prompt", 20, corrupt=False)
    assert (count, score) == (20, 20.0)


@pytest.mark.parametrize("category", MULTI_TURN)
def test_multi_turn_corrupted_last_turn_scores_zero(category):
    count, score = _run_multi_turn(category, "fc", 25, corrupt=True)
    assert (count, score) == (25, 0.0)


def test_model_text_never_reaches_eval_and_runs_leave_no_state():
    benchmark = MultiTurnBenchmark("multi_turn_base", "prompt")
    item = benchmark.load(None, 1)[0]
    hostile = [
        "[cd(folder=__import__('os').system('echo pwned'))]",
        "[exec(source='import os')]",
        "[globals()]",
        "[cd(folder='document'), open(file='/etc/passwd')]",
    ]
    calls_seen: list[str] = []
    real_executor = benchmark.bfcl.multi_turn_utils.execute_multi_turn_func_call

    def watching_executor(func_call_list, *args, **kwargs):
        calls_seen.extend(func_call_list)
        return real_executor(func_call_list, *args, **kwargs)

    replies = iter(hostile)

    async def generate(request: GenerationRequest) -> Generation:
        return Generation(text=next(replies, "Nothing more."))

    # Names another test left there (bfcl's own evaluation, run beside ours, keeps its instances) are not ours.
    before = set(vars(benchmark.bfcl.multi_turn_utils))
    benchmark.bfcl.multi_turn_utils.execute_multi_turn_func_call = watching_executor
    try:
        record = asyncio.run(benchmark.run_item(item, generate, benchmark.sampling, 1))
    finally:
        benchmark.bfcl.multi_turn_utils.execute_multi_turn_func_call = real_executor
    assert record.score == 0.0
    assert all(re.fullmatch(r"[a-z_]+\((\w+='[^']*'(, )?)*\)", call) for call in calls_seen), calls_seen
    assert "cd(folder='document')" in calls_seen and not any(
        "open" in call or "exec" in call for call in calls_seen
    )
    leftovers = [name for name in set(vars(benchmark.bfcl.multi_turn_utils)) - before if name.startswith("spade_")]
    assert leftovers == []


def test_concurrent_attempts_on_one_entry_do_not_share_state():
    """Two gold runs of the same entry at once both score 1: each has its own API instances."""
    benchmark = MultiTurnBenchmark("multi_turn_base", "fc")
    item = benchmark.load(None, 1)[0]

    async def both() -> list[float]:
        records = await asyncio.gather(
            *(
                benchmark.run_item(item, gold_policy(item.payload, "fc"), benchmark.sampling, 2)
                for _ in range(2)
            )
        )
        return [sample.score for record in records for sample in record.samples]

    assert asyncio.run(both()) == [1.0, 1.0, 1.0, 1.0]


# ---------------------------------------------------------------------- registry, aggregation, failures
def test_benchmarks_cover_every_category_in_both_modes():
    expected = {f"bfcl_{category}" for category in (*MULTI_TURN, *SINGLE_TURN)}
    assert set(BENCHMARKS) == expected and set(make_benchmarks("prompt")) == expected


def test_overall_follows_the_leaderboard_formula():
    scores = {f"bfcl_{category}": 0.5 for category in (*MULTI_TURN, *SINGLE_TURN)}
    scores.update(bfcl_multi_turn_base=1.0, bfcl_simple_java=0.8, bfcl_live_simple=1.0, bfcl_irrelevance=0.9)
    counts = {"live_simple": 300, "live_multiple": 100, "live_parallel": 50, "live_parallel_multiple": 50}
    summary = bfcl_overall(scores, counts)
    assert summary["non_live"] == pytest.approx(((0.5 + 0.8 + 0.5) / 3 + 0.5 * 3) / 4)
    assert summary["live"] == pytest.approx((300 * 1.0 + 200 * 0.5) / 500)
    assert summary["irrelevance"] == pytest.approx(0.7)
    assert summary["multi_turn"] == pytest.approx(0.625)
    weighted = 10 * summary["non_live"] + 10 * summary["live"] + 10 * 0.7 + 30 * 0.625
    assert summary["overall_leaderboard"] == pytest.approx(weighted / 100)
    assert summary["overall_offline"] == pytest.approx(weighted / 60)
    assert bfcl_overall({"multi_turn_base": 1.0}, {}) == {}


def test_missing_package_is_one_clear_error(monkeypatch):
    real_import = library.importlib.import_module

    def no_bfcl(name: str, *args: Any):
        if name.startswith("bfcl_eval"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args)

    monkeypatch.setattr(library.importlib, "import_module", no_bfcl)
    with pytest.raises(BenchmarkDataError, match="pip install --no-deps bfcl-eval==2026.3.23"):
        SingleTurnBenchmark("simple_python").load(None, 1)


def test_the_call_format_is_chosen_by_the_run_options(tmp_path, capsys):
    """Prompting mode is reachable from the command line and recorded in the results."""
    from spade_eval.benchmark import EvalOptions
    from spade_eval.cli import main
    from spade_eval.results import EvalResults

    assert BENCHMARKS["bfcl_multi_turn_base"](EvalOptions()).mode == "fc"
    assert BENCHMARKS["bfcl_simple_python"](EvalOptions(tool_call_format="prompt")).mode == "prompt"
    out = tmp_path / "prompt"
    code = main(["run", "--model", "scripted", "--suite", "tool_use", "--benchmarks", "bfcl_simple_python",
                 "--limit", "1", "--tool-call-format", "prompt", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    assert EvalResults.read(out / "results.json").settings.tool_call_format == "prompt"


# ---------------------------------------------------------------------- item by item, against bfcl-eval's own evaluation
_STAND_INS = {
    "tree_sitter": {"Language": lambda *args, **kwargs: None, "Parser": type("Parser", (), {"set_language": lambda *a: None})},
    "tree_sitter_java": {"language": lambda: None},
    "tree_sitter_javascript": {"language": lambda: None},
    "tenacity": {
        "retry": lambda *args, **kwargs: (lambda function: function),
        **{name: lambda *args, **kwargs: None for name in (
            "retry_if_exception_message", "retry_if_exception_type", "wait_random_exponential", "stop_after_attempt"
        )},
    },
    "overrides": {
        "final": lambda function: function,
        "override": lambda function: function,
        "EnforceOverrides": type("EnforceOverrides", (), {}),
    },
}
"""Modules bfcl-eval's evaluation runner and model handlers import that the --no-deps install lacks:
tree-sitter (it parses Java and JavaScript replies), tenacity and overrides (decorators and a base class
of its handlers). Decoding Python replies uses none of them; a stand-in is put in place only where the
real module is missing."""


@pytest.fixture(scope="module")
def bfcl_own():
    """bfcl-eval's own per-entry evaluation (``eval_runner``), the decoders of its prompting handlers and
    its ``QwenFCHandler`` (the reference of ``fc`` mode), as bfcl builds it for Qwen3-8B-FC."""
    import importlib
    import sys
    import types

    with pytest.MonkeyPatch.context() as patch:
        for name, attributes in _STAND_INS.items():
            try:
                importlib.import_module(name)
            except ImportError:
                module = types.ModuleType(name)
                module.__dict__.update(attributes)
                patch.setitem(sys.modules, name, module)
        library.load_bfcl()
        runner = importlib.import_module("bfcl_eval.eval_checker.eval_runner")
        decoders = importlib.import_module("bfcl_eval.model_handler.utils")
        qwen_fc = importlib.import_module("bfcl_eval.model_handler.local_inference.qwen_fc")
    handler = types.SimpleNamespace(
        decode_ast=decoders.default_decode_ast_prompting, decode_execute=decoders.default_decode_execute_prompting
    )
    return types.SimpleNamespace(
        runner=runner,
        handler=handler,
        enums=library.load_bfcl().enums,
        fc_handler=qwen_fc.QwenFCHandler("Qwen/Qwen3-8B", 0.001, "Qwen/Qwen3-8B-FC", True),
        to_call_strings=decoders.convert_to_function_call,
    )


def _single_turn_replies(category: str, entry: Any) -> list[str]:
    """A gold reply, a corrupted one, and forms a decoder may read differently."""
    if category in RELEVANCE:
        name = entry.toolset.docs[0]["name"] if entry.toolset.docs else "lookup"
        return ["I cannot help with that: no function fits.", f"[{name}()]", "[]", "```\n[" + name + "()]\n```"]
    calls = gold_calls(entry.ground_truth, entry.eval_functions, "python")
    gold = format_python_calls(calls)
    first = calls[0]
    if first.arguments:
        key = next(iter(first.arguments))
        wrong = [ToolCall(first.name, {**first.arguments, key: corrupt_value(first.arguments[key])}), *calls[1:]]
        positional = [ToolCall(first.name, {k: v for k, v in first.arguments.items() if k != key},
                               (first.arguments[key],)), *calls[1:]]
    else:
        wrong, positional = [ToolCall(first.name + "_unknown", {}), *calls[1:]], calls
    return [
        gold,
        format_python_calls(wrong),
        format_python_calls(positional),
        f"```\n{gold}\n```",
        gold[1:-1],
        f"{gold} Let me know if you need anything else.",
        "I would call the function.",
        "[]",
    ]


def test_single_turn_verdicts_equal_bfcl_eval_own_evaluation(bfcl_own):
    """Every 25th entry of every Python single-turn category, eight replies each (gold, corrupted,
    positional, fenced, unbracketed, with prose, prose alone, an empty list), scored in prompting mode by
    this suite and by bfcl-eval's ``_evaluate_single_ast_entry`` / ``_evaluate_single_relevance_entry``
    with its prompting decoder: the verdicts agree one by one. (Java and JavaScript replies are decoded
    by tree-sitter in bfcl, which the --no-deps install lacks: those categories are not compared.)"""
    enums, compared, differ = bfcl_own.enums, 0, []
    for category in [category for category in SINGLE_TURN if language_of(category) == "python"]:
        benchmark = SingleTurnBenchmark(category, "prompt")
        for item in benchmark.load(None, None)[::25]:
            entry = item.payload
            if category not in RELEVANCE and _uses_keyword_parameter(entry.ground_truth):
                continue
            prompt_entry = {"id": item.id, "function": entry.eval_functions}
            for text in _single_turn_replies(category, entry):
                ours = benchmark.score_reply(entry, text).score == 1.0
                if category in RELEVANCE:
                    theirs = bfcl_own.runner._evaluate_single_relevance_entry(
                        bfcl_own.handler, item.id, text, prompt_entry, library.CHECKER_MODEL_NAME, category
                    )["valid"]
                else:
                    theirs = bfcl_own.runner._evaluate_single_ast_entry(
                        bfcl_own.handler, item.id, text, entry.ground_truth, prompt_entry,
                        library.CHECKER_MODEL_NAME, category, enums.Language.PYTHON, enums.ReturnFormat.PYTHON,
                    )["valid"]
                compared += 1
                if ours != theirs:
                    differ.append((item.id, text, ours, theirs))
    assert compared == 956 and differ == []


def _recording_policy(entry: Any, replies: list[list[str]], corrupt_turn: int | None) -> Any:
    """``gold_policy``, recording each reply under its turn (bfcl's model_result shape)."""
    inner = gold_policy(entry, "prompt", corrupt_turn)

    async def generate(request: GenerationRequest) -> Generation:
        turn = sum(
            message["role"] == "user" and not message["content"].startswith("[{'role': 'tool'")
            for message in request.messages
        )
        generation = await inner(request)
        while len(replies) < turn:
            replies.append([])
        replies[turn - 1].append(generation.text)
        return generation

    return generate


@pytest.mark.parametrize("category", MULTI_TURN)
def test_multi_turn_verdicts_equal_bfcl_eval_own_evaluation(bfcl_own, category):
    """Eight entries per category, gold and with the last answered turn left unanswered, in prompting mode:
    our loop's verdict equals bfcl-eval's ``_evaluate_single_multi_turn_entry`` on the replies the model
    gave, decoded by its prompting decoder and checked by its ``multi_turn_checker``."""
    benchmark = MultiTurnBenchmark(category, "prompt")
    verdicts = []
    for item in benchmark.load(None, 8):
        answers = item.payload.ground_truth
        for corrupt in (None, max(index for index, turn in enumerate(answers) if turn)):
            replies: list[list[str]] = []
            record = asyncio.run(
                benchmark.run_item(item, _recording_policy(item.payload, replies, corrupt), benchmark.sampling, 1)
            )
            test_entry = {
                "id": item.id,
                "initial_config": item.payload.initial_config,
                "involved_classes": item.payload.involved_classes,
            }
            theirs = bfcl_own.runner._evaluate_single_multi_turn_entry(
                bfcl_own.handler, item.id, replies, answers, dict(test_entry), f"spade_own_{item.id}", category
            )["valid"]
            verdicts.append((item.id, corrupt is None, record.score == 1.0, theirs))
    assert [v for v in verdicts if v[2] != v[3]] == []
    assert [v[2] for v in verdicts] == [True, False] * 8


# ---------------------------------------------------------------------- fc replies, against bfcl-eval's QwenFCHandler
_CALL_F = '{"name": "f", "arguments": {"a": 1}}'
_CALL_G = '{"name": "g", "arguments": {"b": "x"}}'
FC_REPLIES: dict[str, str] = {
    # the three forms an independent check found this suite took and bfcl-eval does not
    "one_line_block": f"<tool_call>{_CALL_F}</tool_call>",
    "arguments_as_json_string": '<tool_call>\n{"name": "f", "arguments": "{\\"a\\": 1}"}\n</tool_call>',
    "parameters_key": '<tool_call>\n{"name": "f", "parameters": {"a": 1}}\n</tool_call>',
    # the form the handler reads, and its neighbours
    "one_block": f"<tool_call>\n{_CALL_F}\n</tool_call>",
    "two_blocks": f"<tool_call>\n{_CALL_F}\n</tool_call>\n<tool_call>\n{_CALL_G}\n</tool_call>",
    "two_blocks_adjacent": f"<tool_call>\n{_CALL_F}\n</tool_call><tool_call>\n{_CALL_G}\n</tool_call>",
    "one_line_block_then_block": f"<tool_call>{_CALL_F}</tool_call>\n<tool_call>\n{_CALL_G}\n</tool_call>",
    "surrounding_text": f"Sure, let me look.\n<tool_call>\n{_CALL_F}\n</tool_call>\nThat should do it.",
    "reasoning_first": f"<think>\nThe user wants f.\n</think>\n\n<tool_call>\n{_CALL_F}\n</tool_call>",
    "call_inside_reasoning": f"<think>\n<tool_call>\n{_CALL_F}\n</tool_call>\n</think>\n\nNo call needed.",
    "two_reasoning_ends": f"<think>a</think>\n<tool_call>\n{_CALL_F}\n</tool_call>\n</think>\nDone.",
    "reasoning_never_closed": f"<think>\nMaybe <tool_call>\n{_CALL_F}\n</tool_call>",
    "blank_lines_inside": f"<tool_call>\n\n  {_CALL_F}  \n\n</tool_call>",
    "space_before_newline": f"<tool_call> \n{_CALL_F}\n</tool_call>",
    "crlf_newlines": f"<tool_call>\r\n{_CALL_F}\r\n</tool_call>",
    "newline_after_opening_only": f"<tool_call>\n{_CALL_F}</tool_call>",
    "json_on_several_lines": '<tool_call>\n{\n  "name": "f",\n  "arguments": {\n    "a": 1\n  }\n}\n'
    "</tool_call>",
    "nested_arguments": '<tool_call>\n{"name": "f", "arguments": {"a": {"b": [1, {"c": null}]}, '
    '"d": "line\\nbreak", "e": [true, 2.5]}}\n</tool_call>',
    "empty_arguments": '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
    "malformed_block": '<tool_call>\n{"name": "f", "arguments": {"a": 1}\n</tool_call>',
    "malformed_block_then_block": '<tool_call>\n{"name": "f"\n</tool_call>\n'
    f"<tool_call>\n{_CALL_G}\n</tool_call>",
    "malformed_block_swallows_next": f"<tool_call>\n{{bad}}</tool_call>\n<tool_call>\n{_CALL_G}\n"
    "</tool_call>",
    "block_not_an_object": "<tool_call>\n[1, 2]\n</tool_call>",
    "object_then_non_object": f'<tool_call>\n{_CALL_F}\n</tool_call>\n<tool_call>\n"f"\n</tool_call>',
    "arguments_missing": '<tool_call>\n{"name": "f"}\n</tool_call>',
    "arguments_null": '<tool_call>\n{"name": "f", "arguments": null}\n</tool_call>',
    "arguments_a_list": '<tool_call>\n{"name": "f", "arguments": [1]}\n</tool_call>',
    "arguments_string_not_json": '<tool_call>\n{"name": "f", "arguments": "a=1"}\n</tool_call>',
    "arguments_string_of_a_list": '<tool_call>\n{"name": "f", "arguments": "[1]"}\n</tool_call>',
    "name_missing": '<tool_call>\n{"arguments": {"a": 1}}\n</tool_call>',
    "name_a_number": '<tool_call>\n{"name": 5, "arguments": {"a": 1}}\n</tool_call>',
    "name_a_list": '<tool_call>\n{"name": ["f"], "arguments": {"a": 1}}\n</tool_call>',
    "unclosed_block": f"<tool_call>\n{_CALL_F}\n",
    "prose_only": "I cannot help with that.",
    "empty": "",
}
"""Replies of every shape a decoder might read differently; ``QwenFCHandler`` decides what each one holds."""

_NO_RENAMING = ToolSet(docs=(), tools=(), shown_to_real={})


def _bfcl_fc_response(bfcl_own: Any, completion: str) -> str:
    """The response ``QwenFCHandler`` keeps from a raw completion (what its evaluation decodes)."""
    import types

    reply = types.SimpleNamespace(
        choices=[types.SimpleNamespace(text=completion)],
        usage=types.SimpleNamespace(prompt_tokens=0, completion_tokens=0),
    )
    return bfcl_own.fc_handler._parse_query_response_prompting(reply)["model_responses"]


def _bfcl_fc_decode(bfcl_own: Any, completion: str, execute: bool) -> Any:
    """What bfcl-eval makes of a raw completion: the kept response decoded with ``decode_ast``
    (single-turn) or ``decode_execute`` (multi-turn). None when that raises."""
    handler, response = bfcl_own.fc_handler, _bfcl_fc_response(bfcl_own, completion)
    try:
        if execute:
            return handler.decode_execute(response, has_tool_call_tag=False)
        return handler.decode_ast(response, bfcl_own.enums.ReturnFormat.PYTHON, has_tool_call_tag=False)
    except Exception:  # noqa: BLE001 - any exception is bfcl's "failed to decode"
        return None


def _our_fc_decode(completion: str, execute: bool) -> list[ToolCall] | None:
    try:
        return decode_reply(completion, "fc", _NO_RENAMING, for_execution=execute)
    except CallSyntaxError:
        return None


@pytest.mark.parametrize("name", FC_REPLIES)
def test_fc_single_turn_decoding_equals_bfcl_eval_qwen_fc_handler(bfcl_own, name):
    """``decode_ast``: the same calls (name, then arguments), or a decode failure where bfcl's fails.
    (bfcl keeps a numeric name as a number; ours is its text, compared as such.)"""
    theirs = _bfcl_fc_decode(bfcl_own, FC_REPLIES[name], execute=False)
    ours = _our_fc_decode(FC_REPLIES[name], execute=False)
    if theirs is None:
        assert ours is None
    else:
        assert ours is not None
        assert ast_form(ours) == [{str(key): value for key, value in call.items()} for call in theirs]


@pytest.mark.parametrize("name", FC_REPLIES)
def test_fc_multi_turn_decoding_equals_bfcl_eval_qwen_fc_handler(bfcl_own, name):
    """``decode_execute``: the same call strings, written by bfcl's own ``convert_to_function_call``, or a
    decode failure where bfcl's fails (a JSON-encoded arguments string is decoded here, as bfcl does)."""
    theirs = _bfcl_fc_decode(bfcl_own, FC_REPLIES[name], execute=True)
    ours = _our_fc_decode(FC_REPLIES[name], execute=True)
    if theirs is None:
        assert ours is None
    else:
        assert ours is not None
        assert bfcl_own.to_call_strings([{call.name: call.arguments} for call in ours]) == theirs


def test_fc_the_three_lenient_forms_are_rejected_as_bfcl_eval_rejects_them(bfcl_own):
    """One line: no block, hence no call. Arguments as a JSON string, or under "parameters": the reply is
    undecodable (single-turn); the string is decoded for execution, as bfcl's ``decode_execute`` does."""
    one_line, as_string, parameters = (
        FC_REPLIES[name] for name in ("one_line_block", "arguments_as_json_string", "parameters_key")
    )
    assert _bfcl_fc_decode(bfcl_own, one_line, execute=False) == _our_fc_decode(one_line, execute=False) == []
    for text, execute in ((as_string, False), (parameters, False), (parameters, True)):
        assert _bfcl_fc_decode(bfcl_own, text, execute) is _our_fc_decode(text, execute) is None
    assert _bfcl_fc_decode(bfcl_own, as_string, execute=True) == ["f(a=1)"]
    assert _our_fc_decode(as_string, execute=True) == [ToolCall("f", {"a": 1})]


def test_fc_tool_calls_a_server_parsed_decode_as_bfcl_eval_decodes_them(bfcl_own):
    """``OpenAICompatiblePolicy`` writes a server's parsed tool calls into the reply text; bfcl's handler
    reads that text to the same calls, and so does this suite."""
    message = {
        "content": "Let me look.",
        "tool_calls": [
            {"type": "function", "function": {"name": "math_factorial", "arguments": '{"n": 5}'}},
            {"type": "function", "function": {"name": "lookup", "arguments": '{"q": {"k": [1, "two"]}}'}},
        ],
    }
    text = _parse_completion({"choices": [{"message": message, "finish_reason": "tool_calls"}]}).text
    expected = [{"math_factorial": {"n": 5}}, {"lookup": {"q": {"k": [1, "two"]}}}]
    assert _bfcl_fc_decode(bfcl_own, text, execute=False) == expected
    assert ast_form(_our_fc_decode(text, execute=False) or []) == expected
    toolset = ToolSet(docs=(), tools=(), shown_to_real={"math_factorial": "math.factorial"})
    assert decode_reply(text, "fc", toolset) == [
        ToolCall("math.factorial", {"n": 5}),
        ToolCall("lookup", {"q": {"k": [1, "two"]}}),
    ]


def test_single_turn_fc_verdicts_equal_bfcl_eval_own_evaluation(bfcl_own):
    """Every 25th entry of every Python single-turn category, replies in function-calling form (gold in the
    form the handler reads, on one line, with reasoning and prose around it, with arguments as a JSON
    string or under "parameters", corrupted, none): scored in ``fc`` mode by this suite and by bfcl-eval's
    ``_evaluate_single_ast_entry`` / ``_evaluate_single_relevance_entry`` with ``QwenFCHandler`` on the
    response that handler keeps, the verdicts agree one by one. Replies name functions as bfcl does."""
    import json

    enums, compared, differ = bfcl_own.enums, 0, []
    for category in [category for category in SINGLE_TURN if language_of(category) == "python"]:
        benchmark = SingleTurnBenchmark(category, "fc")
        for item in benchmark.load(None, None)[::25]:
            entry = item.payload
            if category in RELEVANCE:
                name = entry.toolset.docs[0]["name"] if entry.toolset.docs else "lookup"
                calls, wrong = [ToolCall(name, {})], []
            else:
                calls = gold_calls(entry.ground_truth, entry.eval_functions, "python")
                first = calls[0]
                key = next(iter(first.arguments), None)
                changed = {**first.arguments, key: corrupt_value(first.arguments[key])} if key else {}
                wrong = [ToolCall(first.name if key else first.name + "_unknown", changed), *calls[1:]]
            gold = format_fc_reply(calls)
            as_string = "\n".join(
                "<tool_call>\n" + json.dumps({"name": c.name, "arguments": json.dumps(c.arguments)})
                + "\n</tool_call>"
                for c in calls
            )
            replies = [
                gold,
                format_tagged_calls(calls),
                f"<think>\nLet me pick the function.\n</think>\n\n{gold}",
                f"Here you go:\n{gold}\nAnything else?",
                as_string,
                gold.replace('"arguments"', '"parameters"'),
                format_fc_reply(wrong),
                "I cannot help with that: no function fits.",
            ]
            prompt_entry = {"id": item.id, "function": entry.eval_functions}
            for text in replies:
                ours = benchmark.score_reply(entry, text).score == 1.0
                response, handler = _bfcl_fc_response(bfcl_own, text), bfcl_own.fc_handler
                if category in RELEVANCE:
                    theirs = bfcl_own.runner._evaluate_single_relevance_entry(
                        handler, item.id, response, prompt_entry, library.CHECKER_MODEL_NAME, category
                    )["valid"]
                else:
                    theirs = bfcl_own.runner._evaluate_single_ast_entry(
                        handler, item.id, response, entry.ground_truth, prompt_entry,
                        library.CHECKER_MODEL_NAME, category, enums.Language.PYTHON,
                        enums.ReturnFormat.PYTHON,
                    )["valid"]
                compared += 1
                if ours != theirs:
                    differ.append((item.id, text, ours, theirs))
    assert compared == 1144 and differ == []
