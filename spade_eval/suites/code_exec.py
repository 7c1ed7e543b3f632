"""Run generated programs isolated from the host, and bring their outputs back as real Python values.

Where a program runs (``CodeExecution``, one settings record, recorded in the results' settings):

- in the WebAssembly sandbox by default (``spade_envs`` ``wasm`` backend): CPython 3.14 with the
  environment allowlist plus the standard-library modules generated code uses
  (``spade_envs.runtime.guest_modules``), no files, network, threads or processes, 32-bit memory;
- a program that imports a native package the sandbox cannot hold (``native_modules``, numpy by
  default) runs in the ``process`` backend instead, as evalplus runs every program: a child process with
  evalplus' own ``reliability_guard`` (4 GiB address space, destructive ``os`` / ``shutil`` /
  ``subprocess`` functions removed), no host environment variables, killed at its deadline. With
  ``native_backend=None`` such programs stay in the sandbox and fail with ImportError.

A program is wrapped as an environment whose ``reset()`` runs it (``HARNESS`` below): the job travels
as the environment's constructor arguments; the harness executes the program in a fresh namespace,
calls it on every input (or feeds every stdin), times each test, and ``reset`` returns the results as
JSON. Verdicts are reached on the host: the guest only reports what the program produced, so a program
that tampers with the harness can at worst misreport its own outputs.

Outputs travel in a tagged encoding (tuples, sets, dicts with any keys, bytes, complex, non-finite
floats, very large integers, subclasses of the builtin types by name, numpy arrays and scalars, and an
opaque tag for anything else) and ``decode_value`` rebuilds them, so the host compares the objects the
program returned with Python's own ``==``. An output whose encoding exceeds ``MAX_VALUE_CHARS`` (some
plus tests return strings or lists of 10^7 items) travels as a digest of its canonical encoding
instead (``Digest``): equal digests are equal values; unequal digests cannot be compared within a float
tolerance, which is the one place the host's verdict may differ from an in-process comparison.

Time: each test's wall time is measured in the guest and checked against its limit there (the run stops
at the first test over its limit) and again on the host; the whole job also has a deadline, enforced by
the backend (epoch interruption in wasm, a kill for ``process``). The sandboxed interpreter is slower than
native CPython (``sandbox_slowdown``), so absolute limits are scaled by it there, while limits derived
from the reference solution's own time need no scaling (it ran in the same place).
"""

from __future__ import annotations

import ast
import json
import math
from dataclasses import asdict, dataclass
from typing import Any

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.syntax import parse

MAX_VALUE_CHARS = 256 * 1024
"""Encoded outputs longer than this travel as a digest."""


@dataclass(frozen=True)
class CodeExecution:
    """Where generated programs run and the limits they run under (one record for every code benchmark)."""

    sandbox: str = "wasm"
    """The backend programs run in (``--sandbox``)."""
    native_modules: tuple[str, ...] = ("numpy",)
    """Top-level modules a program may import that the sandbox cannot hold (native extensions)."""
    native_backend: str | None = "process"
    """Where programs importing ``native_modules`` run; None keeps them in ``sandbox`` (where they fail)."""
    sandbox_slowdown: float = 3.0
    """How many times slower the wasm interpreter runs Python than native CPython (measured on a 2-core
    VM: 1.8x on loops and dict building, about 4x on environment steps); absolute time limits are
    multiplied by it in wasm."""
    memory_mb: int = 2048
    """Memory cap in the sandbox (the wasm guest is 32-bit; 2 GiB leaves room for huge plus-test outputs)."""
    native_memory_mb: int = 4096
    """Memory cap of the native route: evalplus' own 4 GiB (``reliability_guard``)."""
    job_timeout_s: float = 600.0
    """Deadline of one job when no tighter one is known (a reference solution's first run)."""

    def backend_for(self, program: str) -> str:
        """The backend ``program`` runs in: ``native_backend`` when it imports a native module."""
        if self.native_backend and self.sandbox == "wasm" and imports_any(program, self.native_modules):
            return self.native_backend
        return self.sandbox

    def slowdown(self, backend: str) -> float:
        return self.sandbox_slowdown if backend == "wasm" else 1.0

    def settings(self) -> dict[str, Any]:
        """What the results document records."""
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}

    def interpreters(self) -> dict[str, str]:
        """The Python version each backend programs may run in reports (``sandbox`` and ``native_backend``),
        asked of the backend itself: the sandbox's CPython is not the host's (3.14 in the wasm guest), and
        some outputs differ between versions (the float ``sum`` of HumanEval/32, see the evaluation guide)."""
        found = {}
        for name in dict.fromkeys(b for b in (self.sandbox, self.native_backend) if b):
            try:
                backend = create_backend(name, ExecutionLimits(call_timeout_s=60.0))
                with backend.open_session(_VERSION_PROBE, class_name="VersionEnv") as session:
                    found[name] = session.reset(0).observation[:40]
            except (EnvRuntimeError, ValueError) as error:
                found[name] = f"unknown ({type(error).__name__})"
        return found


_VERSION_PROBE = """
import sys


class VersionEnv:
    def __init__(self, max_turns=1, **kwargs):
        pass

    def reset(self, seed=None):
        return sys.version.split()[0], {}

    def step(self, action):
        return "", 0.0, True, False, {}

    def solution(self):
        return ""

    def close(self):
        pass
"""


def imports_any(program: str, modules: tuple[str, ...]) -> bool:
    """Whether ``program`` imports (anywhere in it) one of ``modules`` or a submodule of one."""
    try:
        tree = parse(program)
    except SyntaxError:
        return False
    wanted = set(modules)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(alias.name.split(".")[0] in wanted for alias in node.names):
                return True
        elif (
            isinstance(node, ast.ImportFrom) and node.module and node.level == 0
            and node.module.split(".")[0] in wanted
        ):
            return True
    return False


HARNESS = r'''
import hashlib
import io
import json
import math
import sys
import time

BIG_INT_BITS = 4000
DEPTH_LIMIT = 100
BASE_TYPES = (bool, int, float, complex, str, bytes, bytearray, list, tuple, set, frozenset, dict)


class TooLarge(Exception):
    pass


class Budget:
    def __init__(self, chars):
        self.left = chars

    def spend(self, chars):
        self.left -= chars
        if self.left < 0:
            raise TooLarge()


def base_type(value):
    kind = type(value)
    if kind in BASE_TYPES:
        return kind
    for base in BASE_TYPES:
        if isinstance(value, base):
            return base
    return None


def encode(value, budget, depth=0):
    """A JSON value standing for ``value`` (see the host's decode_value)."""
    if depth > DEPTH_LIMIT:
        raise ValueError("output nested too deeply")
    budget.spend(8)
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is str:
        budget.spend(len(value))
        return value
    if kind is int:
        if value.bit_length() > BIG_INT_BITS:
            text = hex(value)
            budget.spend(len(text))
            return {"__int__": text}
        return value
    if kind is float:
        return value if math.isfinite(value) else {"__float__": repr(value)}
    module = getattr(kind, "__module__", "")
    if module == "numpy":
        return encode_numpy(value, budget, depth)
    base = base_type(value)
    if base is None:
        return {"__opaque__": kind.__name__, "repr": safe_repr(value)}
    if base is not kind:
        return {"__subclass__": kind.__name__, "value": encode(base(value), budget, depth + 1)}
    if kind is list:
        return [encode(item, budget, depth + 1) for item in value]
    if kind is tuple:
        return {"__tuple__": [encode(item, budget, depth + 1) for item in value]}
    if kind is set or kind is frozenset:
        return {"__set__" if kind is set else "__frozenset__": [encode(item, budget, depth + 1) for item in value]}
    if kind is dict:
        return {"__dict__": [[encode(k, budget, depth + 1), encode(v, budget, depth + 1)] for k, v in value.items()]}
    if kind is complex:
        return {"__complex__": [encode(value.real, budget, depth + 1), encode(value.imag, budget, depth + 1)]}
    budget.spend(len(value))
    return {"__bytes__" if kind is bytes else "__bytearray__": value.hex()}


def encode_numpy(value, budget, depth):
    kind = type(value)
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        if kind.__name__ == "ndarray":
            return {"__ndarray__": [str(value.dtype), list(value.shape), encode(value.tolist(), budget, depth + 1)]}
        return {"__npscalar__": [str(value.dtype), encode(value.item(), budget, depth + 1)]}
    return {"__opaque__": kind.__name__, "repr": safe_repr(value)}


def safe_repr(value):
    try:
        return repr(value)[:200]
    except BaseException:
        return "<unprintable>"


def feed(value, hasher, flags, depth=0):
    """The canonical encoding of ``value`` streamed into ``hasher`` (sets and dicts in sorted order).

    Numbers are written as Python's ``==`` sees them, so outputs that compare equal have equal
    digests: True and 1, 3.0 and 3, (2+0j) and 2 are the same number here.
    """
    if depth > DEPTH_LIMIT:
        raise ValueError("output nested too deeply")
    kind = type(value)
    if value is None:
        hasher.update(b"None")
        return
    if kind is complex and value.imag == 0:
        flags["floats"] = True
        value, kind = value.real, float
    if kind is float:
        flags["floats"] = True
        if value != value:
            flags["uncomparable"] = True
        if not value.is_integer():
            hasher.update(b"f" + repr(value).encode() + b";")
            return
        value, kind = int(value), int
    if kind is bool or kind is int:
        hasher.update(b"i" + hex(value).encode() + b";")
        return
    if kind is str:
        data = value.encode("utf-8", "surrogatepass")
        hasher.update(b"s" + str(len(data)).encode() + b":" + data)
        return
    base = base_type(value)
    if getattr(kind, "__module__", "") == "numpy" or base is None:
        flags["uncomparable"] = True
        hasher.update(b"?" + kind.__name__.encode() + b";")
        return
    if base is not kind:
        hasher.update(b"sub" + kind.__name__.encode() + b"(")
        feed(base(value), hasher, flags, depth + 1)
        hasher.update(b")")
        return
    if kind is list or kind is tuple:
        hasher.update((b"[" if kind is list else b"(") + str(len(value)).encode() + b":")
        for item in value:
            feed(item, hasher, flags, depth + 1)
        hasher.update(b"]")
        return
    if kind is complex:
        hasher.update(b"c")
        feed(value.real, hasher, flags, depth + 1)
        feed(value.imag, hasher, flags, depth + 1)
        return
    if kind in (bytes, bytearray):
        hasher.update((b"b" if kind is bytes else b"B") + str(len(value)).encode() + b":" + bytes(value))
        return
    pieces = []
    items = value.items() if kind is dict else ((item, None) for item in value)
    for key, item in items:
        child = hashlib.sha256()
        feed(key, child, flags, depth + 1)
        if kind is dict:
            child.update(b"=")
            feed(item, child, flags, depth + 1)
        pieces.append(child.digest())
    hasher.update({dict: b"{", set: b"<", frozenset: b"F"}[kind] + str(len(pieces)).encode() + b":")
    for piece in sorted(pieces):
        hasher.update(piece)


def report(value, max_chars):
    """The encoded value, or a digest of its canonical encoding when it is too long to send."""
    try:
        return encode(value, Budget(max_chars))
    except TooLarge:
        pass
    hasher = hashlib.sha256()
    flags = {"floats": False, "uncomparable": False}
    feed(value, hasher, flags)
    return {"__digest__": hasher.hexdigest(), "floats": flags["floats"], "uncomparable": flags["uncomparable"]}


def decode_input(value):
    if isinstance(value, list):
        return [decode_input(v) for v in value]
    if isinstance(value, dict):
        if "__tuple__" in value:
            return tuple(decode_input(v) for v in value["__tuple__"])
        if "__set__" in value:
            return set(decode_input(v) for v in value["__set__"])
        if "__frozenset__" in value:
            return frozenset(decode_input(v) for v in value["__frozenset__"])
        if "__dict__" in value:
            return {decode_input(k): decode_input(v) for k, v in value["__dict__"]}
        if "__complex__" in value:
            return complex(value["__complex__"][0], value["__complex__"][1])
        if "__float__" in value:
            return float(value["__float__"])
        if "__int__" in value:
            return int(value["__int__"], 16)
    return value


def describe(error):
    try:
        return type(error).__name__ + ": " + str(error)[:300]
    except BaseException:
        return type(error).__name__


class _LineStdin:
    """LiveCodeBench's stdin: read() is the whole input, readline() the next line without its newline
    (StopIteration after the last), readlines() the lines split on newlines, buffer.read() the bytes,
    buffer.readline() the first line; other attributes are those of a StringIO of the input."""

    def __init__(self, text):
        self._text = text
        self._lines = iter(text.split("\n"))
        self._stream = io.StringIO(text)
        self.buffer = _LineBuffer(text)

    def read(self, *args):
        return self._text

    def readline(self, *args):
        return next(self._lines)

    def readlines(self, *args):
        return self._text.split("\n")

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _LineBuffer:
    def __init__(self, text):
        self._data = text.encode("utf-8")

    def read(self, *args):
        return self._data

    def readline(self, *args):
        return self._data.split(b"\n")[0] + b"\n"


class ProgramRunEnv:
    """Runs one job in reset(); the observation is the JSON of the results."""

    def __init__(self, max_turns=1, job=None, **kwargs):
        self.max_turns = max_turns
        self.job = job or {}

    def reset(self, seed=None):
        job = self.job
        sys.set_int_max_str_digits(0)  # huge integers are legitimate outputs (HumanEval/83)
        if job.get("guard"):
            from evalplus.eval import query_maximum_memory_bytes
            from evalplus.eval.utils import reliability_guard

            reliability_guard(maximum_memory_bytes=query_maximum_memory_bytes())
        try:
            code = compile(job["program"], "<program>", "exec")
        except BaseException as error:
            return json.dumps({"compile_error": describe(error), "results": []}), {}
        runner = run_stdio if job["mode"] == "stdio" else run_calls
        return json.dumps(runner(job, code)), {}

    def step(self, action):
        return "done", 0.0, True, False, {}

    def solution(self):
        return ""

    def close(self):
        pass


def registered_module(name):
    """A fresh module registered under ``name`` in sys.modules, for the program to run in: what looks its
    own module up (dataclasses, pickle, typing.get_type_hints, inspect.getmodule, enum) finds it there, as
    it would when the program is imported or run as a script."""
    module = type(sys)(name)
    sys.modules[name] = module
    return module


def run_calls(job, code):
    namespace = registered_module(job.get("module_name", "__candidate__")).__dict__
    real_stdout = sys.stdout
    try:
        sys.stdout = io.StringIO()
        exec(code, namespace)
        target = resolve(namespace, job["entry_point"])
    except BaseException as error:
        return {"compile_error": describe(error), "results": []}
    finally:
        sys.stdout = real_stdout
    limits = job.get("time_limits")
    max_chars = job.get("max_value_chars", 262144)
    results = []
    for index, raw in enumerate(job["inputs"]):
        args = [decode_input(a) for a in (json.loads(raw) if isinstance(raw, str) else raw)]
        sys.stdout = io.StringIO()
        start = time.perf_counter()
        try:
            out = target(*args)
            elapsed = time.perf_counter() - start
        except BaseException as error:
            sys.stdout = real_stdout
            results.append({"error": describe(error), "time": time.perf_counter() - start})
            break
        sys.stdout = real_stdout
        if limits is not None and elapsed > limits[index]:
            results.append({"timeout": elapsed})
            break
        try:
            result = {"ok": report(out, max_chars), "time": elapsed}
            if job.get("report_args"):
                result["args"] = report(args, max_chars)
        except BaseException as error:
            results.append({"error": "the output could not be reported: " + describe(error), "time": elapsed})
            break
        results.append(result)
    return {"results": results}


def run_stdio(job, code):
    real_stdin, real_stdout = sys.stdin, sys.stdout
    limits = job.get("time_limits")
    results = []
    harness_main = sys.modules.get("__main__")
    for index, text in enumerate(job["inputs"]):
        namespace = registered_module("__main__").__dict__  # a script runs as __main__, one fresh run per input
        sys.stdin, sys.stdout = _LineStdin(text), io.StringIO()
        start = time.perf_counter()
        try:
            exec(code, namespace)
            if job.get("entry_point"):
                namespace[job["entry_point"]]()
            result = {"ok": sys.stdout.getvalue()}
        except SystemExit:
            result = {"ok": sys.stdout.getvalue()}
        except BaseException as error:
            result = {"error": describe(error)}
        finally:
            sys.stdin, sys.stdout = real_stdin, real_stdout
            if harness_main is not None:
                sys.modules["__main__"] = harness_main
        result["time"] = time.perf_counter() - start
        if "error" not in result and limits is not None and result["time"] > limits[index]:
            result = {"timeout": result["time"]}
        results.append(result)
        if "ok" not in result:
            break
    return {"results": results}


def resolve(namespace, entry_point):
    """A function name, or Class.method (LeetCode style: an instance is made first)."""
    if "." in entry_point:
        class_name, method = entry_point.split(".", 1)
        return getattr(namespace[class_name](), method)
    return namespace[entry_point]
'''


@dataclass(frozen=True)
class RunOutcome:
    """What a job produced: per-input results, or a failure before any test ran.

    A result is ``{"ok": encoded value, "time": s}``, ``{"error": text, "time": s}`` or
    ``{"timeout": s}`` (over its limit); the run stops at the first result that is not ``ok``.
    """

    results: list[dict[str, Any]]
    error: str | None = None
    """Set when the program did not run at all (syntax error, import error, deadline, sandbox crash)."""
    backend: str = "wasm"
    """Where it ran."""


class ProgramRunner:
    """Runs jobs under one ``CodeExecution``: each job in a fresh session of the backend it needs."""

    def __init__(self, execution: CodeExecution | None = None) -> None:
        self.execution = execution or CodeExecution()
        self._backends: dict[tuple[str, int], Any] = {}

    def run_calls(
        self,
        program: str,
        entry_point: str,
        inputs: list[Any],
        *,
        time_limits: list[float] | None = None,
        deadline_s: float | None = None,
        report_args: bool = False,
        module_name: str = "__candidate__",
        backend: str | None = None,
    ) -> RunOutcome:
        """Call ``entry_point`` on each argument list (encoded as ``encode_input`` does), timing each
        call against ``time_limits`` (seconds, one per input; None: untimed). ``backend``: where it runs
        (default: ``CodeExecution.backend_for(program)``)."""
        return self._run(
            {
                "mode": "call",
                "program": program,
                "entry_point": entry_point,
                "inputs": inputs,
                "time_limits": time_limits,
                "report_args": report_args,
                "module_name": module_name,
                "max_value_chars": MAX_VALUE_CHARS,
            },
            deadline_s,
            backend,
        )

    def run_stdio(
        self,
        program: str,
        stdins: list[str],
        *,
        entry_point: str | None = None,
        time_limits: list[float] | None = None,
        deadline_s: float | None = None,
    ) -> RunOutcome:
        """Run the program once per stdin text (calling ``entry_point`` after it when given); the results
        hold what it printed. stdin reads as LiveCodeBench's harness serves it (see ``HARNESS``)."""
        job = {"mode": "stdio", "program": program, "inputs": stdins, "time_limits": time_limits,
               "entry_point": entry_point}
        return self._run(job, deadline_s)

    def _backend(self, name: str, deadline_s: float) -> Any:
        """One backend per (name, whole-second deadline): the deadline is a backend-wide limit."""
        seconds = max(1, int(-(-deadline_s // 1)))
        key = (name, seconds)
        if key not in self._backends:
            memory = self.execution.memory_mb if name == "wasm" else self.execution.native_memory_mb
            limits = ExecutionLimits(call_timeout_s=seconds, memory_mb=memory, max_reply_bytes=128 << 20)
            self._backends[key] = create_backend(name, limits)
        return self._backends[key]

    def _run(self, job: dict[str, Any], deadline_s: float | None, backend_name: str | None = None) -> RunOutcome:
        backend_name = backend_name or self.execution.backend_for(job["program"])
        job = {**job, "guard": backend_name == "process" and backend_name != self.execution.sandbox}
        backend = self._backend(backend_name, deadline_s or self.execution.job_timeout_s)
        try:
            with backend.open_session(HARNESS, class_name="ProgramRunEnv", init_kwargs={"job": job}) as session:
                observation = session.reset(0).observation
        except EnvRuntimeError as error:
            first = str(error).splitlines()[0][:300] if str(error) else ""
            return RunOutcome([], f"{type(error).__name__}: {first}", backend_name)
        try:
            reply = json.loads(observation)
        except json.JSONDecodeError:
            return RunOutcome([], "the sandbox reply was not JSON", backend_name)
        if not isinstance(reply, dict) or not isinstance(reply.get("results"), list):
            return RunOutcome([], "the sandbox reply had no results", backend_name)
        return RunOutcome(list(reply["results"]), reply.get("compile_error"), backend_name)


# ---------------------------------------------------------------------- values across the boundary
def encode_input(value: Any) -> Any:
    """An argument in the harness' input encoding (tuples, sets, dicts with any keys, complex, ...)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return {"__int__": hex(value)} if value.bit_length() > 4000 else value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"__float__": repr(value)}
    if isinstance(value, list):
        return [encode_input(v) for v in value]
    if isinstance(value, tuple):
        return {"__tuple__": [encode_input(v) for v in value]}
    if isinstance(value, frozenset):
        return {"__frozenset__": [encode_input(v) for v in value]}
    if isinstance(value, set):
        return {"__set__": [encode_input(v) for v in value]}
    if isinstance(value, dict):
        return {"__dict__": [[encode_input(k), encode_input(v)] for k, v in value.items()]}
    if isinstance(value, complex):
        return {"__complex__": [value.real, value.imag]}
    raise TypeError(f"cannot pass a {type(value).__name__} to a sandboxed program")


@dataclass(frozen=True)
class Digest:
    """An output too long to send: the digest of its canonical encoding."""

    sha256: str
    floats: bool
    """It holds floats (so a tolerance could have accepted a different digest)."""
    uncomparable: bool
    """It holds values no digest can vouch for (NaN never equals itself; opaque and numpy objects)."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Digest)
            and not self.uncomparable
            and not other.uncomparable
            and self.sha256 == other.sha256
        )

    __hash__ = None  # type: ignore[assignment]


class Opaque:
    """An object of a type that cannot travel: equal to nothing, not None."""

    def __init__(self, type_name: str, text: str) -> None:
        self.type_name, self.text = type_name, text

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<{self.type_name}: {self.text}>"


_SUBCLASSES: dict[tuple[type, str], type] = {}


def _subclass(base: type, name: str) -> type:
    """A stand-in subclass of ``base`` named ``name``: equal as ``base`` is, but not of type ``base``."""
    key = (base, name)
    if key not in _SUBCLASSES:
        _SUBCLASSES[key] = type(name, (base,), {})
    return _SUBCLASSES[key]


def decode_value(value: Any) -> Any:
    """The host-side object for an encoded output."""
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "__tuple__" in value:
        return tuple(decode_value(v) for v in value["__tuple__"])
    if "__set__" in value:
        return {_hashable(decode_value(v)) for v in value["__set__"]}
    if "__frozenset__" in value:
        return frozenset(_hashable(decode_value(v)) for v in value["__frozenset__"])
    if "__dict__" in value:
        return {_hashable(decode_value(k)): decode_value(v) for k, v in value["__dict__"]}
    if "__float__" in value:
        return float(value["__float__"])
    if "__int__" in value:
        return int(value["__int__"], 16)
    if "__complex__" in value:
        return complex(*(decode_value(v) for v in value["__complex__"]))
    if "__bytes__" in value:
        return bytes.fromhex(value["__bytes__"])
    if "__bytearray__" in value:
        return bytearray.fromhex(value["__bytearray__"])
    if "__subclass__" in value:
        inner = decode_value(value["value"])
        return _subclass(type(inner), str(value["__subclass__"]))(inner)
    if "__ndarray__" in value:
        import numpy as np

        dtype, shape, data = value["__ndarray__"]
        return np.array(decode_value(data), dtype=dtype).reshape(shape)
    if "__npscalar__" in value:
        import numpy as np

        dtype, data = value["__npscalar__"]
        return np.dtype(dtype).type(decode_value(data))
    if "__digest__" in value:
        return Digest(str(value["__digest__"]), bool(value.get("floats")), bool(value.get("uncomparable")))
    if "__opaque__" in value:
        return Opaque(str(value["__opaque__"]), str(value.get("repr", "")))
    return value


def _hashable(value: Any) -> Any:
    """Set members and dict keys came from hashable objects; lists here are decoded tuples' lists."""
    try:
        hash(value)
    except TypeError:
        return Opaque(type(value).__name__, repr(value)[:200])
    return value
