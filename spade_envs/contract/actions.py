"""How agents talk to environments: ``\\boxed{...}`` answers and ``<tool_call>`` / ``<answer>`` tags.

This module is standard-library only on purpose: the sandbox guest embeds it, and designer-written
environments follow the same conventions without importing it.
"""

from __future__ import annotations

import json
import re
from typing import Any

BOXED_PREFIX = "\\boxed{"
TOOL_CALL_PATTERN = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
ANSWER_PATTERN = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
MAX_OBSERVATION_TOKENS = 200
_TOKEN = re.compile(r"-?\d+(?:\.\d+)?|[A-Za-z_]+|[^\sA-Za-z0-9]")



def observation_tokens(observation: str) -> list[str]:
    """Distinct words, numbers and symbols from an observation, in order of appearance."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall(observation):
        seen.setdefault(token, None)
        if len(seen) >= MAX_OBSERVATION_TOKENS:
            break
    return list(seen)




def extract_boxed(text: str) -> str | None:
    """Return the content of the last balanced ``\\boxed{...}`` in ``text``, or None.

    The last one wins because models often restate the question's boxed example before answering.
    Braces are balanced so that ``\\boxed{\\frac{1}{2}}`` yields ``\\frac{1}{2}``.
    """
    start = text.rfind(BOXED_PREFIX)
    while start != -1:
        depth = 0
        for index in range(start + len(BOXED_PREFIX) - 1, len(text)):
            char = text[index]
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return text[start + len(BOXED_PREFIX) : index]
        start = text.rfind(BOXED_PREFIX, 0, start)
    return None


def boxed(value: Any) -> str:
    """Wrap a value as an agent action: ``\\boxed{value}``."""
    return f"{BOXED_PREFIX}{value}}}"


def format_tool_call(name: str, arguments: dict[str, Any]) -> str:
    """Write one tool call the way a tool-use agent must: ``<tool_call>{json}</tool_call>``."""
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


def format_answer(answer: Any) -> str:
    """Write a final answer for a tool-use environment: ``<answer>...</answer>``."""
    return f"<answer>{answer}</answer>"


def _is_already_an_action(text: str) -> bool:
    return BOXED_PREFIX in text or "<tool_call>" in text or "<answer>" in text


def solution_to_actions(solution: Any, *, tool_use: bool = False) -> list[str]:
    """Turn what an environment's ``solution()`` returned into the actions an agent would send.

    ``solution()`` is loosely typed in the SPADE release: single-answer puzzles return the answer,
    games return a list of moves, tool-use environments may return tool calls as dicts. Strings that
    already carry an action wrapper are kept as they are; bare values are wrapped in ``\\boxed{}``
    (text environments) or ``<answer>`` (tool-use environments); dicts with a ``name`` become tool calls.
    """
    items = list(solution) if isinstance(solution, (list, tuple)) else [solution]
    actions: list[str] = []
    for item in items:
        if isinstance(item, dict) and "name" in item:
            actions.append(format_tool_call(str(item["name"]), dict(item.get("arguments") or {})))
        elif isinstance(item, str) and _is_already_an_action(item):
            actions.append(item)
        elif tool_use:
            actions.append(format_answer(item))
        else:
            actions.append(boxed(item))
    return actions
