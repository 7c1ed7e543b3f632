"""Host-side checks of what an environment returned, shared by every backend.

Nothing that comes back from environment code is trusted: each reply is checked for shape, types,
sizes and numeric ranges here, once, and turned into a typed result or a ``ContractViolation`` naming
the broken rule. That includes what the guest says about its own failures: an error reply can only
claim the kinds of failure a guest can have (an exception, a load error, memory, an oversized reply),
never one that only the host can observe (a timeout), and every field it carries is bounded.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from spade_envs.runtime.errors import ContractViolation, EnvCrashError

MAX_CLASS_NAME_CHARS = 200
MAX_EXCEPTION_NAME_CHARS = 80
HOST_ERROR_NAMES = frozenset(
    {"EnvRuntimeError", "EnvCodeError", "EnvLoadError", "EnvTimeoutError", "EnvMemoryError", "EnvCrashError",
     "ContractViolation"}
)
"""The SDK's own error types: an exception of the environment that bears one of these names is its own
class, and is reported as such so it cannot pass for a verdict of the host (a fake timeout)."""
GUEST_ERROR_KINDS = frozenset({"exception", "load", "memory", "too_large", "protocol"})
"""The error kinds a guest may report; anything else (a ``timeout``) is a forged reply."""


@dataclass(frozen=True)
class LoadedEnv:
    """What the loader learned about the environment class."""

    class_name: str
    tool_use: bool
    max_turns: int | None
    """The instance's ``max_turns`` as it declared it (any int: the checker judges its range)."""
    reward_range: tuple[float, float] | None


@dataclass(frozen=True)
class ResetResult:
    observation: str
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StepResult:
    observation: str
    reward: float
    terminated: bool
    truncated: bool
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


MAX_INFO_DEPTH = 64
"""Deeper ``info`` nesting is refused: host code (deepcopy, json, logging) recurses over it."""


def _type_name(value: Any) -> str:
    return type(value).__name__


_CONTAINERS = (dict, list, tuple)


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether anything sits below more than ``limit`` levels of containers. Level by level, so that
    checking a hostile value cannot itself overflow the stack, and only containers are visited (a flat
    info dict costs one pass)."""
    if limit >= 1 and type(value) is dict and not any(map(isinstance, value.values(), repeat(_CONTAINERS))):
        return False  # the common flat info dict, answered in C without building a level
    level = [value] if isinstance(value, _CONTAINERS) else []
    for _ in range(limit):
        below: list[Any] = []
        for item in level:
            below += [child for child in (item.values() if isinstance(item, dict) else item)
                      if isinstance(child, _CONTAINERS)]
        if not below:
            return False
        level = below
    return any(len(item) for item in level)


def clean_text(text: str) -> str:
    """Replace lone surrogates (legal in Python strings, illegal in UTF-8) so the text can be encoded."""
    if text.isascii():  # no surrogates possible; answered from a flag of the string, without a scan
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def one_line(text: str, limit: int) -> str:
    """Environment-supplied text made safe for a one-line message: no newlines, bounded length."""
    flat = " ".join(clean_text(text[: limit * 4]).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def exception_name(raw: Any) -> str:
    """The type name an error reply claims, bounded and on one line; SDK names are marked as the environment's."""
    name = one_line(raw if isinstance(raw, str) else "Exception", MAX_EXCEPTION_NAME_CHARS) or "Exception"
    if name in HOST_ERROR_NAMES:
        return f"{name} (an exception class of the environment)"
    return name


def source_line(raw: Any, line_count: int) -> int | None:
    """A line number an error reply claims, kept only if it is a line of the environment's source."""
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= line_count:
        return raw
    return None


def parse_loaded(result: Any) -> LoadedEnv:
    """Check the reply to a load request: class name, tool-use flag, declared max_turns and reward_range."""
    if not isinstance(result, dict) or not isinstance(result.get("class_name"), str) or not result["class_name"]:
        raise EnvCrashError("the backend sent a malformed reply to the load request")
    class_name = clean_text(result["class_name"])
    if len(class_name) > MAX_CLASS_NAME_CHARS:
        class_name = class_name[: MAX_CLASS_NAME_CHARS - 3] + "..."
    max_turns = result.get("max_turns")
    return LoadedEnv(
        class_name=class_name,
        tool_use=result.get("tool_use") is True,
        max_turns=max_turns if isinstance(max_turns, int) and not isinstance(max_turns, bool) else None,
        reward_range=_reward_range(result.get("reward_range")),
    )


def _reward_range(declared: Any) -> tuple[float, float] | None:
    if not (isinstance(declared, list) and len(declared) == 2 and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in declared)):
        return None
    try:
        low, high = float(declared[0]), float(declared[1])
    except OverflowError:
        low = high = math.inf
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        # No instance of a class declared like this is usable; the checker reports it under reward_range.
        raise ContractViolation("reward_range", "reward_range must be two finite numbers (low, high) with "
                                "low <= high inside [-1, 1]; declare bounds such as (0.0, 1.0)")
    return low, high


def _clean_strings(value: Any, depth: int = 0) -> Any:
    """Copy a decoded reply with lone surrogates replaced in every string (keys included)."""
    if depth > 200:
        raise RecursionError("reply nested too deeply")
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_strings(child, depth + 1) for child in value]
    if isinstance(value, dict):
        return {clean_text(key): _clean_strings(child, depth + 1) for key, child in value.items()}
    return value


_SCAN = json.decoder.JSONDecoder().scan_once
"""The C scanner behind ``json.loads``, made once: a reply is decoded on every call, and the wrapper's
own work (a whitespace regex on both ends, a decoder lookup) was more than half of it (a step reply:
1.7 us through ``json.loads``, 0.7 us through the scanner)."""


def decode_wire_reply(raw: str | bytes, sender: str, op: str, max_output_chars: int) -> tuple[dict[str, Any], str]:
    """Decode a JSON reply from an isolated backend: (reply dict, what the environment printed).

    Shared by the transports that receive text from beyond a boundary (the sandbox, a child
    process). Anything malformed raises ``EnvCrashError``; the caller then discards the transport.
    The printed output is cut to ``max_output_chars`` here too: the guest's own cap is the guest's to break.
    """
    try:
        text = raw if isinstance(raw, str) else raw.decode("utf-8")
        try:
            reply, end = _SCAN(text, 0)
        except StopIteration:  # the scanner's way of saying "no JSON value here"
            raise ValueError("not JSON") from None
        if end != len(text) and text[end:].strip():
            raise ValueError("trailing data")
        if "\\ud" in text:  # lone surrogates must not reach host code
            reply = _clean_strings(reply)
    except (ValueError, RecursionError):
        raise EnvCrashError(f"{sender} sent a reply to {op}() that is not valid JSON") from None
    if type(reply) is not dict:
        raise EnvCrashError(f"{sender} sent a malformed reply to {op}()")
    output = reply.pop("output", "") if "output" in reply else ""
    return reply, output[:max_output_chars] if isinstance(output, str) else ""


def _check_info(info: dict[str, Any], method: str) -> dict[str, Any]:
    if _depth_exceeds(info, MAX_INFO_DEPTH):
        raise ContractViolation(
            f"{method}_returns", f"{method}() returned an info dict nested deeper than {MAX_INFO_DEPTH} levels; keep info flat."
        )
    return info


def parse_reset(value: Any) -> ResetResult:
    """Check a ``reset()`` reply: a pair (non-empty str, dict)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        shape = f"a {len(value)}-tuple" if isinstance(value, (tuple, list)) else f"a {_type_name(value)}"
        raise ContractViolation(
            "reset_returns",
            f"reset() must return (observation: str, info: dict) but returned {shape}; "
            "end reset with `return observation, {}`.",
        )
    observation, info = value
    if not isinstance(observation, str):
        raise ContractViolation(
            "reset_returns", f"reset() returned a {_type_name(observation)} observation; return a str."
        )
    if not observation.strip():
        raise ContractViolation(
            "reset_returns",
            "reset() returned an empty observation; describe the task, the rules and the action format.",
        )
    if not isinstance(info, dict):
        raise ContractViolation(
            "reset_returns", f"reset() returned a {_type_name(info)} as info; return a dict (use {{}})."
        )
    return ResetResult(clean_text(observation), _check_info(info, "reset"))


def parse_step(value: Any) -> StepResult:
    """Check a ``step()`` reply: (str, float, bool, bool, dict)."""
    if type(value) is list and len(value) == 5:
        observation, reward, terminated, truncated, info = value
        # The common reply, decoded from JSON: exact types, a finite float, a flat info. One branch.
        if (type(observation) is str and type(reward) is float and type(terminated) is bool
                and type(truncated) is bool and type(info) is dict and math.isfinite(reward)):
            return StepResult(clean_text(observation), reward, terminated, truncated,
                              _check_info(info, "step") if info else info)
    if not isinstance(value, (tuple, list)) or len(value) != 5:
        shape = f"a {len(value)}-tuple" if isinstance(value, (tuple, list)) else f"a {_type_name(value)}"
        raise ContractViolation(
            "step_returns",
            f"step() must return (observation, reward, terminated, truncated, info) but returned {shape}.",
        )
    observation, reward, terminated, truncated, info = value
    problems = []
    if not isinstance(observation, str):
        problems.append(f"observation is a {_type_name(observation)}, expected str")
    if isinstance(reward, bool) or not isinstance(reward, (int, float)):
        problems.append(f"reward is a {_type_name(reward)}, expected float")
    if not isinstance(terminated, bool):
        problems.append(f"terminated is a {_type_name(terminated)}, expected bool")
    if not isinstance(truncated, bool):
        problems.append(f"truncated is a {_type_name(truncated)}, expected bool")
    if not isinstance(info, dict):
        problems.append(f"info is a {_type_name(info)}, expected dict")
    if problems:
        raise ContractViolation("step_returns", "step() returned wrong types: " + "; ".join(problems) + ".")
    try:
        value = float(reward)
    except OverflowError:
        raise ContractViolation("reward_range", f"step() returned an integer reward with {len(str(reward))} digits, "
                                "too large for a float; rewards must be finite.") from None
    if not math.isfinite(value):
        # Sessions never hand out NaN or infinite rewards: one would poison every average downstream.
        raise ContractViolation("reward_range", f"step() returned reward {value}; rewards must be finite.")
    return StepResult(clean_text(observation), value, terminated, truncated, _check_info(info, "step"))
