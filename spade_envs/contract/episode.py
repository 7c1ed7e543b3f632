"""The episode contract: one definition of each rule that the checker, the sandbox, rollouts, designer
rewards and metrics all apply.

- **Which class is the environment**: the one public top-level class whose name ends in ``Env``
  (``ToolUseBaseEnv`` itself excluded). A module with none or several has no environment; the loader
  refuses it and the checker reports ``env_class``.
- **How a hint reaches the agent**: appended to the first observation as ``"{obs}\\n\\nHINT: {hint}"``,
  exactly as the SPADE reference injects it.
- **How the agent is told to act**: ``TEXT_AGENT_PROMPT`` (end each reply with ``\\boxed{ACTION}``) or,
  for tool-use environments, ``TOOL_AGENT_PROMPT`` (``<tool_call>`` and ``<answer>`` tags): the system
  message of SPADE's rollouts and of every other stack's adapter (``spade_envs.interop``).
- **What an episode is worth** (``episode_value``): under the reference's ``terminal_clipped`` return,
  the last reward clipped to [-1, 1] if the episode terminated, else 0; under ``sum_clipped``, the sum of
  its rewards clipped to [-1, 1] (partial progress counts, which a tiny model needs).
- **When an episode is won** (``is_win``): it terminated on a reward of at least ``WIN_THRESHOLD``, under
  either return. A ``sum_clipped`` episode whose rewards add up to 1 without a win is not won.

This module is standard library only: it also runs inside the WebAssembly sandbox.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

DEFAULT_REWARD_RANGE: tuple[float, float] = (-1.0, 1.0)
"""Rewards an environment may give when it declares no ``reward_range`` of its own."""

DEFAULT_MAX_TURNS = 10
"""Turn budget assumed for an environment that neither declares nor is given one (the reference default)."""

WIN_THRESHOLD = 0.999
"""An episode is won when it terminates with a last reward at least this high (1.0 in practice)."""

ENV_CLASS_SUFFIX = "Env"
TOOL_USE_BASE_CLASS = "ToolUseBaseEnv"
"""The base class the loader provides to tool-use environments; never an environment itself."""

HINT_SEPARATOR = "\n\nHINT: "

TEXT_AGENT_PROMPT = (
    "You are playing a text environment. Read each observation carefully, think step by step, and end "
    "every reply with exactly one action written as \\boxed{ACTION}."
)
TOOL_AGENT_PROMPT = (
    "You are an assistant with tools. Call a tool with "
    '<tool_call>{"name": "<tool>", "arguments": {...}}</tool_call>; give your final answer with '
    "<answer>...</answer>."
)

ReturnMode = Literal["terminal_clipped", "sum_clipped"]
RETURN_MODES: tuple[ReturnMode, ...] = ("terminal_clipped", "sum_clipped")


# ---------------------------------------------------------------------- the environment class
def is_env_class_name(name: str) -> bool:
    """Whether a top-level class of this name may be the environment: public, ending in ``Env``."""
    return name.endswith(ENV_CLASS_SUFFIX) and not name.startswith("_") and name != TOOL_USE_BASE_CLASS


def env_class_candidates(names: Iterable[str]) -> list[str]:
    """The names among a module's top-level class names that may be the environment, in order."""
    return [name for name in names if is_env_class_name(name)]


def the_env_class(names: Iterable[str]) -> str | None:
    """The environment class of a module with these top-level class names: the only candidate, or None
    when there is none or there are several (such a module has no environment)."""
    candidates = env_class_candidates(names)
    return candidates[0] if len(candidates) == 1 else None


# ---------------------------------------------------------------------- the hint
def inject_hint(observation: str, hint: str | None) -> str:
    """The first observation of a hinted episode; unchanged without a hint (None). The empty hint is a
    hint (``semantics.blank_hints = "played"``): the separator is shown with nothing after it, as the
    release's template shows it."""
    return f"{observation}{HINT_SEPARATOR}{hint}" if hint is not None else observation


# ---------------------------------------------------------------------- value and win
def episode_return(rewards: Sequence[float], terminated: bool) -> float:
    """The SPADE return: the last reward clipped to [-1, 1] if the episode terminated, else 0.

    Truncated episodes (the turn budget ran out) are worth nothing, so an agent cannot farm
    intermediate rewards by stalling.
    """
    if not terminated or not rewards:
        return 0.0
    return max(-1.0, min(1.0, float(rewards[-1])))


def episode_value(rewards: Sequence[float], terminated: bool, mode: ReturnMode = "terminal_clipped") -> float:
    """What an episode is worth to the agent under the run's return ``mode`` (see the module docstring)."""
    if mode == "sum_clipped":
        return max(-1.0, min(1.0, float(sum(rewards))))
    if mode != "terminal_clipped":
        raise ValueError(f"unknown return mode {mode!r}; expected one of: {', '.join(RETURN_MODES)}")
    return episode_return(rewards, terminated)


def is_win(rewards: Sequence[float], terminated: bool, threshold: float = WIN_THRESHOLD) -> bool:
    """True when the episode terminated on a winning reward (under every return mode)."""
    return terminated and bool(rewards) and float(rewards[-1]) >= threshold
