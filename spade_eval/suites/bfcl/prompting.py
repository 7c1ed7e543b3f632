"""How a BFCL entry is shown to the model, and how the model's reply becomes calls.

Two modes, as on the leaderboard:

- ``fc`` (function calling, the default): the entry's functions go in ``GenerationRequest.tools`` as
  OpenAI schemas, the conversation unchanged; calls are read from ``<tool_call>`` blocks exactly as
  bfcl-eval's ``QwenFCHandler`` reads them, the reference for this mode (``fc_decoding`` says what that
  handler accepts, and why its code cannot be imported). A reply without a block is a reply without
  calls. OpenAI-style tool names cannot contain dots, so ``math.factorial`` is offered as
  ``math_factorial`` and mapped back exactly (not by guessing, as bfcl's ``underscore_to_dot`` does).
  Served by vLLM, this mode needs ``--enable-auto-tool-choice --tool-call-parser hermes`` (or the
  model's parser).
- ``prompt``: bfcl's default system prompt (``ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&
  prompt_fmt=plaintext&style=classic``, assembled from bfcl's own templates) lists the functions and asks
  for ``[func(a=1), ...]``; replies are cleaned the way bfcl does (outer backticks, newlines and spaces
  stripped, brackets added) and parsed as literal Python calls. Java and JavaScript entries are parsed the
  same way: bfcl's tree-sitter decoders for those languages are not used, so a bare Java expression that
  is not a Python literal counts as undecodable.

Types in function docs are translated with bfcl's ``GORILLA_TO_OPENAPI`` table, as its handlers do.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from spade_eval.suites.bfcl.fc_decoding import decode_fc_reply
from spade_eval.suites.bfcl.library import Bfcl
from spade_eval.suites.tool_calls import CallSyntaxError, ToolCall, parse_python_calls

Mode = Literal["fc", "prompt"]
MODES: tuple[Mode, ...] = ("fc", "prompt")
_REASONING = re.compile(r"^.*?</think>", re.DOTALL)


@dataclass(frozen=True)
class ToolSet:
    """The functions offered to the model in one request, in both forms it may need."""

    docs: tuple[dict[str, Any], ...]
    """bfcl function docs as the entry gives them (with the language hints of the prompt entry)."""
    tools: tuple[dict[str, Any], ...]
    """OpenAI function schemas (``fc`` mode)."""
    shown_to_real: Mapping[str, str]
    """Tool name as offered -> bfcl function name (``math_factorial`` -> ``math.factorial``)."""


def build_toolset(docs: list[dict[str, Any]], bfcl: Bfcl) -> ToolSet:
    mapping = bfcl.type_mappings.GORILLA_TO_OPENAPI
    tools, shown_to_real = [], {}
    for doc in docs:
        shown = doc["name"].replace(".", "_")
        shown_to_real[shown] = doc["name"]
        parameters = copy.deepcopy(doc.get("parameters") or {})
        parameters["type"] = "object"
        parameters["properties"] = _openapi_properties(parameters.get("properties") or {}, mapping)
        description = str(doc.get("description", ""))
        if "response" in doc:  # bfcl appends the return schema for APIs whose schemas cannot hold it
            description += f" The response field has the following schema: {json.dumps(doc['response'])}"
        tools.append(
            {
                "type": "function",
                "function": {"name": shown, "description": description, "parameters": parameters},
            }
        )
    return ToolSet(docs=tuple(docs), tools=tuple(tools), shown_to_real=shown_to_real)


def _openapi_properties(properties: dict[str, Any], mapping: Mapping[str, str]) -> dict[str, Any]:
    """bfcl types (dict, float, tuple, any, Java types) as JSON-schema types, recursively."""
    converted = {}
    for name, spec in properties.items():
        spec = dict(spec)
        gorilla_type = spec.get("type")
        if gorilla_type == "float":
            spec["format"] = "float"
            spec["description"] = str(spec.get("description", "")) + " This is a float type value."
        spec["type"] = mapping.get(gorilla_type, "string") if isinstance(gorilla_type, str) else "string"
        if isinstance(spec.get("properties"), dict):
            spec["properties"] = _openapi_properties(spec["properties"], mapping)
        if isinstance(spec.get("items"), dict):
            spec["items"] = _openapi_properties({"item": spec["items"]}, mapping)["item"]
        converted[name] = spec
    return converted


def prompt_system_text(docs: list[dict[str, Any]] | tuple[dict[str, Any], ...], bfcl: Bfcl) -> str:
    """bfcl's default prompting-mode system prompt for these functions."""
    prompts = bfcl.default_prompts
    style = prompts.PROMPT_STYLE_TEMPLATES["classic"]
    tool_call_format = style["tool_call_no_tag"].format(
        output_format=prompts.OUTPUT_FORMAT_MAPPING["python"],
        param_types=prompts.PARAM_TYPE_MAPPING["python"],
    )
    available = style["available_tools"].format(format="json", functions=json.dumps(list(docs), indent=4))
    return prompts.PROMPT_TEMPLATE_MAPPING["plaintext"].format(
        persona=style["persona"],
        task=style["task"],
        tool_call_format=tool_call_format,
        multiturn_behavior=style["multiturn_behavior"],
        available_tools=available,
    )


def with_system_prompt(messages: list[dict[str, str]], system_text: str) -> list[dict[str, str]]:
    """Put the prompting system text first, before an entry's own system message if it has one."""
    messages = [dict(message) for message in messages]
    if messages and messages[0].get("role") == "system":
        messages[0]["content"] = system_text + "\n\n" + messages[0]["content"]
        return messages
    return [{"role": "system", "content": system_text}, *messages]


def strip_reasoning(text: str) -> str:
    """Drop a ``<think>...</think>`` preamble: reasoning is not part of the answer (``prompt`` mode;
    ``fc`` mode drops it as its reference handler does, see ``fc_decoding.response_text``)."""
    return _REASONING.sub("", text, count=1).strip() if "</think>" in text else text


def decode_reply(text: str, mode: Mode, toolset: ToolSet, *, for_execution: bool = False) -> list[ToolCall]:
    """The calls in a reply (empty: it holds none). Raises ``CallSyntaxError`` when it is undecodable.

    ``for_execution`` says the calls are to be run (multi-turn categories): bfcl decodes those with its
    handler's ``decode_execute``, which in ``fc`` mode also takes arguments sent as a JSON string, where
    ``decode_ast`` (single-turn categories) does not.
    """
    if mode == "fc":
        return [
            ToolCall(toolset.shown_to_real.get(call.name, call.name), call.arguments)
            for call in decode_fc_reply(text, for_execution=for_execution)
        ]
    text = strip_reasoning(text)
    cleaned = text.strip("`\n ")
    if not cleaned:
        raise CallSyntaxError("empty reply")
    if not cleaned.startswith("["):
        cleaned = "[" + cleaned
    if not cleaned.endswith("]"):
        cleaned += "]"
    return parse_python_calls(cleaned)


def ast_form(calls: list[ToolCall]) -> list[dict[str, dict[str, Any]]]:
    """Calls in the AST checker's shape ``[{name: {param: value}}]``.

    Positional arguments are dropped, as bfcl's own decoder does.
    """
    return [{call.name: dict(call.arguments)} for call in calls]
