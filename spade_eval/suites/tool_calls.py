"""Function calls a model wrote, turned into data before anything acts on them.

Both tool-use suites read calls from model text in two shapes: BFCL's and ACEBench's Python-style list
``[get_weather(city='Paris'), ...]`` and the ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
blocks that function-calling servers return (``spade_train.policies.openai_compat`` writes a server's
parsed tool calls back in that form). Either way the result is a list of ``ToolCall`` values holding
only JSON-like literals. Nothing here evaluates model text: the Python form goes through ``ast.parse``
and accepts literal nodes only (a name, an attribute, an operator or a nested call is a syntax error),
so a reply such as ``[f(x=__import__('os').system('...'))]`` is rejected, not run.

``render_call`` goes the other way: it writes a validated ``ToolCall`` as a canonical Python call string
(``name(k=repr(v), ...)``). BFCL's executor and checker ``eval()`` call strings, so the multi-turn suite
hands them only strings rebuilt here from parsed, validated structures, never the model's text.
"""

from __future__ import annotations

import ast
import json
import keyword
import math
from dataclasses import dataclass, field
from typing import Any

from spade_envs.contract.actions import TOOL_CALL_PATTERN
from spade_envs.syntax import parse

MAX_CALL_TEXT_CHARS = 200_000
"""Longer replies are not parsed (a runaway generation, not a list of calls)."""


class CallSyntaxError(ValueError):
    """The text is not a list of calls with literal arguments; the message says what was found."""


@dataclass(frozen=True)
class ToolCall:
    """One function call: a (possibly dotted) name, keyword arguments and, rarely, positional ones.

    Positional arguments exist because BFCL's own ground truth writes some calls that way
    (``sort('final_report.pdf')``); function-calling replies only ever carry keyword arguments.
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    positional: tuple[Any, ...] = ()


# ---------------------------------------------------------------------- Python-style call lists
def parse_python_calls(text: str) -> list[ToolCall]:
    """Parse ``[f(a=1), g(b='x')]`` (or a single ``f(a=1)``, or a tuple of calls) into ``ToolCall``s.

    Argument values must be literals: strings, numbers, booleans, None, and lists, tuples or dicts of
    those (a leading minus on a number is allowed). Raises ``CallSyntaxError`` for anything else.
    """
    if len(text) > MAX_CALL_TEXT_CHARS:
        raise CallSyntaxError(f"reply too long to be a call list ({len(text)} characters)")
    try:
        tree = parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise CallSyntaxError(f"not Python call syntax: {error}") from None
    body = tree.body
    nodes = body.elts if isinstance(body, (ast.List, ast.Tuple)) else [body]
    return [_call_from_node(node) for node in nodes]


def _call_from_node(node: ast.AST) -> ToolCall:
    if not isinstance(node, ast.Call):
        raise CallSyntaxError(f"expected a function call, found {type(node).__name__}")
    name = _dotted_name(node.func)
    if any(keyword_.arg is None for keyword_ in node.keywords):
        raise CallSyntaxError(f"{name}: **kwargs is not a literal argument")
    if any(isinstance(arg, ast.Starred) for arg in node.args):
        raise CallSyntaxError(f"{name}: *args is not a literal argument")
    arguments = {keyword_.arg: _literal(keyword_.value) for keyword_ in node.keywords}
    return ToolCall(name=name, arguments=arguments, positional=tuple(_literal(arg) for arg in node.args))


def _dotted_name(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise CallSyntaxError(f"a call must name a function, found {type(node).__name__}")
    parts.append(node.id)
    return ".".join(reversed(parts))


def _literal(node: ast.AST) -> Any:
    """The value of a literal node; anything that would need evaluation is rejected."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (str, int, float, bool)) or node.value is None:
            return node.value
        raise CallSyntaxError(f"unsupported constant {node.value!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _literal(node.operand)
        if isinstance(operand, bool) or not isinstance(operand, (int, float)):
            raise CallSyntaxError("a sign applies to numbers only")
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.List):
        return [_literal(element) for element in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_literal(element) for element in node.elts)
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise CallSyntaxError("dict unpacking is not a literal")
        keys = [_literal(key) for key in node.keys]  # type: ignore[arg-type]
        if not all(isinstance(key, (str, int, float, bool)) for key in keys):
            raise CallSyntaxError("dict keys must be strings or numbers")
        return {key: _literal(value) for key, value in zip(keys, node.values)}
    raise CallSyntaxError(f"argument values must be literals, found {type(node).__name__}")


# ---------------------------------------------------------------------- <tool_call> blocks
def parse_tagged_calls(text: str) -> list[ToolCall]:
    """Every ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` block of ``text``, in order.

    Returns an empty list when there is none; raises ``CallSyntaxError`` for a block that is not a
    JSON object with a string ``name`` and an object (or JSON-object string) ``arguments``.
    """
    if len(text) > MAX_CALL_TEXT_CHARS:
        raise CallSyntaxError(f"reply too long to hold tool calls ({len(text)} characters)")
    calls = []
    for raw in TOOL_CALL_PATTERN.findall(text):
        try:
            block = json.loads(raw.strip())
        except (ValueError, RecursionError):
            raise CallSyntaxError("a <tool_call> block is not valid JSON") from None
        if not isinstance(block, dict) or not isinstance(block.get("name"), str):
            raise CallSyntaxError('a <tool_call> block needs a "name" string')
        arguments = block.get("arguments", block.get("parameters", {}))
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except (ValueError, RecursionError):
                raise CallSyntaxError(f"{block['name']}: arguments are not a JSON object") from None
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise CallSyntaxError(f"{block['name']}: arguments must be a JSON object")
        calls.append(ToolCall(name=block["name"], arguments=arguments))
    return calls


def has_tool_call_tags(text: str) -> bool:
    return "<tool_call>" in text


# ---------------------------------------------------------------------- canonical strings
def render_call(call: ToolCall) -> str:
    """``name(pos, ..., key=value, ...)`` with every value written by ``repr`` after validation.

    Raises ``CallSyntaxError`` when the name is not a dotted identifier, a keyword is not an
    identifier, or a value is not a finite JSON-like literal: the string returned can then contain
    nothing but one call of ``name`` on literal values.
    """
    if not isinstance(call.name, str) or not all(_is_identifier(part) for part in call.name.split(".")):
        raise CallSyntaxError(f"{call.name!r} is not a function name")
    parts = [_render_literal(value) for value in call.positional]
    for key, value in call.arguments.items():
        if not _is_identifier(key):
            raise CallSyntaxError(f"{call.name}: {key!r} is not a parameter name")
        parts.append(f"{key}={_render_literal(value)}")
    return f"{call.name}({', '.join(parts)})"


def _is_identifier(name: Any) -> bool:
    """A Python name (Unicode letters allowed, as in ``año_vehiculo``) that is not a keyword."""
    return isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)


def _render_literal(value: Any, depth: int = 0) -> str:
    if depth > 64:
        raise CallSyntaxError("argument nested too deeply")
    if value is None or isinstance(value, (bool, str, int)):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CallSyntaxError(f"{value!r} is not a finite number")
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_render_literal(item, depth + 1) for item in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_render_literal(item, depth + 1) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, (str, int, float, bool)):
                raise CallSyntaxError(f"dict key {key!r} is not a string or number")
            items.append(f"{_render_literal(key, depth + 1)}: {_render_literal(item, depth + 1)}")
        return "{" + ", ".join(items) + "}"
    raise CallSyntaxError(f"{type(value).__name__} is not a JSON-like value")


def format_tagged_calls(calls: list[ToolCall]) -> str:
    """Write calls as ``<tool_call>`` blocks (keyword arguments only), as a function-calling reply."""
    return "".join(
        "<tool_call>" + json.dumps({"name": call.name, "arguments": call.arguments}) + "</tool_call>"
        for call in calls
    )


def format_python_calls(calls: list[ToolCall]) -> str:
    """Write calls as a Python-style list ``[f(a=1), g()]``, the prompting format of both suites."""
    return "[" + ", ".join(render_call(call) for call in calls) + "]"
