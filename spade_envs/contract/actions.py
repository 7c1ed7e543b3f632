"""How agents talk to environments: ``\\boxed{...}`` answers and ``<tool_call>`` / ``<answer>`` tags.

This module is standard-library only on purpose: the sandbox guest embeds it, and designer-written
environments follow the same conventions without importing it.

Everything here also reads text an environment returned (its ``solution()``, its observations), which
is hostile data: every function runs in time linear in its input and bounds what it builds.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

BOXED_PREFIX = "\\boxed{"
TOOL_CALL_PATTERN = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
ANSWER_PATTERN = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
MAX_OBSERVATION_TOKENS = 200
MAX_SOLUTION_ACTIONS = 1_000
"""More actions than this in one ``solution()`` are cut off: no episode is that long."""
MAX_CALL_ARGUMENT_CHARS = 4_000
"""A call expression's argument text longer than this is not parsed (``name(...)`` in a solution string)."""
_TOKENS_AT_ONCE = 16_384
_TOKEN = re.compile(r"-?\d+(?:\.\d+)?|[A-Za-z_]+|[^\sA-Za-z0-9]")
_BOX_OR_BRACE = re.compile(r"\\boxed\{|[{}]")
_FINAL_ANSWER = re.compile(r"(?:^|[\s.;:>])(?:final\s+)?answer\s*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.DOTALL)


def observation_tokens(observation: str) -> list[str]:
    """Distinct words, numbers and symbols from an observation, in order of appearance (at most
    ``MAX_OBSERVATION_TOKENS``). The fuzzer calls this on every observation it plays from, so texts of
    ordinary size are split in one pass of the regex engine; longer ones are walked token by token,
    which stops once enough distinct tokens are found and builds nothing per repeated token."""
    if len(observation) <= _TOKENS_AT_ONCE:
        return list(dict.fromkeys(_TOKEN.findall(observation)))[:MAX_OBSERVATION_TOKENS]
    seen: dict[str, None] = {}
    for match in _TOKEN.finditer(observation):
        seen.setdefault(match.group(), None)
        if len(seen) >= MAX_OBSERVATION_TOKENS:
            break
    return list(seen)


def boxed_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the content of every balanced ``\\boxed{...}`` in ``text``, in one pass.

    A ``\\boxed{`` counts when braces counted from it balance again; braces before it do not matter, so
    ``}\\boxed{x}`` still yields ``x``. One stack over the brace characters only keeps this linear.
    """
    spans: list[tuple[int, int]] = []
    stack: list[int] = []  # content start of a \boxed{ opener, or -1 for a plain brace
    for match in _BOX_OR_BRACE.finditer(text):
        token = match.group()
        if token == "}":
            if stack:
                start = stack.pop()
                if start >= 0:
                    spans.append((start, match.start()))
        else:
            stack.append(match.end() if token == BOXED_PREFIX else -1)
    return spans


def extract_boxed(text: str) -> str | None:
    """Return the content of the last balanced ``\\boxed{...}`` in ``text``, or None.

    The last one wins because models often restate the question's boxed example before answering.
    Braces are balanced so that ``\\boxed{\\frac{1}{2}}`` yields ``\\frac{1}{2}``. "Last" means the
    one that starts last, so ``\\boxed{\\boxed{1}}`` yields ``1``.
    """
    spans = boxed_spans(text) if BOXED_PREFIX in text else []
    if not spans:
        return None
    start, end = max(spans)
    return text[start:end]


def boxed(value: Any) -> str:
    """Wrap a value as an agent action: ``\\boxed{value}``."""
    return f"{BOXED_PREFIX}{value}}}"


def format_tool_call(name: str, arguments: Any) -> str:
    """Write one tool call the way a tool-use agent must: ``<tool_call>{json}</tool_call>``.

    ``arguments`` is normally a dict; a JSON string is passed through as the release's agents write it.
    """
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


def format_answer(answer: Any) -> str:
    """Write a final answer for a tool-use environment: ``<answer>...</answer>``."""
    return f"<answer>{answer}</answer>"


def _is_already_an_action(text: str) -> bool:
    return BOXED_PREFIX in text or "<tool_call>" in text or "<answer>" in text


def solution_to_actions(solution: Any, *, tool_use: bool = False, tool_names: list[str] | None = None) -> list[str]:
    """Turn what an environment's ``solution()`` returned into the actions an agent would send.

    ``solution()`` is loosely typed in the SPADE release: single-answer puzzles return the answer,
    games return a list of moves, tool-use environments return tool calls as dicts followed by the
    answer (ours) or ONE string (the release's): ``<tool_call>...</tool_call>`` blocks followed by
    ``<answer>...</answer>``, or a numbered description of calls such as ``1. cd(path="docs") 2. ...
    ANSWER: x`` (the release prompt's own examples), meant to be replayed one call per turn. Strings
    that already carry an action wrapper are kept as they are; bare values are wrapped in ``\\boxed{}``
    (text environments) or ``<answer>`` (tool-use environments).

    ``tool_names``, when given, lets a tool-use solution string name its calls as ``name(key=value)``.
    At most ``MAX_SOLUTION_ACTIONS`` actions are returned.
    """
    items = list(solution[:MAX_SOLUTION_ACTIONS]) if isinstance(solution, (list, tuple)) else [solution]
    actions: list[str] = []
    for item in items:
        if isinstance(item, dict) and "name" in item:
            arguments = item.get("arguments")
            if not isinstance(arguments, (dict, str)):
                arguments = {} if arguments is None else arguments
            actions.append(format_tool_call(str(item["name"]), arguments))
        elif tool_use and isinstance(item, str):
            actions.extend(tool_use_script(item, tool_names or []))
        elif isinstance(item, str) and _is_already_an_action(item):
            actions.append(item)
        elif tool_use:
            actions.append(format_answer(item))
        else:
            actions.append(boxed(item))
    return actions[:MAX_SOLUTION_ACTIONS]


def tool_use_script(text: str, tool_names: list[str]) -> list[str]:
    """The actions a tool-use solution string describes, one tool call per action, the answer last.

    Recognised, in this order of preference:

    * ``<tool_call>{json}</tool_call>`` blocks (each becomes one action) and an ``<answer>`` block;
    * call expressions ``name(key=value, ...)`` for the environment's own tool names, with literal
      arguments, and a final ``ANSWER: x`` / ``Answer: x`` / ``<answer>x</answer>``;
    * otherwise the whole string is the answer.
    """
    calls = [match.group(0) for match in TOOL_CALL_PATTERN.finditer(text)]
    answer_match = None
    for answer_match in ANSWER_PATTERN.finditer(text):
        pass  # the last <answer> block is the final answer
    if calls:
        return calls + ([answer_match.group(0)] if answer_match else [])
    expressions = _call_expressions(text, tool_names) if tool_names else []
    if answer_match is not None:
        answer = answer_match.group(0)
    else:
        tail = _FINAL_ANSWER.search(text[-2_000:]) if expressions else None
        answer = format_answer(tail.group(1).strip()) if tail else None
    if expressions:
        return expressions + ([answer] if answer else [])
    if answer is not None:
        return [answer]
    return [text] if _is_already_an_action(text) else [format_answer(text)]


def _call_expressions(text: str, tool_names: list[str]) -> list[str]:
    """``name(k=v, ...)`` occurrences of known tool names, as tool-call actions, in order."""
    names = sorted({n for n in tool_names if isinstance(n, str) and n.isidentifier()}, key=len, reverse=True)
    if not names:
        return []
    pattern = re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in names) + r")\s*\(")
    actions: list[str] = []
    position = 0
    while len(actions) < MAX_SOLUTION_ACTIONS:
        match = pattern.search(text, position)
        if match is None:
            break
        end = _closing_parenthesis(text, match.end())
        if end is None:
            break
        arguments = _literal_keywords(text[match.end():end])
        if arguments is not None:
            actions.append(format_tool_call(match.group(1), arguments))
        position = end + 1
    return actions


def _closing_parenthesis(text: str, start: int) -> int | None:
    """Index of the ``)`` closing the parenthesis opened just before ``start`` (quotes respected)."""
    depth, quote = 1, ""
    limit = min(len(text), start + MAX_CALL_ARGUMENT_CHARS)
    index = start
    while index < limit:
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None


def _literal_keywords(argument_text: str) -> dict[str, Any] | None:
    """Keyword arguments with literal values, or None if the text is not such an argument list."""
    try:
        call = ast.parse(f"f({argument_text})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(call, ast.Call) or call.args:
        return None
    arguments: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            return None
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return None
    return arguments
