"""The environment contract: what a designer-written environment is and how agents act in it."""

from spade_envs.contract.actions import (
    boxed,
    extract_boxed,
    format_answer,
    format_tool_call,
    solution_to_actions,
)
from spade_envs.contract.allowlist import ALLOWED_MODULES, is_allowed_module
from spade_envs.contract.episode import (
    DEFAULT_REWARD_RANGE,
    WIN_THRESHOLD,
    ReturnMode,
    episode_return,
    episode_value,
    inject_hint,
    is_win,
    the_env_class,
)
from spade_envs.contract.tool_use import ToolUseBaseEnv, answers_match, normalize_answer

__all__ = [
    "ALLOWED_MODULES",
    "DEFAULT_REWARD_RANGE",
    "WIN_THRESHOLD",
    "ReturnMode",
    "ToolUseBaseEnv",
    "answers_match",
    "boxed",
    "episode_return",
    "episode_value",
    "extract_boxed",
    "format_answer",
    "format_tool_call",
    "inject_hint",
    "is_allowed_module",
    "is_win",
    "normalize_answer",
    "solution_to_actions",
    "the_env_class",
]
