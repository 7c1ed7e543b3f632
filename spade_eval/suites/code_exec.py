"""Run generated programs in the project's WebAssembly sandbox, never in the host interpreter.

A program is wrapped as an environment whose ``reset()`` runs it (``HARNESS`` below): the job (program,
entry point, inputs) travels as the environment's constructor arguments, the harness executes the
program in a fresh namespace inside the guest, calls it on every input (or feeds every stdin), and
``reset`` returns the outputs as JSON. Outputs are compared on the host (``outputs_match``): the guest
only ever reports what the program produced, so a program that tampers with the harness can at worst
misreport its own outputs, never mark itself correct. A long output (over 512 characters of JSON)
travels as its SHA-256 (some plus tests return lists of 10^6 items), its floats rounded to 6 decimals and 9
significant digits first, which stands in for the float tolerance there.

What the sandbox means for which problems can run: the guest is CPython 3.14 with only the allowlisted
standard-library modules (``spade_envs.contract.allowlist``; also ``sys``, ``io`` and ``os`` stubs),
no threads, no subprocesses, no files, 32-bit memory. Programs importing numpy, ``queue``, ``threading``
or ``contextlib`` (also ``from typing import *``, which needs contextlib) fail with ImportError and score
0. Recursion is capped near 2,000 frames, so deeply recursive solutions fail. Time is limited per job
(all tests of one program together), memory to 2 GiB by default.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.errors import EnvRuntimeError

HARNESS = r'''
import hashlib
import io
import json
import math
import sys

HASH_ABOVE = 512
BIG_INT_BITS = 8000


def encode(value, depth=0):
    """Plain JSON with tags for what JSON lacks (tuples, sets, non-finite floats, bytes, complex)."""
    if depth > 60:
        raise ValueError("output nested too deeply")
    if type(value) is int and value.bit_length() > BIG_INT_BITS:
        # Printing a huge integer needs the _pylong module, which the sandbox lacks: hash its bytes.
        size = (value.bit_length() + 8) // 8
        return {"__sha256__": hashlib.sha256(value.to_bytes(size, "little", signed=True)).hexdigest()}
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float:
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return encode(float(value), depth)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return [encode(item, depth + 1) for item in value]
    if isinstance(value, tuple):
        return {"__tuple__": [encode(item, depth + 1) for item in value]}
    if isinstance(value, (set, frozenset)):
        return {"__set__": sorted((encode(item, depth + 1) for item in value), key=repr)}
    if isinstance(value, dict):
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if isinstance(value, complex):
        return {"__complex__": [encode(value.real), encode(value.imag)]}
    if isinstance(value, (bytes, bytearray)):
        return {"__bytes__": list(value)}
    return {"__repr__": repr(value)[:200]}


def decode_input(value):
    if isinstance(value, dict) and "__tuple__" in value:
        return tuple(decode_input(v) for v in value["__tuple__"])
    if isinstance(value, dict) and "__set__" in value:
        return set(decode_input(v) for v in value["__set__"])
    if isinstance(value, dict) and "__complex__" in value:
        return complex(value["__complex__"][0], value["__complex__"][1])
    if isinstance(value, list):
        return [decode_input(v) for v in value]
    return value


def compact(value):
    """The encoded output, or for a long one its hash: a list of a million numbers would not fit in
    a reply. Floats in a hashed output are rounded first (6 decimals, then 9 significant digits), the
    hashed form of the host's float tolerance."""
    encoded = encode(value)
    text = json.dumps(encoded, sort_keys=True)
    if len(text) > HASH_ABOVE:
        text = json.dumps(rounded(encoded), sort_keys=True)
        return {"__sha256__": hashlib.sha256(text.encode()).hexdigest()}
    return encoded


def rounded(value):
    if type(value) is float:
        return {"__float__": format(round(value, 6), ".9g")}
    if isinstance(value, list):
        return [rounded(item) for item in value]
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    return value


def describe(error):
    return type(error).__name__ + ": " + str(error)[:300]


class ProgramRunEnv:
    """Runs one job in reset(); the observation is the JSON list of results."""

    def __init__(self, max_turns=1, job=None, **kwargs):
        self.max_turns = max_turns
        self.job = job or {}

    def reset(self, seed=None):
        job = self.job
        sys.set_int_max_str_digits(0)  # huge integers are legitimate outputs (HumanEval/83)
        namespace = {"__name__": "__candidate__"}
        results = []
        try:
            code = compile(job["program"], "<program>", "exec")
        except SyntaxError as error:
            return json.dumps({"compile_error": describe(error), "results": []}), {}
        if job["mode"] == "call":
            try:
                exec(code, namespace)
                target = resolve(namespace, job["entry_point"])
            except BaseException as error:
                return json.dumps({"compile_error": describe(error), "results": []}), {}
            for args in job["inputs"]:
                try:
                    results.append({"ok": compact(target(*[decode_input(a) for a in args]))})
                except BaseException as error:
                    results.append({"error": describe(error)})
                    break
        else:
            real_stdin, real_stdout = sys.stdin, sys.stdout
            for text in job["inputs"]:
                sys.stdin, sys.stdout = io.StringIO(text), io.StringIO()
                try:
                    exec(code, {"__name__": "__main__"})
                    results.append({"ok": sys.stdout.getvalue()})
                except SystemExit:
                    results.append({"ok": sys.stdout.getvalue()})
                except BaseException as error:
                    results.append({"error": describe(error)})
                finally:
                    sys.stdin, sys.stdout = real_stdin, real_stdout
                if "error" in results[-1]:
                    break
        return json.dumps({"results": results}), {}

    def step(self, action):
        return "done", 0.0, True, False, {}

    def solution(self):
        return ""

    def close(self):
        pass


def resolve(namespace, entry_point):
    """A function name, or Class.method (LeetCode style: an instance is made first)."""
    if "." in entry_point:
        class_name, method = entry_point.split(".", 1)
        return getattr(namespace[class_name](), method)
    return namespace[entry_point]
'''


@dataclass(frozen=True)
class RunOutcome:
    """What a job produced: per-input results (``{"ok": value}`` or ``{"error": text}``), or a failure."""

    results: list[dict[str, Any]]
    error: str | None = None
    """Set when the program did not run at all (syntax error, import error, timeout, sandbox crash)."""


class ProgramRunner:
    """Runs jobs in sandbox sessions of one backend (``wasm`` unless told otherwise)."""

    def __init__(
        self, sandbox: str = "wasm", timeout_s: float = 180.0, memory_mb: int = 2048, max_reply_mb: int = 64
    ) -> None:
        limits = ExecutionLimits(
            call_timeout_s=timeout_s, memory_mb=memory_mb, max_reply_bytes=max_reply_mb << 20
        )
        self.backend = create_backend(sandbox, limits)
        self.sandbox = sandbox

    def run_calls(self, program: str, entry_point: str, inputs: list[list[Any]]) -> RunOutcome:
        """Call ``entry_point`` on each argument list (JSON values; ``{"__tuple__": [...]}`` for tuples)."""
        return self._run({"mode": "call", "program": program, "entry_point": entry_point, "inputs": inputs})

    def run_stdio(self, program: str, stdins: list[str]) -> RunOutcome:
        """Run the program as a script once per stdin text; the results hold what it printed."""
        return self._run({"mode": "stdio", "program": program, "inputs": stdins})

    def _run(self, job: dict[str, Any]) -> RunOutcome:
        try:
            with self.backend.open_session(
                HARNESS, class_name="ProgramRunEnv", init_kwargs={"job": job}
            ) as session:
                observation = session.reset(0).observation
        except EnvRuntimeError as error:
            return RunOutcome([], f"{type(error).__name__}: {str(error).splitlines()[0][:300]}")
        try:
            reply = json.loads(observation)
        except json.JSONDecodeError:
            return RunOutcome([], "the sandbox reply was not JSON")
        if not isinstance(reply, dict) or not isinstance(reply.get("results"), list):
            return RunOutcome([], "the sandbox reply had no results")
        return RunOutcome(list(reply["results"]), reply.get("compile_error"))


# ---------------------------------------------------------------------- comparing outputs on the host
def decode_output(value: Any) -> Any:
    """The host-side value of an encoded output (tuples, sets, dicts and floats restored)."""
    if isinstance(value, list):
        return [decode_output(v) for v in value]
    if isinstance(value, dict):
        if "__tuple__" in value:
            return tuple(decode_output(v) for v in value["__tuple__"])
        if "__set__" in value:
            return {"__set__": sorted((_freeze(decode_output(v)) for v in value["__set__"]), key=repr)}
        if "__dict__" in value:
            return {
                "__dict__": sorted(
                    ([_freeze(decode_output(k)), decode_output(v)] for k, v in value["__dict__"]),
                    key=lambda pair: repr(pair[0]),
                )
            }
        if "__float__" in value:
            return float(value["__float__"])
        if "__sha256__" in value:
            return ("sha256", value["__sha256__"])
        if "__complex__" in value:
            return complex(*value["__complex__"])
        return value
    return value


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list) else value


def outputs_match(expected: Any, actual: Any, atol: float = 0.0) -> bool:
    """Exact equality, except that floats compare within ``atol`` (1e-6 when none is given) plus a
    relative 1e-7, as evalplus does; an int and an equal float match; a tuple never equals a list."""
    tolerance = atol if atol > 0 else 1e-6
    return _close(expected, actual, tolerance)


def _close(expected: Any, actual: Any, atol: float) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if isinstance(expected, int) and isinstance(actual, int):
            return expected == actual
        if math.isnan(expected) or math.isnan(actual):
            return math.isnan(expected) and math.isnan(actual)
        if math.isinf(expected) or math.isinf(actual):
            return expected == actual
        return abs(expected - actual) <= atol + 1e-7 * abs(expected)
    if isinstance(expected, complex) and isinstance(actual, complex):
        return abs(expected - actual) <= atol + 1e-7 * abs(expected)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return (
            type(expected) is type(actual)
            and len(expected) == len(actual)
            and all(_close(e, a, atol) for e, a in zip(expected, actual))
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            _close(expected[k], actual[k], atol) for k in expected
        )
    return type(expected) is type(actual) and expected == actual


def stdout_match(expected: str, actual: str) -> bool:
    """LiveCodeBench-style: line by line after stripping; tokens that are numbers compare by value."""
    want = [line.strip() for line in expected.strip().splitlines()]
    got = [line.strip() for line in actual.strip().splitlines()]
    if want == got:
        return True
    if len(want) != len(got):
        return False
    for want_line, got_line in zip(want, got):
        if want_line == got_line:
            continue
        want_tokens, got_tokens = want_line.split(), got_line.split()
        if len(want_tokens) != len(got_tokens):
            return False
        for a, b in zip(want_tokens, got_tokens):
            if a != b and not _numbers_close(a, b):
                return False
    return True


def _numbers_close(a: str, b: str) -> bool:
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9) or (math.isfinite(x) and abs(x - y) <= 1e-6)
