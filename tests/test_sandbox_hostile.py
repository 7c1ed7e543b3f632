"""Hostile code against the WebAssembly sandbox: one hostile environment per file in tests/hostile/.

Each program is a complete SPADE-style environment that tries to escape or harm the host at one moment: while
its module is imported, in ``__init__``, in ``reset`` or in ``step`` (a few in ``close``). Its header says how
the attempt must end::

    # expect: <verdict>[|<verdict>...] at <open_session|reset|step|close>
    # observation: <text>        (optional) the exact observation a "contained" call must return
    # check: <name>[,<name>]     (optional) extra host-side checks: reload-runs-source (a second session of the
                                 same source must run that source), bounded-error (the error's fields are
                                 what the host can vouch for: its phase, a line of the source or none, no
                                 SDK type name, one bounded line), output-bounded (captured output is cut
                                 to the limit on the host), class-name-bounded (the loaded class name is short)
    # weakness: <text>           (optional) a known sandbox weakness: the verdict check is expected to fail

Verdicts:

* ``blocked``: the environment itself saw its attempt fail and says so: the observation of that call starts
  with ``BLOCKED`` (a program that got through says ``ESCAPED``, which always fails the test);
* an SDK error type (``EnvTimeoutError``, ``EnvMemoryError``, ``EnvCrashError``, ``EnvLoadError``,
  ``ContractViolation``, ``EnvCodeError`` or ``EnvCodeError(<exception type raised in the environment>)``)
  raised by that call with a non-empty one-line message;
* ``contained``: every call returns normally and everything returned is plain, finite, UTF-8-encodable data
  of bounded depth (the host sanitised the hostile value).

Whatever the verdict, after every program the *host* is checked: the canary files in the test's temp
directory do not exist and the victim file is intact, the 127.0.0.1 TCP/UDP listeners saw no traffic, the
host's own state (cwd, environment, json, builtins, signal handlers, the SDK's dispatcher, ...) is unchanged,
nothing was flooded onto the host's stdout/stderr, no file descriptors or threads leaked, the run took a few
seconds at most, and a known-good environment still works on the same backend object.

A program marked ``# weakness:`` documents a hole found by this suite: the host checks still apply in full,
but the verdict check is expected to fail (the test xfails with the weakness as its reason, and fails loudly
once the weakness is fixed, so the header gets removed).

The ``process`` backend is documented as trusted-code-only. ``test_process_backend_documented_limits`` runs a
subset of these programs through it and asserts what it does and does not contain (see PROCESS_BEHAVIOUR),
so the documentation is checked; only harmless targets are used (the test's temp dir, its own listener,
/bin/echo).
"""

from __future__ import annotations

import ast
import builtins
import copy
import json
import math
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from spade_envs.runtime import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvRuntimeError,
    EnvTimeoutError,
    ExecutionLimits,
    create_backend,
)
from spade_envs.runtime.guest import EnvHost
from tests.conftest import COUNTER_ENV
from tests.pace import wall_seconds_for

HOSTILE_DIR = Path(__file__).resolve().parent / "hostile"
REPO_ROOT = Path(__file__).resolve().parent.parent
REPO_FILE = REPO_ROOT / "pyproject.toml"
SECRET_NAME = "SPADE_HOSTILE_SECRET"
LIMITS = ExecutionLimits(call_timeout_s=1.0, memory_mb=64)
LIMITED_CALLS_AT_MOST = 2
"""Calls of one program that may run to their instruction budget (a loop in step, then in the recovery)."""
MAX_PROGRAM_INSTRUCTIONS = LIMITED_CALLS_AT_MOST * (LIMITS.call_instructions or 0) + 2_000_000_000
"""The guest work one program may cost in the sandbox: its calls run to the limit, and the rest of its
calls (loading, a known-good reset) with room to spare. This, not seconds, says the limit held."""
MAX_PROGRAM_SECONDS = 2.0 + wall_seconds_for(MAX_PROGRAM_INSTRUCTIONS)
"""The wall-clock backstop for one program, for a machine three times slower than the reference VM
(``tests/pace.py``); with the process backend, whose limit is wall-clock time, far above its 1 s calls."""
MAX_CLOSE_SECONDS = 1.0 + wall_seconds_for(LIMITS.call_instructions or 0)
"""close() is one call: the backstop for its limit."""
MAX_HOST_GROWTH_MB = 256
"""The host's resident memory may not grow by this much while one program runs."""
MAX_PLAIN_DEPTH = 64
"""Deepest plain structure a 'contained' reply may carry (the guest itself truncates at about 33)."""
MAX_HOST_OUTPUT = 64 * 1024
VICTIM_TEXT = "victim file: must survive every hostile program\n"

SDK_ERRORS: dict[str, type[EnvRuntimeError]] = {
    cls.__name__: cls
    for cls in (EnvCodeError, EnvCrashError, EnvLoadError, EnvMemoryError, EnvTimeoutError, ContractViolation)
}
CALLS = ("open_session", "reset", "step", "close")

_ORIGINAL_HANDLE = EnvHost.handle
_ORIGINAL_JSON = (json.dumps, json.loads)
_BUILTIN_NAMES = (
    "str",
    "len",
    "isinstance",
    "type",
    "repr",
    "getattr",
    "__import__",
    "float",
    "dict",
    "list",
    "open",
    "print",
    "exit",
)
_ORIGINAL_BUILTINS = {name: getattr(builtins, name, None) for name in _BUILTIN_NAMES}
_ORIGINAL_SLEEP = time.sleep


# --------------------------------------------------------------------------------------------- programs
_EXPECT = re.compile(r"#\s*expect:\s*(?P<verdicts>\S+)\s+at\s+(?P<call>\w+)\s*$")
_VERDICT = re.compile(r"(?P<kind>blocked|contained|[A-Z]\w+)(?:\((?P<exc>\w+)\))?$")


@dataclass(frozen=True)
class Verdict:
    kind: str  # "blocked", "contained" or an SDK error class name
    exc_type: str | None = None  # for EnvCodeError(<type>)

    def __str__(self) -> str:
        return f"{self.kind}({self.exc_type})" if self.exc_type else self.kind


@dataclass(frozen=True)
class Program:
    path: Path
    verdicts: tuple[Verdict, ...]
    call: str
    observation: str | None = None
    weakness: str | None = None
    checks: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.path.stem

    def source(self, ctx: HostContext) -> str:
        text = self.path.read_text(encoding="utf-8")
        for token, value in ctx.placeholders().items():
            text = text.replace(token, value)
        return text


def _header_value(lines: list[str], key: str) -> str | None:
    for line in lines:
        match = re.match(rf"#\s*{key}:\s*(.+?)\s*$", line)
        if match:
            return match.group(1)
    return None


def read_program(path: Path) -> Program:
    lines = path.read_text(encoding="utf-8").splitlines()
    match = _EXPECT.fullmatch(lines[0].strip()) if lines else None
    if match is None or match.group("call") not in CALLS:
        raise ValueError(
            f"{path.name}: the first line must be '# expect: <verdict>[|...] at <{'|'.join(CALLS)}>'"
        )
    verdicts = []
    for token in match.group("verdicts").split("|"):
        parsed = _VERDICT.fullmatch(token)
        if parsed is None or parsed.group("kind") not in {"blocked", "contained", *SDK_ERRORS}:
            raise ValueError(f"{path.name}: unknown verdict {token!r}")
        verdicts.append(Verdict(parsed.group("kind"), parsed.group("exc")))
    header = [line for line in lines if line.startswith("#")]
    checks = _header_value(header, "check")
    return Program(
        path=path,
        verdicts=tuple(verdicts),
        call=match.group("call"),
        observation=_header_value(header, "observation"),
        weakness=_header_value(header, "weakness"),
        checks=frozenset(checks.split(",")) if checks else frozenset(),
    )


PROGRAMS: list[Program] = [read_program(path) for path in sorted(HOSTILE_DIR.glob("*.py"))]
PROGRAMS_BY_NAME = {program.name: program for program in PROGRAMS}

COVERAGE: dict[str, tuple[str, ...]] = {
    "host file reads": ("file_read_host", "file_read_at_import"),
    "host file writes (canary)": (
        "file_write_canary",
        "file_write_os_level",
        "sqlite_file",
        "file_delete_victim",
    ),
    "directory listing": ("dir_listing",),
    "sockets": ("tcp_connect", "udp_send", "listen_socket"),
    "dns": ("dns_lookup",),
    "http": ("http_request",),
    "subprocess / os.system / fork / exec": ("subprocess_run", "os_system_at_import", "os_fork", "os_exec"),
    "ctypes": ("ctypes_libc",),
    "threads / multiprocessing": ("threads_start", "multiprocessing_pool"),
    "signals": ("signals_host", "raise_signal"),
    "infinite loops": ("loop_step", "loop_at_import", "loop_catch_all", "loop_in_close"),
    "long sleeps": ("sleep_long", "sleep_real_builtin", "select_timeout", "poll_timeout", "event_wait"),
    "memory bombs": (
        "memory_list",
        "memory_bytes_doubling",
        "memory_string_concat",
        "memory_catch_retry",
        "memory_at_import",
    ),
    "recursion bombs": (
        "recursion_python",
        "recursion_limit_raised",
        "recursion_json_loads",
        "recursion_nested_repr",
        "recursion_parser_bomb",
    ),
    "output floods": ("print_flood", "fd_write_flood", "output_limit_bypass"),
    "huge return values": ("huge_observation_60mb", "huge_observation_4mb", "reply_limit_bypass"),
    "huge integers": (
        "huge_int_power",
        "huge_pow",
        "huge_int_reward",
        "huge_int_reward_range",
        "huge_int_info",
    ),
    "catastrophic regex": ("catastrophic_regex",),
    "decompression bombs": ("decompression_bomb", "decompressobj_bomb"),
    "import tricks": ("import_tricks", "builtins_import_replaced", "sys_modules_tamper"),
    "introspection escapes": ("introspection_subclasses", "introspection_gc", "introspection_frames"),
    "monkeypatching the guest": (
        "patch_dispatcher",
        "patch_dispatcher_ok_flag",
        "patch_json_garbage",
        "patch_json_huge",
        "patch_json_deep",
        "forged_deep_info",
        "forged_error_kind",
        "forged_surrogate_reply",
        "cache_poison",
    ),
    "exit calls": (
        "exit_sys_exit",
        "exit_os_exit",
        "exit_at_import",
        "exit_builtin_in_init",
        "keyboard_interrupt",
    ),
    "builtins tampering": ("builtins_tamper", "builtins_tamper_in_step"),
    "malicious returned objects": (
        "evil_str_observation",
        "evil_float_reward",
        "evil_info_key",
        "deep_info_1200",
        "self_referential_info",
        "shared_reference_bomb",
        "nan_reward",
        "inf_reward",
        "surrogate_observation",
        "evil_exception",
        "exception_message_injection",
    ),
    "environment variables": ("env_var_read",),
    "replies claiming what only the host knows": (
        "forged_timeout_kind",
        "forged_load_kind_after_load",
        "forged_exception_fields",
        "forged_output_flood",
        "class_name_huge",
        "reward_range_nan",
    ),
}


# --------------------------------------------------------------------------------------------- host fixtures
class Listener:
    """A TCP and a UDP socket on 127.0.0.1 that count every connection / datagram they get."""

    def __init__(self) -> None:
        self.tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.tcp.settimeout(0.1)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp.settimeout(0.1)
        self.tcp_port = self.tcp.getsockname()[1]
        self.udp_port = self.udp.getsockname()[1]
        self.connections = 0
        self.datagrams = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._accept_loop, name="hostile-tcp-listener", daemon=True),
            threading.Thread(target=self._udp_loop, name="hostile-udp-listener", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.tcp.accept()
            except (TimeoutError, OSError):
                continue
            with self._lock:
                self.connections += 1
            connection.close()

    def _udp_loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.udp.recvfrom(4096)
            except (TimeoutError, OSError):
                continue
            with self._lock:
                self.datagrams += 1

    def counts(self) -> tuple[int, int]:
        time.sleep(0.02)  # let an in-flight accept/recv land before reading
        with self._lock:
            return self.connections, self.datagrams

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=2)
        self.tcp.close()
        self.udp.close()


@pytest.fixture(scope="module", autouse=True)
def host_secret():
    """A secret in the host's environment that no environment may see."""
    value = "hostile-suite-" + secrets.token_hex(8)
    previous = os.environ.get(SECRET_NAME)
    os.environ[SECRET_NAME] = value
    yield value
    if previous is None:
        os.environ.pop(SECRET_NAME, None)
    else:
        os.environ[SECRET_NAME] = previous


@pytest.fixture(scope="module")
def listener():
    server = Listener()
    yield server
    server.close()


@pytest.fixture(scope="module")
def wasm_backend():
    return create_backend("wasm", LIMITS)


@pytest.fixture(scope="module")
def process_backend():
    return create_backend("process", LIMITS)


@dataclass
class HostContext:
    """The paths and ports handed to a hostile program, and what must stay as it is on the host."""

    tmp: Path
    listener: Listener
    canary: Path = field(init=False)
    victim: Path = field(init=False)

    def __post_init__(self) -> None:
        self.canary = self.tmp / "canary" / "pwned.txt"
        self.canary.parent.mkdir()
        self.victim = self.tmp / "victim.txt"
        self.victim.write_text(VICTIM_TEXT)
        self.victim.chmod(0o644)
        self.victim_stat = self.victim.stat()

    def placeholders(self) -> dict[str, str]:
        return {
            "@CANARY@": str(self.canary),
            "@VICTIM@": str(self.victim),
            "@PORT@": str(self.listener.tcp_port),
            "@UDP_PORT@": str(self.listener.udp_port),
            "@REPO_FILE@": str(REPO_FILE),
        }

    def init_kwargs(self) -> dict[str, Any]:
        return {
            "canary": str(self.canary),
            "victim": str(self.victim),
            "port": self.listener.tcp_port,
            "udp_port": self.listener.udp_port,
            "repo_file": str(REPO_FILE),
        }

    def leftovers(self) -> list[str]:
        """Files a hostile program created or changed in the temp dir (empty when the host is untouched)."""
        problems = sorted(
            str(path.relative_to(self.tmp))
            for path in self.tmp.rglob("*")
            if path not in (self.canary.parent, self.victim)
        )
        if not self.victim.exists():
            problems.append("victim.txt was deleted or moved")
        else:
            stat = self.victim.stat()
            if self.victim.read_text() != VICTIM_TEXT:
                problems.append("victim.txt was modified")
            if (stat.st_mode, stat.st_mtime_ns) != (self.victim_stat.st_mode, self.victim_stat.st_mtime_ns):
                problems.append("victim.txt metadata (mode/mtime) changed")
        return problems


def _open_fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:  # pragma: no cover - not Linux
        return 0


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # pragma: no cover - not Linux
        return 0.0


def host_snapshot(secret: str) -> dict[str, Any]:
    """What a hostile program must not be able to change in the host process."""
    return {
        "pid": os.getpid(),
        "cwd": os.getcwd(),
        "secret": os.environ.get(SECRET_NAME) == secret,
        "json functions": (json.dumps, json.loads) == _ORIGINAL_JSON,
        "json works": json.dumps({"a": [1, 2.5, None]}) == '{"a": [1, 2.5, null]}'
        and json.loads('{"x": [1]}') == {"x": [1]},
        "builtins": {
            name: getattr(builtins, name, None) is value for name, value in _ORIGINAL_BUILTINS.items()
        },
        "EnvHost.handle": EnvHost.handle is _ORIGINAL_HANDLE,
        "time.sleep": time.sleep is _ORIGINAL_SLEEP,
        "recursion limit": sys.getrecursionlimit(),
        "int digits": sys.get_int_max_str_digits(),
        "signals": {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)},
        "modules": {
            name: id(sys.modules.get(name)) for name in ("json", "os", "builtins", "spade_envs.runtime")
        },
        "stdio": (sys.stdout, sys.stderr),
    }


def known_good_still_works(backend) -> None:
    """A fresh session of a known-good environment on the same backend object: reset and win in one step."""
    with backend.open_session(COUNTER_ENV) as session:
        first = session.reset(7)
        target = re.search(r"It is (\d+) plus (\d+)\.", first.observation)
        assert target, f"known-good reset returned {first.observation!r}"
        result = session.step(f"\\boxed{{{int(target.group(1)) + int(target.group(2))}}}")
        assert (result.observation, result.reward, result.terminated) == ("correct", 1.0, True), result


# --------------------------------------------------------------------------------------------- running
@dataclass
class Outcome:
    call: str  # the last call made: where the run ended
    error: BaseException | None = None
    results: dict[str, Any] = field(default_factory=dict)  # call -> ResetResult / StepResult
    recovery: str | None = None  # after a failed step: how the next reset() went
    close_error: BaseException | None = None
    close_seconds: float = 0.0
    second_load_observation: str | None = None
    class_name: str | None = None
    output_chars: int = 0
    """The most captured output the host kept after any one call."""

    def observation(self, call: str) -> str | None:
        result = self.results.get(call)
        return getattr(result, "observation", None)


def _marker(observation: Any) -> bool:
    return isinstance(observation, str) and observation.startswith(("BLOCKED", "ESCAPED"))


def run_program(backend, source: str, ctx: HostContext, program: Program | None = None) -> Outcome:
    """open_session -> reset(0) -> step("go") -> close(), stopping at the first error or BLOCKED/ESCAPED report."""
    try:
        session = backend.open_session(source, init_kwargs=ctx.init_kwargs())
    except Exception as error:  # noqa: BLE001 -- anything, even a non-SDK exception, is recorded and judged
        return Outcome("open_session", error)
    outcome = Outcome("open_session", class_name=session.loaded.class_name)
    try:
        for call in ("reset", "step"):
            outcome.call = call
            try:
                result = session.reset(0) if call == "reset" else session.step("go")
                output = getattr(session._transport, "last_output", "") or ""
                outcome.output_chars = max(outcome.output_chars, len(output))
            except Exception as error:  # noqa: BLE001
                outcome.error = error
                if call == "step" and isinstance(error, EnvRuntimeError):
                    try:  # a broken session is replaced on the next reset()
                        outcome.recovery = "ok" if session.reset(1).observation else "empty observation"
                    except Exception as again:  # noqa: BLE001
                        outcome.recovery = f"{type(again).__name__}: {again}"
                return outcome
            outcome.results[call] = result
            if _marker(result.observation):
                return outcome
    finally:
        start = time.monotonic()
        try:
            session.close()
        except Exception as error:  # noqa: BLE001
            outcome.close_error = error
        outcome.close_seconds = time.monotonic() - start
    if program is not None and "reload-runs-source" in program.checks:
        try:
            with backend.open_session(source, init_kwargs=ctx.init_kwargs()) as again:
                outcome.second_load_observation = again.reset(0).observation
        except Exception as error:  # noqa: BLE001
            outcome.second_load_observation = f"<{type(error).__name__}: {error}>"
    return outcome


def _depth(value: Any, limit: int = 10_000) -> int:
    depth, level = 0, [value]
    while level and depth < limit:
        nxt = []
        for item in level:
            if isinstance(item, dict):
                nxt.extend(item.values())
            elif isinstance(item, list):
                nxt.extend(item)
        if not nxt:
            break
        level, depth = nxt, depth + 1
    return depth


def plain_problems(value: Any, where: str, depth: int = 0) -> list[str]:
    """Why ``value`` is not plain, finite, UTF-8-encodable JSON-like data of bounded depth."""
    if depth > MAX_PLAIN_DEPTH:
        deep = "?"
        try:
            copy.deepcopy(value)
        except RecursionError:
            deep = "RecursionError"
        return [
            f"{where}: nested deeper than {MAX_PLAIN_DEPTH} levels (copy.deepcopy of it on the host: {deep})"
        ]
    kind = type(value)
    if value is None or kind in (bool, int):
        return []
    if kind is float:
        return [] if math.isfinite(value) else [f"{where}: non-finite float {value!r}"]
    if kind is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return [f"{where}: a str that cannot be encoded as UTF-8 (lone surrogate)"]
        return []
    if kind is list:
        return [p for i, item in enumerate(value) for p in plain_problems(item, f"{where}[{i}]", depth + 1)][
            :3
        ]
    if kind is dict:
        problems = []
        for key, item in value.items():
            problems += (
                plain_problems(key, f"{where} key", depth + 1)
                if type(key) is str
                else [f"{where}: key {key!r}"]
            )
            problems += plain_problems(item, f"{where}[{key!r}]", depth + 1)
        return problems[:3]
    return [f"{where}: {kind.__name__} is not a plain value"]


def result_problems(call: str, result: Any) -> list[str]:
    problems = []
    if type(result.observation) is not str or not result.observation:
        problems.append(
            f"{call} observation is {type(result.observation).__name__} {result.observation!r:.60}"
        )
    problems += plain_problems(result.observation, f"{call}.observation")
    if call == "step":
        if type(result.reward) is not float or not math.isfinite(result.reward):
            problems.append(f"step reward is {type(result.reward).__name__} {result.reward!r}")
        for name in ("terminated", "truncated"):
            if type(getattr(result, name)) is not bool:
                problems.append(f"step {name} is {type(getattr(result, name)).__name__}")
    problems += plain_problems(result.info, f"{call}.info")
    return problems


def verdict_problems(program: Program, outcome: Outcome) -> list[str]:
    """Empty when the run ended as the program's header says."""
    problems: list[str] = []
    for call, result in outcome.results.items():
        if isinstance(getattr(result, "observation", None), str) and result.observation.startswith("ESCAPED"):
            problems.append(f"ESCAPED at {call}: {result.observation[:300]}")
    expected = " or ".join(map(str, program.verdicts))
    error = outcome.error
    if error is not None:
        name = type(error).__name__
        if not isinstance(error, EnvRuntimeError):
            problems.append(f"{outcome.call}() raised {name}, not an SDK error type: {error}")
            return problems
        if outcome.call != program.call:
            problems.append(f"{outcome.call}() raised {name}, expected {expected} at {program.call}: {error}")
        matching = [v for v in program.verdicts if v.kind == name]
        if not matching:
            problems.append(f"{outcome.call}() raised {name} ({error}); expected {expected}")
        elif isinstance(error, EnvCodeError) and all(
            v.exc_type not in (None, error.exc_type) for v in matching
        ):
            problems.append(f"EnvCodeError for {error.exc_type}; expected {expected}")
        message = str(error)
        if not message.strip():
            problems.append(f"{name} has an empty message")
        elif "\n" in message or "\r" in message:
            problems.append(f"{name} message spans {message.count(chr(10)) + 1} lines ({len(message)} chars)")
        if "bounded-error" in program.checks:
            problems += bounded_error_problems(program, error)
        return problems
    kinds = {v.kind for v in program.verdicts}
    if "blocked" in kinds and _marker(outcome.observation(program.call)):
        return problems  # BLOCKED (or ESCAPED, reported above) at the expected call
    if "contained" in kinds:
        for call, result in outcome.results.items():
            problems += result_problems(call, result)
        wanted = program.call if program.call in ("reset", "step") else "step"
        if outcome.call != "step" and program.call != "reset":
            problems.append(f"the run stopped at {outcome.call}() instead of completing")
        if program.observation is not None and outcome.observation(wanted) != program.observation:
            problems.append(
                f"{wanted} observation {outcome.observation(wanted)!r:.80}, expected {program.observation!r}"
            )
        if program.call == "close" and (
            outcome.close_error is not None or outcome.close_seconds > MAX_CLOSE_SECONDS
        ):
            problems.append(f"close() raised {outcome.close_error!r} after {outcome.close_seconds:.1f} s")
        if "output-bounded" in program.checks and outcome.output_chars > LIMITS.max_output_bytes:
            problems.append(f"the host kept {outcome.output_chars:,} characters of output, over the "
                            f"{LIMITS.max_output_bytes:,} limit")
        if "class-name-bounded" in program.checks and len(outcome.class_name or "") > 200:
            problems.append(f"the loaded class name has {len(outcome.class_name or ''):,} characters")
        if "reload-runs-source" in program.checks and outcome.second_load_observation != outcome.observation(
            "reset"
        ):
            problems.append(
                f"a second session of the same source ran other code: reset said "
                f"{outcome.second_load_observation!r:.80} instead of {outcome.observation('reset')!r:.80}"
            )
        return problems
    got = outcome.observation(outcome.call)
    problems.append(
        f"the run ended normally at {outcome.call}() with {got!r:.200}; expected {expected} at {program.call}"
    )
    return problems


def bounded_error_problems(program: Program, error: BaseException) -> list[str]:
    """An error built from a forged reply may only carry what the host can vouch for."""
    problems = []
    if isinstance(error, EnvCodeError):
        lines = program.path.read_text(encoding="utf-8").count("\n") + 1
        if error.line is not None and not 1 <= error.line <= lines:
            problems.append(f"line {error.line} is not a line of the source")
        if error.phase != program.call:
            problems.append(f"phase {error.phase!r}, but the host sent {program.call}()")
        if error.exc_type in SDK_ERRORS:
            problems.append(f"the exception passes for the host's own {error.exc_type}")
        if len(error.exc_message) > 300 or "\n" in error.exc_message:
            problems.append(f"message of {len(error.exc_message):,} characters or several lines")
    if isinstance(error, EnvTimeoutError):
        problems.append("a forged reply became a timeout")
    return problems


def host_problems(
    ctx: HostContext,
    before: dict[str, Any],
    secret: str,
    counts: tuple[int, int],
    fds: int,
    threads: int,
    capfd,
) -> list[str]:
    problems = []
    leftovers = ctx.leftovers()
    if leftovers:
        problems.append(f"host files touched: {leftovers}")
    now_counts = ctx.listener.counts()
    if now_counts != counts:
        problems.append(f"listener traffic: connections/datagrams {counts} -> {now_counts}")
    after = host_snapshot(secret)
    changed = [key for key in before if before[key] != after[key]]
    if changed:
        problems.append(f"host state changed: {changed}")
    if _open_fds() > fds + 3:
        problems.append(f"file descriptors leaked: {fds} -> {_open_fds()}")
    if threading.active_count() > threads:
        problems.append(f"threads leaked: {threads} -> {threading.active_count()}")
    out, err = capfd.readouterr()
    if "HOSTILE" in out + err or len(out) + len(err) > MAX_HOST_OUTPUT:
        problems.append(f"host stdout/stderr got {len(out) + len(err)} chars: {(out + err)[:200]!r}")
    return problems


# --------------------------------------------------------------------------------------------- tests
def _params() -> list:
    return [pytest.param(program, id=program.name) for program in PROGRAMS]


@pytest.mark.parametrize("program", _params())
def test_hostile_program_in_wasm(program: Program, wasm_backend, listener, host_secret, tmp_path, capfd):
    ctx = HostContext(tmp_path, listener)
    source = program.source(ctx)
    capfd.readouterr()
    before = host_snapshot(host_secret)
    counts, fds, threads = listener.counts(), _open_fds(), threading.active_count()
    rss_before = _rss_mb()

    work = wasm_backend.instructions_executed
    start = time.monotonic()
    outcome = run_program(wasm_backend, source, ctx, program)
    elapsed = time.monotonic() - start
    work = wasm_backend.instructions_executed - work

    # The host must be unharmed whatever the verdict: these are never excused by a weakness header.
    problems = host_problems(ctx, before, host_secret, counts, fds, threads, capfd)
    assert not problems, f"{program.name}: the HOST was affected: {problems}"
    assert work <= MAX_PROGRAM_INSTRUCTIONS, f"{program.name}: the guest executed {work:.3g} instructions"
    assert elapsed < MAX_PROGRAM_SECONDS, f"{program.name}: took {elapsed:.1f} s"
    assert outcome.close_error is None, f"{program.name}: session.close() raised {outcome.close_error!r}"
    assert outcome.close_seconds < MAX_CLOSE_SECONDS, f"close() took {outcome.close_seconds:.1f} s"
    assert _rss_mb() - rss_before < MAX_HOST_GROWTH_MB, (
        f"{program.name}: host memory grew {rss_before:.0f} -> {_rss_mb():.0f} MB"
    )
    known_good_still_works(wasm_backend)
    if outcome.recovery is not None:
        assert outcome.recovery == "ok", (
            f"{program.name}: the session did not recover after step: {outcome.recovery}"
        )

    problems = verdict_problems(program, outcome)
    if program.weakness:
        if problems:
            pytest.xfail(f"known weakness: {program.weakness} -- observed: {problems}")
        pytest.fail(
            f"{program.name}: the weakness {program.weakness!r} seems fixed; remove its '# weakness:' header"
        )
    assert not problems, f"{program.name}: {problems}"


# What the process backend (documented: trusted code only) does with some of these programs. ``contained``
# False means the escape works there: the test asserts that it does, so the documentation stays honest.
@dataclass(frozen=True)
class ProcessBehaviour:
    contained: bool
    evidence: str  # how the test tells: "observation", "canary", "listener", "victim" or an SDK error name
    note: str


PROCESS_BEHAVIOUR: dict[str, ProcessBehaviour] = {
    "file_read_host": ProcessBehaviour(False, "observation", "reads /etc/passwd and the repository's files"),
    "dir_listing": ProcessBehaviour(False, "observation", "lists the host's directories"),
    "file_write_canary": ProcessBehaviour(
        False,
        "canary",
        "RLIMIT_FSIZE=0 stops writing bytes, not creating files: the (empty) canary is created",
    ),
    "file_delete_victim": ProcessBehaviour(
        False, "victim", "deletes host files (RLIMIT_FSIZE does not cover unlink)"
    ),
    "tcp_connect": ProcessBehaviour(False, "listener", "opens TCP connections (no network isolation)"),
    "http_request": ProcessBehaviour(False, "listener", "makes HTTP requests (no network isolation)"),
    "subprocess_run": ProcessBehaviour(False, "observation", "starts host programs (/bin/echo here)"),
    "signals_host": ProcessBehaviour(
        False,
        "observation",
        "can signal the host: os.kill(os.getppid(), 0) succeeds (only signal 0 is sent here)",
    ),
    "env_var_read": ProcessBehaviour(True, "observation", "the child gets a fixed, minimal environment"),
    "loop_step": ProcessBehaviour(True, "EnvTimeoutError", "the child is killed at the call deadline"),
    "memory_list": ProcessBehaviour(True, "EnvMemoryError", "RLIMIT_AS turns a memory bomb into MemoryError"),
}


@pytest.mark.parametrize("name", sorted(PROCESS_BEHAVIOUR))
def test_process_backend_documented_limits(name, process_backend, listener, host_secret, tmp_path, capfd):
    behaviour = PROCESS_BEHAVIOUR[name]
    program = PROGRAMS_BY_NAME[name]
    ctx = HostContext(tmp_path, listener)
    capfd.readouterr()
    before = host_snapshot(host_secret)
    counts = listener.counts()

    start = time.monotonic()
    outcome = run_program(process_backend, program.source(ctx), ctx)
    elapsed = time.monotonic() - start

    after = host_snapshot(host_secret)
    assert [k for k in before if before[k] != after[k]] == [], "the process backend changed the host process"
    assert elapsed < MAX_PROGRAM_SECONDS, f"took {elapsed:.1f} s"
    known_good_still_works(process_backend)
    observation = outcome.observation(program.call) or ""
    if behaviour.evidence in SDK_ERRORS:
        assert type(outcome.error).__name__ == behaviour.evidence, (name, outcome.error)
        return
    if behaviour.contained:
        assert observation.startswith("BLOCKED"), (
            f"{name}: expected contained ({behaviour.note}): {observation!r}"
        )
        assert SECRET_NAME not in observation and host_secret not in observation
        assert ctx.leftovers() == [] and listener.counts() == counts
        return
    # Not contained: assert the escape really happens, so the 'trusted code only' note stays true.
    harm = {
        "observation": observation.startswith("ESCAPED"),
        "canary": ctx.canary.exists(),
        "victim": not ctx.victim.exists(),
        "listener": listener.counts()[0] > counts[0],
    }[behaviour.evidence]
    assert harm, (
        f"{name}: the process backend now contains this ({behaviour.note} no longer holds): "
        f"{observation!r:.200}, error={outcome.error!r}; update PROCESS_BEHAVIOUR and its docstring"
    )


SMALL_STACK_SCRIPT = """
import sys, threading
from spade_envs.runtime import ExecutionLimits, create_backend

backend = create_backend("wasm", ExecutionLimits(call_timeout_s=2.0, memory_mb=64))
source = open(sys.argv[1], encoding="utf-8").read()
verdicts = []

def run():
    try:
        session = backend.open_session(source)
        session.reset(0)
        session.step("go")
        session.close()
    except Exception as error:
        verdicts.append(type(error).__name__)

threading.stack_size(int(sys.argv[2]) * 1024)
worker = threading.Thread(target=run)
worker.start()
worker.join()
print("VERDICTS", verdicts)
"""


@pytest.mark.parametrize("program_name", ["recursion_json_loads"])
def test_stack_overflow_from_a_small_stack_host_thread(program_name):
    """A guest stack overflow must not take the host down when the host calls in from a thread with a small stack.

    The guest's wasm stack lives on the calling host thread's native stack (wasmtime's max_wasm_stack is 512 KiB
    by default). Run in a child process because the old failure mode was a segfault of the whole host process.
    """
    completed = subprocess.run(
        [sys.executable, "-c", SMALL_STACK_SCRIPT, str(HOSTILE_DIR / f"{program_name}.py"), "512"],
        check=False,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The host refuses to enter the sandbox from a thread too small for the guest's stack (it used to
    # segfault): the verdict is a clean EnvCrashError and the host process survives.
    assert completed.returncode == 0, f"host died: exit {completed.returncode}, stderr {completed.stderr[-300:]!r}"
    assert "VERDICTS ['EnvCrashError']" in completed.stdout, completed.stdout[-300:]


def test_program_headers_and_coverage():
    assert len(PROGRAMS) >= 40
    missing = sorted({name for names in COVERAGE.values() for name in names} - set(PROGRAMS_BY_NAME))
    assert not missing, f"COVERAGE names programs that do not exist: {missing}"
    uncovered = sorted(set(PROGRAMS_BY_NAME) - {name for names in COVERAGE.values() for name in names})
    assert not uncovered, f"programs not listed in COVERAGE: {uncovered}"
    for program in PROGRAMS:
        text = program.path.read_text(encoding="utf-8")
        assert "# attack:" in text, f"{program.name}: say what it attacks and when in an '# attack:' line"
        tree = ast.parse(text)
        env_classes = [
            n.name
            for n in tree.body
            if isinstance(n, ast.ClassDef) and n.name.endswith("Env") and not n.name.startswith("_")
        ]
        assert len(env_classes) == 1, f"{program.name}: expected one public *Env class, found {env_classes}"
        for method in (
            "def __init__(self, max_turns=10, **kwargs)",
            "def reset(self, seed=None)",
            "def step(self, action)",
            "def solution(self)",
            "def close(self)",
        ):
            assert method in text, f"{program.name}: missing {method}"
