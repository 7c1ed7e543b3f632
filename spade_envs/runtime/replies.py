"""Host-side checks of what an environment returned, shared by every backend.

Nothing that comes back from environment code is trusted: each reply is checked for shape and
types here, once, and turned into a typed result or a ``ContractViolation`` naming the broken rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spade_envs.runtime.errors import ContractViolation


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


def _type_name(value: Any) -> str:
    return type(value).__name__


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
    return ResetResult(observation, info)


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
    return StepResult(observation, float(reward), terminated, truncated, info)
