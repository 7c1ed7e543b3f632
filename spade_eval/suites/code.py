"""Code benchmarks: HumanEval+ and MBPP+ with their plus tests, and LiveCodeBench v6 from a user file.

Every program, the reference solutions included, runs in the WebAssembly sandbox (``code_exec``).

HumanEval+ / MBPP+ (evalplus releases under ``DATA_DIR/code``): the expected outputs are what the
reference solution returns on the base and plus inputs, computed in the sandbox once per problem; a
sample passes when the model's function returns the same on every input (floats within the task's
``atol``, or 1e-6). MBPP+ inputs are stored as JSON lists; where a task's input contract requires
tuples (``isinstance(arg, tuple)``), the argument is passed as a tuple, as evalplus does.

LiveCodeBench v6 (``DATA_DIR/code/livecodebench/test6.jsonl``, the release's own file): stdin/stdout
problems run as scripts, LeetCode-style problems call ``Solution().<func_name>``; private tests in the
release's compressed form are decoded with an unpickler that admits plain values only. Paper setting:
pass@1 at T=0.2.

Each program gets 180 s for all of its tests by default: the sandboxed interpreter is several times
slower than native CPython, and a few MBPP+ reference solutions (Mbpp/255, Mbpp/599) need over a minute
there on a busy 2-core machine.
"""

from __future__ import annotations

import ast
import asyncio
import base64
import io
import json
import pickle
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spade_eval.benchmark import (
    BenchmarkDataError,
    BenchmarkFactory,
    EvalItem,
    Generate,
    ItemRecord,
    SampleRecord,
)
from spade_eval.suites.code_exec import ProgramRunner, RunOutcome, decode_output, outputs_match, stdout_match
from spade_eval.suites.common import data_file, read_jsonl, sample
from spade_train.policies.base import Generation, SamplingParams

HUMANEVAL_PLUS = "code/he_HumanEvalPlus.jsonl.gz"
MBPP_PLUS = "code/mbpp_MbppPlus.jsonl.gz"
LIVECODEBENCH = "code/livecodebench/test6.jsonl"
EVALPLUS_HOW = "use the evalplus release file (HumanEvalPlus / MbppPlus .jsonl.gz)"
LCB_HOW = (
    "LiveCodeBench is user-supplied: put test6.jsonl of the code_generation_lite release (release_v6) there"
)
_CODE_BLOCK = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
# ``from typing import *`` needs contextlib, which the sandbox lacks: the names LeetCode starters use.
LCB_PREAMBLE = (
    "from typing import Any, Callable, Deque, DefaultDict, Dict, Iterable, Iterator, List, Optional, "
    "Set, Tuple, Union\nimport collections, heapq, itertools, math, bisect, functools, string, re\n"
    "from collections import *\nfrom functools import *\nfrom itertools import *\n"
    "from heapq import *\nfrom bisect import *\n"
)


def extract_code(response: str) -> str:
    """The last fenced code block (an unterminated final block counts); the whole reply when there is none."""
    blocks = _CODE_BLOCK.findall(response)
    if blocks:
        return blocks[-1]
    opened = re.search(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*)$", response, re.DOTALL | re.IGNORECASE)
    return opened.group(1) if opened else response


def defines(code: str, name: str) -> bool:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name
        for node in ast.walk(tree)
    )


# ---------------------------------------------------------------------- HumanEval+ and MBPP+
class _SandboxedPrograms:
    """The sandbox runner a code benchmark executes programs with, made on first use (listing
    benchmarks starts no sandbox). Subclasses set ``sandbox``, ``timeout_s`` and ``_runner = None``."""

    sandbox: str
    timeout_s: float
    _runner: ProgramRunner | None

    @property
    def runner(self) -> ProgramRunner:
        if self._runner is None:
            self._runner = ProgramRunner(self.sandbox, timeout_s=self.timeout_s)
        return self._runner


@dataclass
class EvalPlusBenchmark(_SandboxedPrograms):
    """HumanEval+ (``flavour="humaneval"``) or MBPP+ (``flavour="mbpp"``)."""

    flavour: str
    sandbox: str = "wasm"
    timeout_s: float = 180.0
    suite: str = "reasoning"
    samples: int = 1
    sampling: SamplingParams = field(
        default_factory=lambda: SamplingParams(temperature=0.2, top_p=0.95, max_tokens=4096)
    )
    metric: str = "pass@1"

    def __post_init__(self) -> None:
        self.name = "humaneval_plus" if self.flavour == "humaneval" else "mbpp_plus"
        self._runner: ProgramRunner | None = None
        self._expected: dict[str, asyncio.Future[RunOutcome]] = {}

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        relative = HUMANEVAL_PLUS if self.flavour == "humaneval" else MBPP_PLUS
        path = data_file(data_dir, relative, self.name, EVALPLUS_HOW)
        rows = read_jsonl(path, self.name)
        items = []
        for row in rows if limit is None else rows[:limit]:
            try:
                inputs = _json_field(row["base_input"]) + _json_field(row["plus_input"])
                payload = {
                    "task_id": str(row["task_id"]),
                    "prompt": str(row["prompt"]),
                    "entry_point": str(row["entry_point"]),
                    "canonical": str(row["canonical_solution"]),
                    "atol": float(row.get("atol") or 0),
                    "contract": str(row.get("contract") or ""),
                }
            except (KeyError, ValueError, TypeError) as error:
                raise BenchmarkDataError(
                    f"{self.name}: {path}: a row lacks an evalplus field ({error})"
                ) from None
            payload["inputs"] = _typed_inputs(
                inputs, payload["canonical"], payload["entry_point"], payload["contract"]
            )
            items.append(EvalItem(id=payload["task_id"], payload=payload))
        return items

    def prompt(self, payload: dict[str, Any]) -> str:
        if self.flavour == "humaneval":
            return (
                "Complete the following Python function. Reply with the complete function (and the "
                f"imports it needs) in one ```python code block.\n\n```python\n{payload['prompt']}```"
            )
        task = payload["prompt"].strip().strip('"').strip()
        return (
            f"{task}\n\nWrite the Python function `{payload['entry_point']}` that solves this. Reply with "
            "the code in one ```python code block."
        )

    def program(self, payload: dict[str, Any], response: str) -> str:
        """What runs: the prompt's preamble (imports, helper functions) and the model's code."""
        code = extract_code(response)
        if self.flavour != "humaneval":
            return code
        prompt = payload["prompt"]
        if defines(code, payload["entry_point"]):
            cut = prompt.find(f"def {payload['entry_point']}(")
            return (prompt[:cut] if cut >= 0 else "") + "\n" + code
        return prompt + code  # the model continued the function body

    def reference_program(self, payload: dict[str, Any]) -> str:
        prefix = payload["prompt"] if self.flavour == "humaneval" else ""
        return prefix + payload["canonical"]

    async def expected(self, payload: dict[str, Any]) -> RunOutcome:
        """The reference solution's outputs, computed once per problem (concurrent samples share it)."""
        task_id = payload["task_id"]
        if task_id not in self._expected:
            self._expected[task_id] = asyncio.ensure_future(
                asyncio.to_thread(
                    self.runner.run_calls,
                    self.reference_program(payload),
                    payload["entry_point"],
                    payload["inputs"],
                )
            )
        return await asyncio.shield(self._expected[task_id])

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        payload = item.payload
        messages = [{"role": "user", "content": self.prompt(payload)}]
        generations = await sample(generate, messages, sampling, samples)
        reference = await self.expected(payload)
        if (
            reference.error
            or len(reference.results) != len(payload["inputs"])
            or any("error" in r for r in reference.results)
        ):
            failure = reference.error or "the reference solution failed on an input"
            return ItemRecord(
                id=item.id,
                gold=None,
                samples=[
                    SampleRecord(score=0.0, response=g.text, details={"error": f"reference: {failure}"})
                    for g in generations
                ],
            )
        records = await asyncio.gather(*(self._score(payload, g, reference) for g in generations))
        return ItemRecord(id=item.id, samples=list(records), gold=payload["canonical"])

    async def _score(
        self, payload: dict[str, Any], generation: Generation, reference: RunOutcome
    ) -> SampleRecord:
        if not generation.ok:
            return SampleRecord(score=0.0, details={"error": generation.error})
        program = self.program(payload, generation.text)
        outcome = await asyncio.to_thread(
            self.runner.run_calls, program, payload["entry_point"], payload["inputs"]
        )
        passed, detail = compare_calls(reference, outcome, payload["atol"])
        return SampleRecord(
            score=float(passed),
            response=generation.text,
            extracted=program,
            details={"tests": len(payload["inputs"]), **detail},
        )

    def close(self) -> None:
        self._runner = None
        self._expected.clear()


def compare_calls(reference: RunOutcome, outcome: RunOutcome, atol: float) -> tuple[bool, dict[str, Any]]:
    """Whether every output matches the reference; on failure, which test and why."""
    if outcome.error:
        return False, {"error": outcome.error}
    for index, want in enumerate(reference.results):
        if index >= len(outcome.results):
            return False, {"failed_test": index, "error": "stopped before this test"}
        got = outcome.results[index]
        if "error" in got:
            return False, {"failed_test": index, "error": str(got["error"])[:300]}
        if not outputs_match(decode_output(want["ok"]), decode_output(got["ok"]), atol):
            return False, {"failed_test": index, "error": "wrong output"}
    return True, {}


def _json_field(value: Any) -> list[Any]:
    parsed = json.loads(value) if isinstance(value, str) else value
    if parsed == {}:  # one MBPP+ task (Mbpp/793) stores "no plus inputs" as an empty object
        return []
    if not isinstance(parsed, list):
        raise TypeError("inputs are not a list")
    return parsed


_TUPLE_ARG = re.compile(r"isinstance\(\s*(\w+)\s*,\s*tuple\s*\)")
_TUPLE_ITEMS = re.compile(r"all\(\s*isinstance\(\s*(\w+)\s*,\s*tuple\s*\)\s*for\s+(\w+)\s+in\s+(\w+)\s*\)")


def _typed_inputs(inputs: list[Any], canonical: str, entry_point: str, contract: str) -> list[list[Any]]:
    """Arguments as the task's input contract types them, since JSON has no tuples or complex numbers.

    evalplus stores MBPP+ inputs as JSON; the contract (``isinstance(arg, tuple)``, ``all(isinstance(x,
    tuple) for x in arg)``, a recursive tuple check, a ``complex`` argument) says what the reference
    solution was written for, and the arguments are tagged so the sandbox rebuilds those types.
    """
    params = _parameters(canonical, entry_point)
    item_tuples = {
        container for var, loop_var, container in _TUPLE_ITEMS.findall(contract) if var == loop_var
    }
    whole = set(_TUPLE_ARG.findall(contract)) - {var for var, _, _ in _TUPLE_ITEMS.findall(contract)}
    recursive = "def " in contract and "tuple" in contract  # a helper that checks tuples all the way down
    numbers_from_text = "complex" in contract
    if not (whole or item_tuples or numbers_from_text) or not params:
        return [list(args) for args in inputs]
    typed = []
    for args in inputs:
        converted = []
        for position, value in enumerate(args):
            name = params[position] if position < len(params) else None
            if numbers_from_text and isinstance(value, str):
                value = _number(value)
            if name in item_tuples and isinstance(value, list):
                value = [{"__tuple__": v} if isinstance(v, list) else v for v in value]
            if name in whole and isinstance(value, list):
                value = _tuple_tree(value) if recursive else {"__tuple__": value}
            converted.append(value)
        typed.append(converted)
    return typed


def _tuple_tree(value: Any) -> Any:
    return {"__tuple__": [_tuple_tree(v) for v in value]} if isinstance(value, list) else value


def _number(text: str) -> Any:
    """'3' -> 3, '0.5' -> 0.5, '(1-2j)' -> a tagged complex; other text stays text."""
    try:
        if "j" in text:
            number = complex(text)
            return {"__complex__": [number.real, number.imag]}
        return int(text) if text.strip().lstrip("-").isdigit() else float(text)
    except ValueError:
        return text


def _parameters(source: str, name: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return [arg.arg for arg in node.args.args]
    return []


# ---------------------------------------------------------------------- LiveCodeBench
class _PlainUnpickler(pickle.Unpickler):
    """Admits plain values only: a pickle that names any class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a test-case file")


def decode_test_cases(value: Any) -> list[dict[str, Any]]:
    """LiveCodeBench test cases: a JSON list, or base64(zlib(pickle(JSON text))) as the release stores
    private tests."""
    if isinstance(value, list):
        return value
    text = str(value)
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        raw = zlib.decompress(base64.b64decode(text))
        parsed = json.loads(_PlainUnpickler(io.BytesIO(raw)).load())
    if not isinstance(parsed, list):
        raise TypeError("test cases are not a list")
    return parsed


@dataclass
class LiveCodeBench(_SandboxedPrograms):
    sandbox: str = "wasm"
    timeout_s: float = 180.0
    name: str = "livecodebench_v6"
    suite: str = "reasoning"
    user_supplied_data: bool = True
    samples: int = 1
    sampling: SamplingParams = field(
        default_factory=lambda: SamplingParams(temperature=0.2, top_p=0.95, max_tokens=32768)
    )
    metric: str = "pass@1"

    def __post_init__(self) -> None:
        self._runner: ProgramRunner | None = None

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        path = data_file(data_dir, LIVECODEBENCH, self.name, LCB_HOW)
        items = []
        for row in read_jsonl(path, self.name):
            if limit is not None and len(items) >= limit:
                break
            try:
                tests = decode_test_cases(row["public_test_cases"]) + decode_test_cases(
                    row["private_test_cases"]
                )
                metadata = row.get("metadata") or {}
                metadata = json.loads(metadata) if isinstance(metadata, str) else metadata
                payload = {
                    "id": str(row["question_id"]),
                    "title": str(row.get("question_title", "")),
                    "content": str(row["question_content"]),
                    "starter_code": str(row.get("starter_code") or ""),
                    "func_name": metadata.get("func_name"),
                    "tests": [
                        {
                            "input": str(t["input"]),
                            "output": str(t["output"]),
                            "testtype": str(t.get("testtype", "stdin")),
                        }
                        for t in tests
                    ],
                }
            except (KeyError, ValueError, TypeError, zlib.error, pickle.UnpicklingError, EOFError) as error:
                raise BenchmarkDataError(
                    f"{self.name}: {path}: a row is not in the LiveCodeBench format "
                    f"({type(error).__name__}: {error})"
                ) from None
            if not payload["tests"]:
                raise BenchmarkDataError(f"{self.name}: {path}: problem {payload['id']} has no test cases")
            items.append(EvalItem(id=payload["id"], payload=payload))
        return items

    def prompt(self, payload: dict[str, Any]) -> str:
        head = (
            "You will be given a programming problem. Write a correct and efficient Python 3 program that "
            f"passes all its tests.\n\nQuestion:\n{payload['content']}\n\n"
        )
        if payload["starter_code"]:
            return head + (
                "Use this starter code, and reply with the complete solution in one ```python code "
                f"block:\n```python\n{payload['starter_code']}\n```"
            )
        return head + (
            "Read the input from standard input and write the answer to standard output. Reply with "
            "the complete program in one ```python code block."
        )

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        messages = [{"role": "user", "content": self.prompt(item.payload)}]
        generations = await sample(generate, messages, sampling, samples)
        records = await asyncio.gather(*(self._score(item.payload, g) for g in generations))
        return ItemRecord(id=item.id, samples=list(records), gold=None)

    async def _score(self, payload: dict[str, Any], generation: Generation) -> SampleRecord:
        if not generation.ok:
            return SampleRecord(score=0.0, details={"error": generation.error})
        code = extract_code(generation.text)
        passed, detail = await asyncio.to_thread(self.check, payload, code)
        return SampleRecord(
            score=float(passed),
            response=generation.text,
            extracted=code,
            details={"tests": len(payload["tests"]), **detail},
        )

    def check(self, payload: dict[str, Any], code: str) -> tuple[bool, dict[str, Any]]:
        """Run ``code`` on every test of the problem in the sandbox."""
        tests = payload["tests"]
        if tests[0]["testtype"] == "functional":
            args = [[json.loads(line) for line in t["input"].splitlines() if line.strip()] for t in tests]
            outcome = self.runner.run_calls(LCB_PREAMBLE + code, f"Solution.{payload['func_name']}", args)
            if outcome.error:
                return False, {"error": outcome.error}
            for index, test in enumerate(tests):
                got = outcome.results[index] if index < len(outcome.results) else {"error": "not run"}
                if "error" in got:
                    return False, {"failed_test": index, "error": str(got["error"])[:300]}
                if not outputs_match(
                    _as_lists(json.loads(test["output"])), _as_lists(decode_output(got["ok"]))
                ):
                    return False, {"failed_test": index, "error": "wrong output"}
            return True, {}
        outcome = self.runner.run_stdio(code, [t["input"] for t in tests])
        if outcome.error:
            return False, {"error": outcome.error}
        for index, test in enumerate(tests):
            got = outcome.results[index] if index < len(outcome.results) else {"error": "not run"}
            if "error" in got:
                return False, {"failed_test": index, "error": str(got["error"])[:300]}
            if not stdout_match(test["output"], str(got["ok"])):
                return False, {"failed_test": index, "error": "wrong output"}
        return True, {}

    def close(self) -> None:
        self._runner = None


def _as_lists(value: Any) -> Any:
    """JSON has no tuples: a LeetCode answer returned as a tuple equals the same list."""
    if isinstance(value, (list, tuple)):
        return [_as_lists(v) for v in value]
    return value


BENCHMARKS: dict[str, BenchmarkFactory] = {
    "humaneval_plus": lambda options: EvalPlusBenchmark("humaneval", sandbox=options.sandbox),
    "mbpp_plus": lambda options: EvalPlusBenchmark("mbpp", sandbox=options.sandbox),
    "livecodebench_v6": lambda options: LiveCodeBench(sandbox=options.sandbox),
}
