"""``EnvSession``: one live environment instance, the same API whatever backend runs it.

A backend only has to provide a *transport* (send a request dict, get a reply dict back); the
session does everything else the same way for all of them: loading, checking replies, turning error
replies into typed exceptions, and replacing a transport that broke (a timeout, a crash, any error
reply) at the next ``reset`` so a long rollout survives one bad step.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self

from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvLoadError,
    EnvMemoryError,
    EnvRuntimeError,
    EnvTimeoutError,
)
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.programs import FuzzSetup
from spade_envs.runtime.replies import (
    GUEST_ERROR_KINDS,
    LoadedEnv,
    ResetResult,
    StepResult,
    clean_text,
    exception_name,
    one_line,
    parse_loaded,
    parse_reset,
    parse_step,
    source_line,
)
from spade_envs.runtime.traces import (
    EpisodePlan,
    EpisodeTrace,
    FuzzTrace,
    OracleRecord,
    parse_fuzz_traces,
    parse_oracle,
    parse_traces,
)

__all__ = ["EnvSession", "LoadedEnv", "SiblingInstance", "Transport", "TransportBackend"]

MAX_MESSAGE_CHARS = 300
MAX_TRACEBACK_CHARS = 8_000
MAX_SIBLINGS = 64
"""More instances than this in one module is no shared-state check any more: a forged spawn reply."""

# For the "reply too large" message: what the author returned in reply to each request, and the fix.
_REPLY_CONTENTS: dict[str, tuple[str, str]] = {
    "oracle": ("solution(), hint() and get_tools()", "return a short answer, hint and tool list"),
    "solution": ("solution()", "return just the answer"),
    "hint": ("hint()", "return a short hint"),
    "tools": ("get_tools()", "return a short tool list"),
    "episodes": ("reset() and step()", "return shorter observations"),
    "reset": ("reset()", "return a shorter observation"),
    "step": ("step()", "return a shorter observation"),
}


class Transport(Protocol):
    """Carries request dicts to an ``EnvHost`` (see ``guest.py``) and its replies back."""

    def call(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class EnvSession:
    """A persistent environment instance: ``reset``/``step``/``solution``/``tools``/``close``."""

    def __init__(
        self,
        open_transport: Callable[[], Transport],
        source: str,
        *,
        class_name: str | None = None,
        max_turns: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
        clock_offset_s: float = 0.0,
        clock_tick_s: float = 0.001,
    ) -> None:
        self._open_transport = open_transport
        self._clock_offset_s = float(clock_offset_s)
        self._clock_tick_s = float(clock_tick_s)
        self._load_request = {
            "op": "load",
            "source": source,
            "class_name": class_name,
            "max_turns": max_turns,
            "init_kwargs": dict(init_kwargs or {}),
        }
        self._source_lines = source.count("\n") + 1
        self._transport: Transport | None = None
        self.last_instructions: int | None = None
        """Guest instructions the last request executed, where the backend counts them (the sandbox): what
        the checker sizes its batches by, so that they are the same on every machine and under any load."""
        self.loaded: LoadedEnv = self._start()

    # ------------------------------------------------------------------ lifecycle
    def _start(self) -> LoadedEnv:
        """Open a transport and load the environment into it; a transport that fails to load is closed."""
        self._transport = self._open_transport()
        # The environment's clock is virtual (see guest.py): it starts at the real time, moved by the offset,
        # and advances by the tick at every reading.
        clock = {"start": time.time() + self._clock_offset_s, "tick": self._clock_tick_s}
        try:
            return parse_loaded(self._request({**self._load_request, "clock": clock}))
        except BaseException:
            self._discard_transport()
            raise

    def close(self) -> None:
        """Release the instance; calling it twice is harmless."""
        if self._transport is None:
            return
        try:
            self._transport.call({"op": "close"})
        except EnvRuntimeError:
            pass  # closing a broken environment must not fail the caller
        finally:
            self._transport.close()
            self._transport = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ environment calls
    def reset(self, seed: int | None = None) -> ResetResult:
        if self._transport is None:  # a previous call broke the transport: start afresh
            self.loaded = self._start()
        return self._parsed(parse_reset, self._request({"op": "reset", "seed": seed}))

    def step(self, action: str) -> StepResult:
        return self._parsed(parse_step, self._request({"op": "step", "action": action}))

    def _parsed(self, parse: Callable[[Any], Any], reply: Any) -> Any:
        """Check a reply; one that breaks the contract also retires the instance (it may be compromised)."""
        try:
            return parse(reply)
        except ContractViolation:
            self._discard_transport()
            raise

    def play(self, seed: int | None, actions: list[str], *, instance: int = 0) -> tuple[ResetResult, list[StepResult]]:
        """``reset(seed)`` and step through ``actions`` in one round trip, stopping when the episode ends.

        Raises like ``reset``/``step`` would; the caller replays step by step to find which step failed.
        Like ``reset``, it starts a fresh instance when an earlier call broke this one (siblings, which
        lived in the broken instance's module, are gone with it).
        """
        if self._transport is None and instance == 0:
            self.loaded = self._start()
        replies = self._request({"op": "play", "seed": seed, "actions": list(actions), "instance": instance})
        if not isinstance(replies, list) or not 1 <= len(replies) <= len(actions) + 1:
            self._discard_transport()
            raise EnvCrashError("the backend sent a malformed reply to play()")
        return self._parsed(parse_reset, replies[0]), [self._parsed(parse_step, reply) for reply in replies[1:]]

    def episodes(self, plans: Sequence[EpisodePlan], *, record: str = "outcome",
                 instance: int = 0) -> list[EpisodeTrace]:
        """Play several scripted episodes in one round trip; compact traces (see ``runtime.traces``).

        ``record`` is ``"outcome"`` (rewards and end flags), ``"first"`` (plus first observations) or
        ``"full"`` (every reply). The environment sees the same calls as from ``reset``/``step``.
        """
        plans = list(plans)
        if self._transport is None and instance == 0:
            self.loaded = self._start()
        request = {"op": "episodes", "record": record, "instance": instance,
                   "plans": [_wire_plan(plan) for plan in plans]}
        return self._parsed(lambda value: parse_traces(value, plans, record), self._request(request))

    def fuzz(self, setup: FuzzSetup, plans: Sequence[tuple[int, bool]]) -> list[FuzzTrace]:
        """Play fuzz examples ((generator seed, simplest) pairs) with episode programs, in one round trip.

        The sandbox draws each example's actions as it plays (``runtime/programs.py``); the host replays
        every program over the replies and keeps its own account (``FuzzTrace``). A reply that breaks the
        contract is reported in its trace, not raised, and retires the instance like any other.
        """
        plans = list(plans)
        if self._transport is None:
            self.loaded = self._start()
        request = {"op": "episodes", "fuzz": setup.to_wire(),
                   "plans": [{"example": seed, "simplest": simplest} for seed, simplest in plans]}
        traces = parse_fuzz_traces(self._request(request), setup, plans)
        if any(trace.violation is not None for trace in traces):
            self._discard_transport()
        return traces

    def oracle(self, seeds: Sequence[int | None], *,
               want: Sequence[str] = ("solution", "hint", "get_tools")) -> list[OracleRecord]:
        """For each seed: ``reset(seed)`` and then ``solution()``, ``hint()``, ``get_tools()`` as asked."""
        seeds = list(seeds)
        if self._transport is None:
            self.loaded = self._start()
        request = {"op": "oracle", "seeds": seeds, "want": list(want)}
        return self._parsed(lambda value: parse_oracle(value, seeds), self._request(request))

    def audit(self) -> dict[str, Any]:
        """For a tool-use environment right now: which instructions already hold, a digest of its state, and its
        top-level whole numbers apart from a digest of the rest (hostile data: each field is checked)."""
        result = self._request({"op": "audit"})
        if not isinstance(result, dict):
            raise EnvCrashError("the backend sent a malformed reply to audit()")
        met = result.get("instructions_met")
        state, rest, counters = result.get("state"), result.get("rest"), result.get("counters")
        return {
            "instructions_met": [x is True for x in met[:50]] if isinstance(met, list) else None,
            "state": state if isinstance(state, str) and len(state) <= 64 else None,
            "rest": rest if isinstance(rest, str) and len(rest) <= 64 else None,
            "counters": {key: value for key, value in list(counters.items())[:50]
                         if isinstance(key, str) and len(key) <= 64 and type(value) is int and abs(value) < 2**62}
            if isinstance(counters, dict) else {},
        }

    def solution(self) -> Any:
        return self._request({"op": "solution"})

    def tools(self) -> list[dict[str, Any]] | None:
        result = self._request({"op": "tools"})
        return result if isinstance(result, list) else None

    def hint(self) -> str | None:
        """The environment's own hint (an optional ``hint()`` method), or None."""
        result = self._request({"op": "hint"})
        return result if isinstance(result, str) else None

    def spawn_sibling(self) -> SiblingInstance:
        """A second instance of the same class in the same module (for shared-state checks)."""
        index = self._request({"op": "spawn"})
        if not isinstance(index, int) or isinstance(index, bool) or not 0 < index <= MAX_SIBLINGS:
            self._discard_transport()
            raise EnvCrashError("the backend sent a malformed reply to spawn()")
        return SiblingInstance(self, index)

    # ------------------------------------------------------------------ plumbing
    def _request(self, request: dict[str, Any]) -> Any:
        """Send one request; an error reply becomes a typed exception and retires the transport.

        Any reply that is not a success, and any failure of the transport, leaves this session without
        a transport, so the next ``reset()`` starts a fresh instance: an instance that failed once is
        never trusted again, whatever its reply claims.
        """
        if self._transport is None:
            raise EnvCrashError("this session broke on an earlier call; call reset() to start a new one")
        transport = self._transport
        try:
            reply = transport.call(request)
        except (EnvTimeoutError, EnvMemoryError, EnvCrashError):
            self.last_instructions = getattr(transport, "last_instructions", None)
            self._discard_transport()
            raise
        self.last_instructions = getattr(transport, "last_instructions", None)
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            self._discard_transport()
            raise EnvCrashError("the backend sent a malformed reply")
        if reply["ok"]:
            return reply.get("result")
        self._discard_transport()
        raise self._error_from_reply(reply.get("error"), str(request.get("op")))

    def _discard_transport(self) -> None:
        if self._transport is not None:
            transport, self._transport = self._transport, None
            transport.close()

    def _error_from_reply(self, error: Any, op: str) -> EnvRuntimeError:
        """The exception an error reply stands for, built only from fields the host can check.

        The phase is the request the host sent, the line must be a line of the source, the type name
        and message are bounded one-liners, and the kind must be one a guest can report: a load error
        only in reply to a load, and never a timeout (only the host can time a call).
        """
        if not isinstance(error, dict):
            return EnvCrashError(f"the backend sent a malformed error reply to {op}()")
        kind = error.get("kind")
        if kind not in GUEST_ERROR_KINDS or (kind == "load" and op != "load"):
            shown = one_line(kind, 40) if isinstance(kind, str) else type(kind).__name__
            return EnvCrashError(f"the backend answered {op}() with an error of kind {shown!r}, which it cannot "
                                 "report there; the session will be replaced")
        message = error.get("message")
        message = one_line(message, MAX_MESSAGE_CHARS) if isinstance(message, str) else ""
        if kind == "load":
            return EnvLoadError(message or "the environment could not be loaded")
        if kind == "too_large":
            returned, fix = _REPLY_CONTENTS.get(op, (f"{op}()", "return less"))
            return EnvCrashError(f"what the environment returned from {returned} was larger than the reply limit; {fix}")
        if kind == "memory":  # the heap is never reused: one that ran out of memory may be damaged
            return EnvMemoryError(f"the environment exhausted its memory limit during {op}(); keep its data small")
        if kind == "exception":
            traceback = error.get("traceback")
            return EnvCodeError(
                phase=op,
                exc_type=exception_name(error.get("type")),
                message=message,
                traceback=clean_text(traceback[:MAX_TRACEBACK_CHARS]) if isinstance(traceback, str) else "",
                line=source_line(error.get("line"), self._source_lines),
            )
        return EnvCrashError(f"the backend reported a protocol error during {op}()")


def _wire_plan(plan: EpisodePlan) -> dict[str, Any]:
    wire: dict[str, Any] = {"seed": plan.seed, "actions": list(plan.actions)}
    if plan.after_end:
        wire["after_end"] = True
    return wire


class SiblingInstance:
    """Another instance living next to a session's environment; it shares the session's transport."""

    def __init__(self, session: EnvSession, index: int) -> None:
        self._session, self._index = session, index

    @property
    def last_instructions(self) -> int | None:
        return self._session.last_instructions

    def reset(self, seed: int | None = None) -> ResetResult:
        return self._session._parsed(parse_reset, self._session._request({"op": "reset", "seed": seed,
                                                                          "instance": self._index}))

    def step(self, action: str) -> StepResult:
        return self._session._parsed(parse_step, self._session._request({"op": "step", "action": action,
                                                                         "instance": self._index}))

    def play(self, seed: int | None, actions: list[str]) -> tuple[ResetResult, list[StepResult]]:
        return self._session.play(seed, actions, instance=self._index)

    def episodes(self, plans: Sequence[EpisodePlan], *, record: str = "outcome") -> list[EpisodeTrace]:
        return self._session.episodes(plans, record=record, instance=self._index)


class TransportBackend:
    """Shared ``open_session`` for backends that only differ in how they open a transport."""

    name = "abstract"
    isolated = False

    def __init__(self, limits: ExecutionLimits | None = None) -> None:
        self.limits = limits or ExecutionLimits()

    def open_transport(self) -> Transport:
        raise NotImplementedError

    def open_session(
        self,
        source: str,
        *,
        class_name: str | None = None,
        max_turns: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
        clock_offset_s: float = 0.0,
        clock_tick_s: float = 0.001,
    ) -> EnvSession:
        """Load ``source`` and construct its environment in a new session.

        ``clock_offset_s`` and ``clock_tick_s`` move the environment's (virtual) clock away from the real
        time and change how fast it runs: the checker uses them to see whether behaviour depends on the clock.
        """
        return EnvSession(
            self.open_transport, source, class_name=class_name, max_turns=max_turns, init_kwargs=init_kwargs,
            clock_offset_s=clock_offset_s, clock_tick_s=clock_tick_s,
        )
