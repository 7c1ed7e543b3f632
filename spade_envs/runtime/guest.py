"""The request dispatcher that lives next to the environment object.

Every backend runs environment code through this one dispatcher: ``inprocess`` calls it directly,
the ``process`` and ``wasm`` backends run it on the far side of a pipe or a sandbox boundary. It is
standard-library only so it can be embedded in a WebAssembly guest.

Requests and replies are plain dicts: ``{"op": "load" | "reset" | "step" | "play" | "episodes" |
"oracle" | "solution" | "tools" | "hint" | "audit" | "spawn" | "close", ...}`` -> ``{"ok": True,
"result": ...}`` or ``{"ok": False, "error": {...}}``. The dispatcher never lets an exception escape and
never calls methods of objects the environment created while describing an error, because those
methods are untrusted code too.

Validation must look like play to the environment (a designer trained against the validator would
otherwise learn to behave only while checked), so:

* every call into environment code goes through one function (``_call``) from one loop
  (``_run``), whatever the request: a batch of episodes and a single ``step`` reach the environment
  through the same frames, holding no operation name;
* the environment's clock is virtual (``VirtualClock``): ``time`` and ``datetime`` imported by
  environment code tell a time that advances by a fixed tick per reading, never the real one, so the
  pace of requests cannot be measured. The host chooses where the clock starts; the checker starts
  two sessions at different times to find environments whose behaviour depends on the clock.
"""

from __future__ import annotations

import base64
import builtins
import datetime as _real_datetime
import hashlib
import marshal
import time as _real_time
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from spade_envs.contract import math_verify_shim
from spade_envs.contract.allowlist import PROVIDED_MODULES
from spade_envs.contract.episode import env_class_candidates
from spade_envs.contract.tool_use import ToolUseBaseEnv
from spade_envs.runtime.programs import FuzzExample, FuzzSetup, episode_ended

ENV_FILENAME = "<environment>"
MAX_PLAIN_DEPTH = 32
MAX_BATCH_EPISODES = 256
"""Episodes one ``episodes`` or ``oracle`` request may ask for."""
_SAFE_SCALARS = frozenset((str, int, float, bool, type(None)))
"""Exact types copied as they are (a set: one hash lookup instead of a scan of five types)."""


class EnvClassNotFound(LookupError):
    """The module does not define exactly one public ``*Env`` class (or the named one)."""


def find_env_class(namespace: dict[str, Any], module_name: str, class_name: str | None) -> type:
    """The environment class defined by the module: the one named, or the only public ``*Env`` class."""
    if class_name is not None:
        found = namespace.get(class_name)
        if not isinstance(found, type):
            raise EnvClassNotFound(f"the module defines no class named {class_name!r}")
        return found
    defined = [name for name, value in namespace.items()
               if isinstance(value, type) and getattr(value, "__module__", None) == module_name]
    candidates = [namespace[name] for name in env_class_candidates(defined)]
    if len(candidates) != 1:
        found_names = ", ".join(sorted(c.__name__ for c in candidates)) or "none"
        raise EnvClassNotFound(f"expected exactly one public class named *Env, found {found_names}")
    return candidates[0]


def safe_text(value: object, limit: int = 2000) -> str:
    """Describe a value without running any of its methods (they may be hostile)."""
    if isinstance(value, str) and type(value) is str:
        return value[:limit]
    if type(value) in (int, float, bool) or value is None:
        if type(value) is int and value.bit_length() > 64:
            return f"<int of {value.bit_length()} bits>"
        return repr(value)[:limit]
    return f"<{type(value).__name__} object>"


def to_plain(value: Any, depth: int = 0) -> Any:
    """Copy a value into plain JSON types, replacing anything else by a short type tag."""
    if depth > MAX_PLAIN_DEPTH:
        return "<too deep>"
    kind = type(value)
    if kind in _SAFE_SCALARS:
        return value
    # Exact containers first (every reply is one), scalars copied inline: replies are mostly flat, and a
    # call per item was most of the cost.
    if kind is tuple or kind is list:
        return [item if type(item) in _SAFE_SCALARS else to_plain(item, depth + 1) for item in value]
    if kind is dict:
        return {key if type(key) is str and len(key) <= 200 else safe_text(key, 200):
                item if type(item) in _SAFE_SCALARS else to_plain(item, depth + 1) for key, item in value.items()}
    # Subclasses of str/int/float are copied with the base type's own C methods, so that no method the
    # environment overrode (__str__, __float__, __eq__) runs while describing its reply.
    if isinstance(value, str):
        return str.__getitem__(value, slice(None))
    if isinstance(value, float):
        return float.__add__(value, 0.0)
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__add__(value, 0)
    return f"<{kind.__name__} object>"


def format_env_traceback(error: BaseException, source_lines: list[str]) -> tuple[str, int | None]:
    """The traceback restricted to frames of the environment's own file, with their source lines.

    Returns the text and the line number of the innermost environment frame.
    """
    lines: list[str] = []
    last_line: int | None = None
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == ENV_FILENAME:
            last_line = tb.tb_lineno
            text = source_lines[last_line - 1].strip() if 0 < last_line <= len(source_lines) else ""
            lines.append(f"  line {last_line}, in {code.co_name}\n    {text}")
        tb = tb.tb_next
    if isinstance(error, SyntaxError) and error.lineno:
        last_line = error.lineno
    message = describe_exception(error)
    body = "\n".join(lines)
    head = "Traceback (environment frames only):\n" + body + "\n" if body else ""
    return f"{head}{type(error).__name__}: {message}", last_line


def describe_exception(error: BaseException) -> str:
    """An exception's message built from its plain arguments only, never from its ``__str__``."""
    if isinstance(error, SyntaxError):
        return f"{error.msg} (line {error.lineno})"
    args = getattr(error, "args", ())
    if type(args) is not tuple:
        return "<unprintable exception>"
    return ", ".join(safe_text(arg, 300) for arg in args[:5])[:600]


def _error_kind(error: BaseException) -> str:
    if isinstance(error, MemoryError):
        return "memory"
    if isinstance(error, EnvClassNotFound):
        return "load"
    return "exception"


# ---------------------------------------------------------------------- the environment's clock
class VirtualClock:
    """The time environment code sees: ``start`` plus ``tick`` seconds per reading, never the real clock.

    A fixed tick per reading keeps time moving (code that divides by an elapsed time still works) while
    revealing nothing about how fast requests arrive. ``sleep`` returns at once and moves nothing: an
    environment has no reason to wait.
    """

    MONOTONIC_BASE = 10_000.0

    def __init__(self, start: float, tick: float = 0.001) -> None:
        self.restart(start, tick)

    def restart(self, start: float, tick: float = 0.001) -> None:
        """Set the clock anew (a prepared namespace's clock is set by the load that uses it)."""
        self.start = float(start)
        self.tick = float(tick)
        self.elapsed = 0.0

    def read(self) -> float:
        self.elapsed += self.tick
        return self.start + self.elapsed

    def monotonic(self) -> float:
        self.elapsed += self.tick
        return self.MONOTONIC_BASE + self.elapsed

    def sleep(self, seconds: Any) -> None:
        """Waiting is not allowed in an environment; the call is accepted and ignored."""


def _time_module(clock: VirtualClock) -> types.ModuleType:
    """A ``time`` module whose clocks read ``clock``; everything else is the real module's."""
    module = types.ModuleType("time", _real_time.__doc__)
    module.__dict__.update({k: v for k, v in vars(_real_time).items() if not k.startswith("__")})

    def ns(seconds: float) -> int:
        return int(seconds * 1_000_000_000)

    def when(secs: Any) -> float:
        return clock.read() if secs is None else secs

    module.__dict__.update(
        time=clock.read, time_ns=lambda: ns(clock.read()),
        monotonic=clock.monotonic, monotonic_ns=lambda: ns(clock.monotonic()),
        perf_counter=clock.monotonic, perf_counter_ns=lambda: ns(clock.monotonic()),
        process_time=lambda: clock.monotonic() - clock.MONOTONIC_BASE,
        process_time_ns=lambda: ns(clock.monotonic() - clock.MONOTONIC_BASE),
        thread_time=lambda: clock.monotonic() - clock.MONOTONIC_BASE,
        thread_time_ns=lambda: ns(clock.monotonic() - clock.MONOTONIC_BASE),
        sleep=clock.sleep,
        localtime=lambda secs=None: _real_time.localtime(when(secs)),
        gmtime=lambda secs=None: _real_time.gmtime(when(secs)),
        ctime=lambda secs=None: _real_time.ctime(when(secs)),
        asctime=lambda t=None: _real_time.asctime(_real_time.localtime(clock.read()) if t is None else t),
        strftime=lambda fmt, t=None: _real_time.strftime(fmt, _real_time.localtime(clock.read()) if t is None
                                                           else t),
    )
    return module


def _datetime_module(clock: VirtualClock) -> types.ModuleType:
    """A ``datetime`` module whose ``now``/``today``/``utcnow`` read ``clock``."""
    module = types.ModuleType("datetime", _real_datetime.__doc__)
    module.__dict__.update({k: v for k, v in vars(_real_datetime).items() if not k.startswith("__")})

    class datetime(_real_datetime.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return cls.fromtimestamp(clock.read(), tz)

        @classmethod
        def today(cls) -> Any:
            return cls.fromtimestamp(clock.read())

        @classmethod
        def utcnow(cls) -> Any:
            return cls.fromtimestamp(clock.read(), _real_datetime.timezone.utc).replace(tzinfo=None)

    class date(_real_datetime.date):
        @classmethod
        def today(cls) -> Any:
            return cls.fromtimestamp(clock.read())

    datetime.__module__ = date.__module__ = "datetime"
    module.datetime, module.date = datetime, date  # type: ignore[attr-defined]
    return module


class _EnvImporter:
    """``__import__`` for environment code: the virtual clock's modules and the provided stand-ins."""

    def __init__(self, clock: VirtualClock) -> None:
        self._special: dict[str, Any] = {"time": _time_module(clock), "datetime": _datetime_module(clock)}
        provided = {module.__name__: module for module in (math_verify_shim,)}
        for name, module_path in PROVIDED_MODULES.items():
            self._special[name] = provided[module_path]

    def __call__(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                 level: int = 0) -> Any:
        if level == 0 and name in self._special:
            return self._special[name]
        return builtins.__import__(name, globals, locals, fromlist, level)


def _env_builtins(clock: VirtualClock) -> dict[str, Any]:
    namespace = dict(vars(builtins))
    namespace["__import__"] = _EnvImporter(clock)
    return namespace


@dataclass
class EnvironmentNamespace:
    """What environment code runs against: its clock, and builtins whose ``__import__`` serves the clock's
    ``time`` and ``datetime`` and the provided stand-ins.

    A host builds one per load (``fresh``). The sandbox's guest builds one when its image is made and
    hands it to its only host (``EnvHost(prepared=...)``): every session is a fresh copy of that image,
    so the first load of a session finds it ready, and only sets its clock. Building it per load (a copy
    of the builtins, two modules, two classes) wrote to about 100 more pages of the image, each a
    copy-on-write fault of the session's memory (750 faults per load before, 652 after).
    """

    clock: VirtualClock
    builtins: dict[str, Any]

    @classmethod
    def fresh(cls, clock: VirtualClock) -> EnvironmentNamespace:
        return cls(clock, _env_builtins(clock))


# ---------------------------------------------------------------------- the dispatcher
class EnvHost:
    """Holds one environment instance (plus siblings) and serves requests against it."""

    def __init__(self, passthrough: tuple[type[BaseException], ...] = (), *,
                 prepared: EnvironmentNamespace | None = None) -> None:
        # ``passthrough`` lets a host-side interrupt (a deadline alarm) escape instead of being
        # reported as an exception of the environment. ``prepared``: the namespace the first load uses
        # (see ``EnvironmentNamespace``); later loads build their own.
        self.passthrough = passthrough
        self._prepared = prepared
        self.envs: list[Any] = []  # index 0 is the session's environment; more only via "spawn"
        self.env_class: type | None = None
        self.init_kwargs: dict[str, Any] = {}
        self.source_lines: list[str] = []
        self.clock = VirtualClock(_real_time.time())

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        handler = getattr(self, "_op_" + str(op), None)
        if handler is None:
            return {"ok": False, "error": {"kind": "protocol", "message": f"unknown request {op!r}"}}
        try:
            return {"ok": True, "result": handler(request)}
        except self.passthrough:
            raise
        except BaseException as error:  # noqa: BLE001 -- environment code may raise anything, even SystemExit
            text, line = format_env_traceback(error, self.source_lines)
            return {
                "ok": False,
                "error": {
                    "kind": _error_kind(error),
                    "phase": str(op),
                    "type": type(error).__name__,
                    "message": describe_exception(error),
                    "traceback": text,
                    "line": line,
                },
            }

    # ------------------------------------------------------------------ the one way into environment code
    @staticmethod
    def _call(method: Any, *args: Any, **kwargs: Any) -> Any:
        """Every call of environment code, whatever the request, is made from here."""
        return method(*args, **kwargs)

    def _run(self, env: Any, calls: Iterable[tuple[str, Any]],
             results: list[tuple[str, Any]] | None = None) -> list[tuple[str, Any]]:
        """Make ``calls`` ((method name, argument) pairs) on ``env`` in order; (name, plain result) pairs.

        An episode stops early when a step ends it (the remaining steps of that episode are skipped, the
        next ``reset`` starts the next episode), so a batch of episodes and single requests put the
        environment through exactly the same sequence of calls. ``step_after_end`` is a step that is made
        even then (the fuzzer's probe of a finished episode).

        ``calls`` may be a generator that reads ``results`` (an episode program, ``runtime/programs.py``):
        each reply is appended before the next call is drawn, and the generator is suspended, off the
        stack, whenever environment code runs.
        """
        results = [] if results is None else results
        skipping = False
        for name, argument in calls:
            if name == "reset":
                skipping = False
                results.append((name, to_plain(self._call(env.reset, seed=argument))))
            elif name == "step" or name == "step_after_end":
                if skipping and name == "step":
                    continue
                reply = to_plain(self._call(env.step, argument))
                results.append((name, reply))
                skipping = episode_ended(reply)
            else:  # solution, hint, get_tools: optional methods
                method = getattr(env, name, None)
                results.append((name, to_plain(self._call(method)) if callable(method) else None))
        return results

    def _one(self, request: dict[str, Any], name: str, argument: Any = None) -> Any:
        return self._run(self._env(request), [(name, argument)])[0][1]

    # ------------------------------------------------------------------ operations
    def _op_load(self, request: dict[str, Any]) -> dict[str, Any]:
        source = request["source"]
        self.source_lines = source.splitlines()
        clock = request.get("clock") if isinstance(request.get("clock"), dict) else {}
        start, tick = clock.get("start"), clock.get("tick")
        start = start if type(start) in (int, float) else _real_time.time()
        tick = tick if type(tick) in (int, float) and 0 < tick < 10**6 else 0.001
        environment, self._prepared = self._prepared, None  # a prepared namespace serves one load only
        if environment is None:
            environment = EnvironmentNamespace.fresh(VirtualClock(start, tick))
        else:
            environment.clock.restart(start, tick)
        self.clock = environment.clock
        # A sandbox host may send the module already compiled (see ``_op_compile``): compiling is most
        # of the cost of a load, and every environment is loaded dozens of times.
        cached = request.get("compiled")
        code = marshal.loads(base64.b64decode(cached)) if cached else compile(source, ENV_FILENAME, "exec")
        module_name = "spade_environment"
        namespace: dict[str, Any] = {
            "__name__": module_name,
            "__builtins__": environment.builtins,
            "ToolUseBaseEnv": ToolUseBaseEnv,
        }
        exec(code, namespace)  # noqa: S102 -- this *is* the loader; backends decide where it runs
        env_class = find_env_class(namespace, module_name, request.get("class_name"))
        kwargs = dict(request.get("init_kwargs") or {})
        if request.get("max_turns") is not None:
            kwargs["max_turns"] = request["max_turns"]
        env = self._call(env_class, **kwargs)
        self.envs, self.env_class, self.init_kwargs = [env], env_class, kwargs
        declared = getattr(env_class, "reward_range", None)
        max_turns = getattr(env, "max_turns", None)
        return {
            "class_name": env_class.__name__,
            "tool_use": isinstance(env, ToolUseBaseEnv),
            "max_turns": max_turns if type(max_turns) is int else None,
            "reward_range": to_plain(declared) if type(declared) in (tuple, list) else None,
        }

    def _op_compile(self, request: dict[str, Any]) -> str:
        """Compile a module without running it; the marshalled code, base64-encoded.

        Hosts must only ask a pristine instance, one that has never run environment code, and then
        discard it: an instance that ran environment code can forge any reply.
        """
        code = compile(request["source"], ENV_FILENAME, "exec")
        return base64.b64encode(marshal.dumps(code)).decode()

    def _env(self, request: dict[str, Any]) -> Any:
        index = request.get("instance", 0)
        if type(index) is not int or not 0 <= index < len(self.envs):
            raise LookupError(f"no environment instance {index!r}; load one first")
        return self.envs[index]

    def _op_spawn(self, request: dict[str, Any]) -> int:
        """Construct another instance of the loaded class in the same module.

        Used to check that instances share no state (class-level lists, module globals): separate
        sessions cannot see such leaks because each has its own module.
        """
        if self.env_class is None:
            raise LookupError("no environment loaded")
        self.envs.append(self._call(self.env_class, **self.init_kwargs))
        return len(self.envs) - 1

    def _op_reset(self, request: dict[str, Any]) -> Any:
        return self._one(request, "reset", request.get("seed"))

    def _op_step(self, request: dict[str, Any]) -> Any:
        return self._one(request, "step", request["action"])

    def _op_play(self, request: dict[str, Any]) -> Any:
        """reset(seed), then step through ``actions``, stopping at the end of the episode.

        Scripted episodes (replays, solution checks, constant policies) go through one call instead
        of one per step: the per-call cost of crossing into the sandbox is larger than most steps.
        """
        calls = [("reset", request.get("seed"))] + [("step", a) for a in request.get("actions", [])]
        return [result for _, result in self._run(self._env(request), calls)]

    def _op_episodes(self, request: dict[str, Any]) -> list[Any]:
        """Several episodes in one request, with compact traces.

        ``plans`` is a list of scripted episodes, ``{"seed": s, "actions": [...]}``, with ``"after_end":
        true`` for one more step with the last action played once the episode has ended; ``record`` says
        what comes back per episode: ``"outcome"`` (each step's reward, terminated, truncated and whether its
        types were right), ``"first"`` (that plus the first observation) or ``"full"`` (every reply).

        With ``fuzz`` (a ``FuzzSetup``) the plans are fuzz examples instead, ``{"example": seed of its
        generator, "simplest": bool}``, each drawing its actions as it plays (``runtime/programs.py``);
        their traces hold every reply and the actions drawn.
        """
        plans = request.get("plans")
        if type(plans) is not list or len(plans) > MAX_BATCH_EPISODES:
            raise ValueError(f"episodes needs a list of at most {MAX_BATCH_EPISODES} plans")
        if request.get("fuzz") is not None:
            return self._fuzz_examples(self._env(request), FuzzSetup.from_wire(request["fuzz"]), plans)
        record = request.get("record", "outcome")
        traces: list[dict[str, Any]] = []
        results: list[tuple[str, Any]] = []
        for name, reply in self._run(self._env(request), _scripted(plans, results), results):
            if name == "reset":  # a new episode begins
                traces.append({"first": reply if record != "outcome" else None, "steps": []})
            elif name == "step_after_end":
                traces[-1]["after_end"] = reply if record == "full" else _outcome(reply)
            else:
                traces[-1]["steps"].append(reply if record == "full" else _outcome(reply))
        return traces

    def _fuzz_examples(self, env: Any, setup: FuzzSetup, plans: list[Any]) -> list[Any]:
        examples = []
        for plan in plans:
            seed = plan.get("example") if type(plan) is dict else None
            if type(seed) is not int or not 0 <= seed < 2**64:
                raise ValueError("a fuzz plan needs the seed of its generator")
            examples.append(FuzzExample(setup, seed, simplest=plan.get("simplest") is True))
        results: list[tuple[str, Any]] = []
        self._run(env, (call for example in examples for call in example.calls(results)), results)
        return [example.trace for example in examples]

    def _op_oracle(self, request: dict[str, Any]) -> list[Any]:
        """For each seed: reset, then what the checker asks for (``solution``, ``hint``, ``get_tools``)."""
        seeds = request.get("seeds")
        want = [name for name in request.get("want", []) if name in ("solution", "hint", "get_tools")]
        if type(seeds) is not list or len(seeds) > MAX_BATCH_EPISODES:
            raise ValueError(f"oracle needs a list of at most {MAX_BATCH_EPISODES} seeds")
        calls: list[tuple[str, Any]] = []
        for seed in seeds:
            calls.append(("reset", seed))
            calls.extend((name, None) for name in want)
        replies = [result for _, result in self._run(self._env(request), calls)]
        width = 1 + len(want)
        return [dict(zip(["first"] + want, replies[i:i + width])) for i in range(0, len(replies), width)]

    def _op_solution(self, request: dict[str, Any]) -> Any:
        return self._one(request, "solution")

    def _op_hint(self, request: dict[str, Any]) -> Any:
        """The environment's own hint, if it writes one (an optional ``hint()`` method)."""
        return self._one(request, "hint")

    def _op_tools(self, request: dict[str, Any]) -> Any:
        return self._one(request, "get_tools")

    def _op_audit(self, request: dict[str, Any]) -> dict[str, Any]:
        """What the checker needs to know about a tool-use environment's state right now.

        ``instructions_met``: for multi-instruction tasks, whether each instruction's check already holds
        (our dict style or the release's ``_message_criteria``); ``state``: a digest of ``self._state``,
        so the checker can tell which solution calls change the world; ``counters`` (its top-level whole
        numbers) and ``rest`` (a digest of the others), so that it can tell a call that only counts itself
        (weighings used) from one that changes what the task asks for.
        """
        env = self._env(request)
        met: list[bool] | None = None
        if isinstance(env, ToolUseBaseEnv):
            criteria = getattr(env, "_message_criteria", None)
            messages = getattr(env, "_user_messages", None)
            if type(criteria) is list and criteria:
                met = [bool(self._call(check, env._state)) if callable(check) else False for check in criteria[:50]]
            elif env._our_instructions():
                met = [bool(self._call(env._instruction_met, i)) for i in range(min(len(messages), 50))]
        state = getattr(env, "_state", None)
        digest = rest = None
        counters: dict[str, int] = {}
        if state is not None:
            digest = self._digest(state)
            if type(state) is dict:  # top-level whole numbers apart (calls counted), and a digest of the rest
                counters = {key: value for key, value in list(state.items())[:200]
                            if type(key) is str and len(key) <= 64 and type(value) is int and abs(value) < 2**62}
                rest = self._digest({key: value for key, value in state.items() if key not in counters})
        return {"instructions_met": met, "state": digest, "counters": dict(list(counters.items())[:50]),
                "rest": rest}

    def _digest(self, value: Any) -> str:
        text = self._call(repr, value)
        text = text[:1_000_000] if type(text) is str else ""
        return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]

    def _op_close(self, request: dict[str, Any]) -> None:
        for env in self.envs:
            close = getattr(env, "close", None)
            if callable(close):
                self._call(close)
        self.envs = []


def _scripted(plans: list[Any], results: list[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    """The calls of scripted episodes: reset, then the actions until one ends the episode (the calls
    ``_run`` would make of the whole list), then the ``after_end`` step if the plan asks for it."""
    for plan in plans:
        plan = plan if type(plan) is dict else {}
        actions = plan.get("actions", [])
        yield "reset", plan.get("seed")
        last, ended = None, False
        for action in actions if type(actions) is list else []:
            yield "step", action
            last, ended = action, episode_ended(results[-1][1])
            if ended:
                break
        if ended and plan.get("after_end") is True:
            yield "step_after_end", last


def _outcome(reply: Any) -> Any:
    """A step reply without its observation and info: [reward, terminated, truncated, types_ok]."""
    if type(reply) is not list or len(reply) != 5:
        return None
    observation, reward, terminated, truncated, info = reply
    types_ok = type(observation) is str and type(info) is dict
    return [reward, terminated, truncated, types_ok]
