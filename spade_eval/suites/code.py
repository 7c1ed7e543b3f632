"""Code benchmarks: HumanEval+ and MBPP+ with their plus tests, and LiveCodeBench v6 from a user file.

Every program, the reference solutions included, runs isolated from the host (``code_exec``): in the
WebAssembly sandbox, or, when it imports a native package such as numpy, in the ``process`` backend
under evalplus' own limits (``CodeExecution``, recorded in the results' settings).

HumanEval+ / MBPP+ (evalplus releases under ``DATA_DIR/code``) are scored exactly as evalplus scores
them (``evalplus_check``: its MBPP+ input typing, special oracles, float tolerance and per-test time
limits, all from the evalplus package): the expected outputs are the reference solution's on the base
and plus inputs, computed once per problem in the same backend, and a sample passes when it matches
them on every input within its time limit.

LiveCodeBench v6 (``DATA_DIR/code/livecodebench/test6.jsonl``, the release's own file) follows the
official harness (``lcb_runner/evaluation/testing_util.py``, whose behaviour is reproduced here, not its
code): its import preamble before every program; LeetCode-style problems call ``Solution().<func_name>``
on the JSON arguments of each input line and compare the result (a tuple counts as a list) with ``==``;
stdin/stdout problems have their ``if __name__ == '__main__':`` block unwrapped and their statements
wrapped in one function, read stdin as the harness serves it, and their output is compared line by line
after stripping, tokens as decimals where a line differs as text; 6 s per test (times the sandbox's
slowdown). Private tests in the release's compressed form are decoded with an unpickler that admits plain
values only. Paper setting: pass@1 at T=0.2.
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
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from spade_envs.syntax import parse
from spade_eval.benchmark import (
    BenchmarkDataError,
    BenchmarkFactory,
    EvalItem,
    EvalOptions,
    Generate,
    ItemRecord,
    SampleRecord,
)
from spade_eval.suites.code_exec import CodeExecution, ProgramRunner, decode_value, encode_input
from spade_eval.suites.common import data_file, read_jsonl, sample
from spade_eval.suites.evalplus_check import (
    Expected,
    check_outputs,
    expected_from,
    job_deadline,
    time_limits,
    typed_inputs,
)
from spade_train.policies.base import Generation, SamplingParams

HUMANEVAL_PLUS = "code/he_HumanEvalPlus.jsonl.gz"
MBPP_PLUS = "code/mbpp_MbppPlus.jsonl.gz"
LIVECODEBENCH = "code/livecodebench/test6.jsonl"
PARTS = ("base", "plus")
EVALPLUS_HOW = "use the evalplus release file (HumanEvalPlus / MbppPlus .jsonl.gz)"
LCB_HOW = (
    "LiveCodeBench is user-supplied: put test6.jsonl of the code_generation_lite release (release_v6) there"
)
_CODE_BLOCK = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_LCB_MODULES = ("string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random",
                "statistics", "itertools", "functools", "operator", "io", "sys", "json")
LCB_IMPORTS = (
    "".join(f"from {name} import *\n" for name in (*_LCB_MODULES, "builtins", "typing"))
    + "".join(f"import {name}\n" for name in _LCB_MODULES)
    + "sys.setrecursionlimit(50000)\n"
)
"""The official harness' preamble, run before every program."""
LCB_TEST_TIMEOUT_S = 6.0
"""The official per-test limit (``run_test(timeout=6)``)."""


def extract_code(response: str) -> str:
    """The last fenced code block (an unterminated final block counts); the whole reply when there is none."""
    blocks = _CODE_BLOCK.findall(response)
    if blocks:
        return blocks[-1]
    opened = re.search(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*)$", response, re.DOTALL | re.IGNORECASE)
    return opened.group(1) if opened else response


def defines(code: str, name: str) -> bool:
    try:
        tree = parse(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name
        for node in ast.walk(tree)
    )


# ---------------------------------------------------------------------- HumanEval+ and MBPP+
class _SandboxedPrograms:
    """The program runner a code benchmark executes programs with, made on first use (listing
    benchmarks starts no sandbox). Subclasses set ``execution`` and ``_runner = None``."""

    execution: CodeExecution
    _runner: ProgramRunner | None

    @property
    def runner(self) -> ProgramRunner:
        if self._runner is None:
            self._runner = ProgramRunner(self.execution)
        return self._runner

    def settings(self) -> dict[str, Any]:
        """How programs ran, for the results document."""
        return self.execution.settings()


@dataclass
class EvalPlusBenchmark(_SandboxedPrograms):
    """HumanEval+ (``flavour="humaneval"``) or MBPP+ (``flavour="mbpp"``), scored as evalplus scores them
    (``evalplus_check``)."""

    flavour: str
    execution: CodeExecution = field(default_factory=CodeExecution)
    suite: str = "reasoning"
    samples: int = 1
    sampling: SamplingParams = field(
        default_factory=lambda: SamplingParams(temperature=0.2, top_p=0.95, max_tokens=4096)
    )
    metric: str = "pass@1"

    def __post_init__(self) -> None:
        self.name = "humaneval_plus" if self.flavour == "humaneval" else "mbpp_plus"
        self._runner: ProgramRunner | None = None
        self._expected: dict[tuple[str, str], asyncio.Future[dict[str, Expected] | str]] = {}
        self._expected_sync: dict[tuple[str, str], dict[str, Expected] | str] = {}

    def load(self, data_dir: Path | None, limit: int | None) -> list[EvalItem]:
        relative = HUMANEVAL_PLUS if self.flavour == "humaneval" else MBPP_PLUS
        path = data_file(data_dir, relative, self.name, EVALPLUS_HOW)
        rows = read_jsonl(path, self.name)
        items = []
        for row in rows if limit is None else rows[:limit]:
            try:
                task_id = str(row["task_id"])
                payload = {
                    "task_id": task_id,
                    "prompt": str(row["prompt"]),
                    "entry_point": str(row["entry_point"]),
                    "canonical": str(row["canonical_solution"]),
                    "atol": float(row.get("atol") or 0),
                    "inputs": {
                        part: [
                            encode_input(list(args))
                            for args in typed_inputs(self.flavour, task_id, _json_field(row[f"{part}_input"]))
                        ]
                        for part in PARTS
                    },
                }
            except (KeyError, ValueError, TypeError) as error:
                raise BenchmarkDataError(
                    f"{self.name}: {path}: a row lacks an evalplus field ({error})"
                ) from None
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
        """What evalplus runs for the expected outputs: the prompt followed by the canonical solution."""
        return payload["prompt"] + payload["canonical"]

    def _expected_now(self, payload: dict[str, Any], backend: str | None = None) -> dict[str, Expected] | str:
        """The reference's outputs and times on the base and on the plus inputs (or why there are none), run in
        ``backend`` (default: where the reference itself would run).

        A sample is compared with the reference run on the *same* backend: evalplus runs both natively, and
        some outputs depend on the platform they are computed on (``sys.getsizeof`` in the 32-bit
        WebAssembly guest, the last digit of a ``cmath`` result from its libm). A program that imports numpy
        runs in the process backend, so it is compared with the reference's outputs there, and its time
        limits come from the reference's time there (no sandbox slowdown in between)."""
        expected: dict[str, Expected] = {}
        for part in PARTS:
            inputs = payload["inputs"][part]
            if not inputs:
                expected[part] = Expected([], [])
                continue
            outcome = self.runner.run_calls(self.reference_program(payload), payload["entry_point"], inputs,
                                            backend=backend)
            found = expected_from(outcome, self.flavour, payload["entry_point"], len(inputs))
            if isinstance(found, str):
                return found
            expected[part] = found
        return expected

    def expected_for(self, payload: dict[str, Any], program: str) -> dict[str, Expected] | str:
        """The expected outputs ``program`` is checked against: the reference's on the backend ``program``
        runs in (computed once per problem and backend; for callers outside an event loop)."""
        key = (payload["task_id"], self.execution.backend_for(program))
        if key not in self._expected_sync:
            self._expected_sync[key] = self._expected_now(payload, key[1])
        return self._expected_sync[key]

    async def expected(self, payload: dict[str, Any], backend: str | None = None) -> dict[str, Expected] | str:
        """``_expected_now`` on ``backend`` (default: the reference's own), computed once per problem and
        backend (concurrent samples share it)."""
        backend = backend or self.execution.backend_for(self.reference_program(payload))
        key = (payload["task_id"], backend)
        if key not in self._expected:
            self._expected[key] = asyncio.ensure_future(asyncio.to_thread(self._expected_now, payload, backend))
        return await asyncio.shield(self._expected[key])

    async def run_item(
        self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int
    ) -> ItemRecord:
        payload = item.payload
        messages = [{"role": "user", "content": self.prompt(payload)}]
        generations = await sample(generate, messages, sampling, samples)
        expected = await self.expected(payload)
        if isinstance(expected, str):
            return ItemRecord(
                id=item.id,
                gold=None,
                samples=[SampleRecord(score=0.0, response=g.text, details={"error": expected}) for g in generations],
            )
        records = await asyncio.gather(*(self._score(payload, g) for g in generations))
        return ItemRecord(id=item.id, samples=list(records), gold=payload["canonical"])

    async def _score(self, payload: dict[str, Any], generation: Generation) -> SampleRecord:
        if not generation.ok:
            return SampleRecord(score=0.0, details={"error": generation.error})
        program = self.program(payload, generation.text)
        backend = self.execution.backend_for(program)
        expected = await self.expected(payload, backend)  # the reference on the sample's own backend (cached)
        if isinstance(expected, str):
            return SampleRecord(score=0.0, response=generation.text, extracted=program,
                                details={"error": expected, "backend": backend})
        passed, detail = await asyncio.to_thread(self.check, payload, program, expected)
        return SampleRecord(score=float(passed), response=generation.text, extracted=program, details=detail)

    def check(
        self, payload: dict[str, Any], program: str, expected: dict[str, Expected]
    ) -> tuple[bool, dict[str, Any]]:
        """evalplus' verdict on ``program``: the base inputs, then (if they pass) the plus inputs."""
        backend = self.execution.backend_for(program)
        slowdown = self.execution.slowdown(backend)
        tests = sum(len(payload["inputs"][part]) for part in PARTS)
        for part in PARTS:
            inputs = payload["inputs"][part]
            if not inputs:
                continue
            limits = time_limits(expected[part].times, slowdown)
            outcome = self.runner.run_calls(
                program,
                payload["entry_point"],
                inputs,
                time_limits=limits,
                deadline_s=job_deadline(limits, slowdown),
                report_args=self.flavour == "humaneval" and payload["entry_point"] == "find_zero",
            )
            passed, detail = check_outputs(
                self.flavour,
                payload["entry_point"],
                [decode_value(args) for args in inputs],
                expected[part],
                outcome,
                payload["atol"],
                limits,
            )
            if not passed:
                return False, {"tests": tests, "failed": part, "backend": outcome.backend, **detail}
        return True, {"tests": tests, "backend": backend}

    def close(self) -> None:
        self._runner = None
        self._expected.clear()
        self._expected_sync.clear()


def _json_field(value: Any) -> list[Any]:
    parsed = json.loads(value) if isinstance(value, str) else value
    if parsed == {}:  # one MBPP+ task (Mbpp/793) stores "no plus inputs" as an empty object
        return []
    if not isinstance(parsed, list):
        raise TypeError("inputs are not a list")
    return parsed


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
    execution: CodeExecution = field(default_factory=CodeExecution)
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
        """Run ``code`` on every test of the problem, as the official harness does (module docstring)."""
        tests = payload["tests"]
        functional = tests[0]["testtype"] == "functional"
        program = LCB_IMPORTS + "\n\n" + code if functional else lcb_stdio_program(code)
        backend = self.execution.backend_for(program)
        slowdown = self.execution.slowdown(backend)
        limits = [LCB_TEST_TIMEOUT_S * slowdown] * len(tests)
        deadline = ((LCB_TEST_TIMEOUT_S + 1) * len(tests) + 5) * slowdown
        if functional:
            try:
                args = [[encode_input(json.loads(line)) for line in t["input"].split("\n")] for t in tests]
                wanted = [json.loads(t["output"]) for t in tests]
            except (json.JSONDecodeError, TypeError) as error:
                return False, {"error": f"the test cases are not JSON: {error}"}
            entry = f"Solution.{payload['func_name']}" if "class Solution" in program else payload["func_name"]
            outcome = self.runner.run_calls(
                program, str(entry), args, time_limits=limits, deadline_s=deadline, module_name="tmp_sol"
            )
        else:
            outcome = self.runner.run_stdio(
                program, [t["input"] for t in tests], entry_point="wrapped_function",
                time_limits=limits, deadline_s=deadline,
            )
        if outcome.error:
            return False, {"error": outcome.error, "backend": outcome.backend}
        for index, test in enumerate(tests):
            got = outcome.results[index] if index < len(outcome.results) else {"error": "not run (deadline)"}
            if "timeout" in got:
                return False, {"failed_test": index, "error": "over the time limit", "backend": outcome.backend}
            if "error" in got:
                return False, {"failed_test": index, "error": str(got["error"])[:300], "backend": outcome.backend}
            if functional:
                right = lcb_call_match(decode_value(got["ok"]), wanted[index])
            else:
                right = lcb_stdout_match(str(got["ok"]), test["output"])
            if not right:
                return False, {"failed_test": index, "error": "wrong output", "backend": outcome.backend}
        return True, {"backend": outcome.backend}

    def close(self) -> None:
        self._runner = None


def lcb_call_match(prediction: Any, expected: Any) -> bool:
    """The official comparison of a LeetCode-style result: ``==`` after a returned tuple becomes a list."""
    if isinstance(prediction, tuple):
        prediction = list(prediction)
    try:
        return bool(prediction == expected)
    except Exception:  # noqa: BLE001 - an ambiguous comparison (numpy arrays) fails the test, as officially
        return False


def lcb_stdio_program(code: str) -> str:
    """A stdin/stdout program as the official harness runs it: a trailing ``if __name__ == '__main__':``
    block replaced by its body, imports hoisted, every other top-level statement inside
    ``def wrapped_function():``, after the preamble. Code that does not parse is left as it is (and then
    fails to compile, as officially)."""
    try:
        body = list(parse(code).body)
        if body and isinstance(body[-1], ast.If) and ast.unparse(body[-1].test).strip() == "__name__ == '__main__'":
            body = body[:-1] + list(body[-1].body)
        imports = [stmt for stmt in body if isinstance(stmt, (ast.Import, ast.ImportFrom))]
        others = [stmt for stmt in body if not isinstance(stmt, (ast.Import, ast.ImportFrom))]
        function = ast.FunctionDef(
            name="wrapped_function",
            args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=others or [ast.Pass()],
            decorator_list=[],
            returns=None,
            type_params=[],
        )
        module = ast.fix_missing_locations(ast.Module(body=[*imports, function], type_ignores=[]))
        return LCB_IMPORTS + "\n" + ast.unparse(module)
    except (SyntaxError, ValueError, TypeError, RecursionError):
        return code


def lcb_stdout_match(printed: str, expected: str) -> bool:
    """The official comparison: the same number of stripped lines, each equal as text or, token by token,
    as decimals (``Decimal``: 3 equals 3.0; no other tolerance)."""
    got = [line.strip() for line in printed.strip().split("\n")]
    want = [line.strip() for line in expected.strip().split("\n")]
    if len(got) != len(want):
        return False
    for got_line, want_line in zip(got, want):
        if got_line == want_line:
            continue
        try:
            if [Decimal(token) for token in got_line.split()] != [Decimal(token) for token in want_line.split()]:
                return False
        except (InvalidOperation, ValueError):
            return False
    return True


def _execution(options: EvalOptions) -> CodeExecution:
    return options.code_execution


BENCHMARKS: dict[str, BenchmarkFactory] = {
    "humaneval_plus": lambda options: EvalPlusBenchmark("humaneval", _execution(options)),
    "mbpp_plus": lambda options: EvalPlusBenchmark("mbpp", _execution(options)),
    "livecodebench_v6": lambda options: LiveCodeBench(_execution(options)),
}
