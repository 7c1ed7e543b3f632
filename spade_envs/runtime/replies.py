"""Host-side checks of what an environment returned, shared by every backend.

Nothing that comes back from environment code is trusted: each reply is checked for shape and
types here, once, and turned into a typed result or a ``ContractViolation`` naming the broken rule.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from spade_envs.runtime.errors import ContractViolation, EnvCrashError


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


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Iterative depth check, so that checking a hostile value cannot itself overflow the stack."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((child, depth + 1) for child in item)
    return False


def clean_text(text: str) -> str:
    """Replace lone surrogates (legal in Python strings, illegal in UTF-8) so the text can be encoded."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


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


def decode_wire_reply(raw: str | bytes, sender: str, op: str) -> tuple[dict[str, Any], str]:
    """Decode a JSON reply from an isolated backend: (reply dict, what the environment printed).

    Shared by the transports that receive text from beyond a boundary (the sandbox, a child
    process). Anything malformed raises ``EnvCrashError``; the caller then discards the transport.
    """
    try:
        reply = json.loads(raw)
        if ("\\ud" if isinstance(raw, str) else b"\\ud") in raw:  # lone surrogates must not reach host code
            reply = _clean_strings(reply)
    except (ValueError, RecursionError):
        raise EnvCrashError(f"{sender} sent a reply to {op}() that is not valid JSON") from None
    if not isinstance(reply, dict):
        raise EnvCrashError(f"{sender} sent a malformed reply to {op}()")
    output = reply.pop("output", "")
    return reply, output if isinstance(output, str) else ""


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
