"""Function-calling (``fc``) replies read exactly as bfcl-eval's ``QwenFCHandler`` reads them.

The reference. bfcl-eval 2026.3.23 scores a locally served function-calling model from the raw text it
generated, with the model family's handler. Every Qwen ``-FC`` model goes through ``QwenFCHandler``
(``model_handler/local_inference/qwen_fc.py``), and the other hermes-style handlers (Arch, Granite 4,
Nanbeige, Pelican-VL) find ``<tool_call>`` blocks with the same pattern. That handler is the reference
for this suite's ``fc`` mode; ``prompt`` mode follows bfcl's default prompting decoder instead.

What ``QwenFCHandler`` does with a completion, step by step:

1. Reasoning. If the text contains ``</think>``, only what follows the *last* ``</think>`` is kept
   (leading newlines dropped) and stored as the model's response. Calls written inside the reasoning
   are not calls.
2. Blocks. The calls are the bodies of the non-overlapping matches of ``<tool_call>\\n(.*?)\\n</tool_call>``
   (the dot matching newlines, each match as short as possible). The newline right after the opening
   tag and the one right before the closing tag are part of the pattern: ``<tool_call>{...}</tool_call>``
   on one line is not a block. Text outside the blocks is ignored.
3. JSON. Each body is read with ``json.loads``. A body that is not JSON is dropped without a word, and
   the other blocks still count (a reply whose only block is broken is a reply without calls).
4. Shape, in ``decode_ast`` (single-turn categories). Every parsed body must be a JSON object holding
   ``"name"`` and ``"arguments"``, and ``"arguments"`` must be an object; otherwise the whole reply is
   undecodable. There is no ``"parameters"`` alias, and a JSON-encoded string is not an object.
5. Shape, in ``decode_execute`` (multi-turn categories). The same, except that ``"arguments"`` may also
   be a string holding a JSON object: bfcl's ``convert_to_function_call`` decodes it.

An undecodable reply raises ``CallSyntaxError`` here, where bfcl's handler raises. A reply with no
block returns no call, where bfcl's handler returns an empty list.

The handler itself cannot be imported from the ``--no-deps`` install this project uses: its base class
imports tree-sitter and ``overrides``. Hence this module, which ``tests/test_eval_bfcl.py`` holds equal
to the real handler, text by text.

Replies from a function-calling server. ``OpenAICompatiblePolicy`` writes a server's parsed tool calls
into the reply as ``<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>``, the form Qwen's
chat template gives a call and the form read here. Which raw texts count as calls is then the server
parser's decision (vLLM's hermes parser also takes one-line blocks), not this module's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from spade_eval.suites.tool_calls import CallSyntaxError, ToolCall

REASONING_END = "</think>"
TOOL_CALL_BLOCK = re.compile(r"<tool_call>\n(.*?)\n</tool_call>", re.DOTALL)
"""A ``<tool_call>`` block as bfcl's hermes-style handlers find it (newlines inside the tags required)."""


def response_text(completion: str) -> str:
    """The part of a completion bfcl keeps as the response: what follows the last ``</think>``."""
    if REASONING_END not in completion:
        return completion
    return completion.split(REASONING_END)[-1].lstrip("\n")


def block_bodies(response: str) -> list[Any]:
    """The JSON value of every well-formed ``<tool_call>`` block, in order; bodies that are not JSON are
    left out, as bfcl's handler leaves them out."""
    bodies = []
    for body in TOOL_CALL_BLOCK.findall(response):
        try:
            bodies.append(json.loads(body))
        except (ValueError, RecursionError):
            continue
    return bodies


def decode_fc_reply(completion: str, *, for_execution: bool = False) -> list[ToolCall]:
    """The calls of a function-calling completion, as ``QwenFCHandler.decode_ast`` (or, with
    ``for_execution``, ``decode_execute``) finds them; ``CallSyntaxError`` where that raises.

    Tool names are returned as the model wrote them (mapping them back to bfcl's dotted names is the
    caller's business). A name that is a JSON number, boolean or null is kept by bfcl as a dict key and
    written into the call string with ``str``; it is returned here as that string, which, like bfcl's
    key, matches no function.
    """
    bodies = block_bodies(response_text(completion))
    if not all(isinstance(body, dict) for body in bodies):
        raise CallSyntaxError("a <tool_call> block holds JSON that is not an object")
    return [_call(body, for_execution) for body in bodies]


def _call(body: dict[str, Any], for_execution: bool) -> ToolCall:
    if "name" not in body or "arguments" not in body:
        raise CallSyntaxError('a <tool_call> object needs both "name" and "arguments"')
    name, arguments = body["name"], body["arguments"]
    if isinstance(name, (list, dict)):
        raise CallSyntaxError("a tool name must be a JSON string")
    if for_execution and isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            raise CallSyntaxError(f"{name}: the arguments string is not JSON") from None
    if not isinstance(arguments, dict):
        raise CallSyntaxError(f"{name}: arguments must be a JSON object")
    return ToolCall(name=str(name), arguments=dict(arguments))


def format_fc_reply(calls: list[ToolCall]) -> str:
    """Write calls the way Qwen's chat template writes them, one block per call: the form the reference
    handler reads (keyword arguments only)."""
    return "\n".join(
        "<tool_call>\n" + json.dumps({"name": call.name, "arguments": call.arguments}) + "\n</tool_call>"
        for call in calls
    )
