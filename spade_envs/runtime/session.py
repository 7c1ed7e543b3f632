"""``EnvSession``: one live environment instance, the same API whatever backend runs it.

A backend only has to provide a *transport* (send a request dict, get a reply dict back); the
session does everything else the same way for all of them: loading, checking replies, turning error
replies into typed exceptions, and replacing a transport that broke (a timeout, a crash) at the next
``reset`` so a long rollout survives one bad step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

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
from spade_envs.runtime.replies import ResetResult, StepResult, clean_text, parse_reset, parse_step

MAX_MESSAGE_CHARS = 300
MAX_TRACEBACK_CHARS = 8_000


def _one_line(text: str, limit: int) -> str:
    """Environment-supplied text made safe for a one-line message: no newlines, bounded length."""
    flat = " ".join(clean_text(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class Transport(Protocol):
    """Carries request dicts to an ``EnvHost`` (see ``guest.py``) and its replies back."""

    def call(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LoadedEnv:
    """What the loader learned about the environment class."""

    class_name: str
    tool_use: bool
    max_turns: int | None
    reward_range: tuple[float, float] | None


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
    ) -> None:
        self._open_transport = open_transport
        self._load_request = {
            "op": "load",
            "source": source,
            "class_name": class_name,
            "max_turns": max_turns,
            "init_kwargs": dict(init_kwargs or {}),
        }
        self._transport: Transport | None = None
        self.loaded: LoadedEnv = self._start()

    # ------------------------------------------------------------------ lifecycle
    def _start(self) -> LoadedEnv:
        self._transport = self._open_transport()
        result = self._request(self._load_request)
        if not isinstance(result, dict) or not isinstance(result.get("class_name"), str):
            raise EnvCrashError("the backend sent a malformed reply to the load request")
        declared = result.get("reward_range")
        reward_range = None
        if isinstance(declared, list) and len(declared) == 2 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in declared
        ):
            try:
                reward_range = (float(declared[0]), float(declared[1]))
            except OverflowError:
                raise ContractViolation("reward_range", "reward_range has a bound too large for a float; "
                                        "declare finite bounds such as (0.0, 1.0).") from None
        max_turns = result.get("max_turns")
        return LoadedEnv(
            class_name=result["class_name"],
            tool_use=result.get("tool_use") is True,
            max_turns=max_turns if isinstance(max_turns, int) and not isinstance(max_turns, bool) else None,
            reward_range=reward_range,
        )

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

    def __enter__(self) -> EnvSession:
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
        if not isinstance(replies, list) or not replies:
            raise EnvCrashError("the backend sent a malformed reply to play()")
        return self._parsed(parse_reset, replies[0]), [self._parsed(parse_step, reply) for reply in replies[1:]]

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
        if not isinstance(index, int):
            raise EnvCrashError("the backend sent a malformed reply to spawn()")
        return SiblingInstance(self, index)

    # ------------------------------------------------------------------ plumbing
    def _request(self, request: dict[str, Any]) -> Any:
        if self._transport is None:
            raise EnvCrashError("this session broke on an earlier call; call reset() to start a new one")
        try:
            reply = self._transport.call(request)
        except (EnvTimeoutError, EnvMemoryError, EnvCrashError):
            self._discard_transport()
            raise
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            self._discard_transport()
            raise EnvCrashError("the backend sent a malformed reply")
        if reply["ok"]:
            return reply.get("result")
        raise self._error_from_reply(reply.get("error"), str(request.get("op")))

    def _discard_transport(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None

    def _error_from_reply(self, error: Any, op: str) -> EnvRuntimeError:
        if not isinstance(error, dict):
            self._discard_transport()
            return EnvCrashError("the backend sent a malformed error reply")
        kind = error.get("kind")
        message = clean_text(str(error.get("message", "")))
        if kind == "load":
            return EnvLoadError(_one_line(message, MAX_MESSAGE_CHARS))
        if kind == "too_large":
            self._discard_transport()
            return EnvCrashError(f"the environment's reply to {op}() was larger than the reply limit; "
                                 "return shorter observations")
        if kind == "memory":
            self._discard_transport()  # never reuse a heap that ran out of memory
            return EnvMemoryError(f"the environment exhausted its memory limit during {op}(); keep its data small")
        if kind == "exception":
            # The environment's state after an exception is unknown (and in the sandbox its heap may be
            # damaged): the next reset() starts a fresh instance.
            self._discard_transport()
            line = error.get("line")
            return EnvCodeError(
                phase=_one_line(str(error.get("phase", op)), 40),
                exc_type=_one_line(str(error.get("type", "Exception")), 80),
                message=_one_line(message, MAX_MESSAGE_CHARS),
                traceback=clean_text(str(error.get("traceback", "")))[:MAX_TRACEBACK_CHARS],
                line=line if isinstance(line, int) and not isinstance(line, bool) else None,
            )
        self._discard_transport()
        return EnvCrashError(f"the backend reported a protocol error during {op}()")


class SiblingInstance:
    """Another instance living next to a session's environment; it shares the session's transport."""

    def __init__(self, session: EnvSession, index: int) -> None:
        self._session, self._index = session, index

    def reset(self, seed: int | None = None) -> ResetResult:
        return self._session._parsed(parse_reset, self._session._request({"op": "reset", "seed": seed,
                                                                          "instance": self._index}))

    def step(self, action: str) -> StepResult:
        return self._session._parsed(parse_step, self._session._request({"op": "step", "action": action,
                                                                         "instance": self._index}))

    def play(self, seed: int | None, actions: list[str]) -> tuple[ResetResult, list[StepResult]]:
        return self._session.play(seed, actions, instance=self._index)


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
    ) -> EnvSession:
        """Load ``source`` and construct its environment in a new session."""
        return EnvSession(
            self.open_transport, source, class_name=class_name, max_turns=max_turns, init_kwargs=init_kwargs
        )
