"""ACEBench's scorers for the normal and special categories, written from the paper's description.

Normal: the reply's calls are compared with the answer's. The functions called must be exactly the
answer's (as a multiset; answer keys ``Name_1``, ``Name_2`` stand for repeated calls of ``Name``), and
the calls are matched one to one. Within a call every required parameter is present, no parameter is
outside the function's schema or the answer, and every value matches:

- strings: after normalising both (lower case; spaces, quotes and ``, . / - _ * ^`` removed) the answer
  must occur in the reply's value, so "April 1, 2024" and "april 1 2024" agree;
- numbers equal numerically (integer and float alike); booleans equal (``"true"``/``"false"`` accepted);
- lists equal element by element (strings normalised, dicts compared as below);
- dicts have the same keys and matching values, nested dicts recursively.

An answer may list alternatives; matching any one is enough. ACEBench's reference checker skips the
value comparison for numbers and booleans; this one does not.

Special: the reply must contain the sentence the prompt prescribes and name what the answer names (the
API and its missing parameters, or the incorrect values), or say it cannot help "due to the limitations
of the function". Matching is literal, as in ACEBench.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from spade_eval.suites.tool_calls import (
    CallSyntaxError,
    ToolCall,
    has_tool_call_tags,
    parse_python_calls,
    parse_tagged_calls,
)

_NORMALISE = re.compile(r"[\s,./\-_*^'\"]")
_REPEAT_SUFFIX = re.compile(r"_\d+$")
_REASONING = re.compile(r"^.*?</think>", re.DOTALL)
_FENCE = re.compile(r"```[a-zA-Z]*")


@dataclass(frozen=True)
class Verdict:
    valid: bool
    reason: str = ""


def extract_calls(text: str) -> list[ToolCall]:
    """The calls in a reply: ``<tool_call>`` blocks if there are any, else the ``[...]`` list in the text.

    Reasoning (``<think>...</think>``) and code fences around the list are ignored. Raises
    ``CallSyntaxError`` when there is no parsable list of calls.
    """
    if "</think>" in text:
        text = _REASONING.sub("", text, count=1)
    if has_tool_call_tags(text):
        return parse_tagged_calls(text)
    text = _FENCE.sub("", text)
    start, end = text.find("["), text.rfind("]")
    if start == -1 or end < start:
        raise CallSyntaxError("no [ApiName(...)] list in the reply")
    return parse_python_calls(text[start : end + 1])


def normalise(value: Any) -> str:
    return _NORMALISE.sub("", str(value)).lower()


# ---------------------------------------------------------------------- normal categories
def check_normal(functions: list[dict[str, Any]], calls: list[ToolCall], answer: Any) -> Verdict:
    """Whether ``calls`` match the answer (a dict ``{name: {param: value}}`` or a list of alternatives)."""
    alternatives = answer if isinstance(answer, list) else [answer]
    verdict = Verdict(False, "no answer to compare with")
    for alternative in alternatives:
        verdict = _check_alternative(functions, calls, alternative)
        if verdict.valid:
            return verdict
    return verdict


def _check_alternative(
    functions: list[dict[str, Any]], calls: list[ToolCall], answer: dict[str, Any]
) -> Verdict:
    expected = [(_REPEAT_SUFFIX.sub("", name), params) for name, params in answer.items()]
    wanted, given = Counter(name for name, _ in expected), Counter(call.name for call in calls)
    if wanted != given:
        return Verdict(False, f"functions called {dict(given)}, expected {dict(wanted)}")
    if any(call.positional for call in calls):
        return Verdict(False, "positional arguments: parameters must be named")
    reasons: list[str] = []

    def assign(index: int, used: frozenset[int]) -> bool:
        if index == len(expected):
            return True
        name, params = expected[index]
        schema = _schema(functions, name)
        for position, call in enumerate(calls):
            if position in used or call.name != name:
                continue
            reason = _call_mismatch(schema, call.arguments, params)
            if reason is None and assign(index + 1, used | {position}):
                return True
            if reason is not None:
                reasons.append(f"{name}: {reason}")
        return False

    return (
        Verdict(True)
        if assign(0, frozenset())
        else Verdict(False, reasons[0] if reasons else "no matching call")
    )


def _schema(functions: list[dict[str, Any]], name: str) -> dict[str, Any]:
    for function in functions:
        if function.get("name") == name:
            return function.get("parameters") or function.get("arguments") or {}
    return {}


def _call_mismatch(schema: dict[str, Any], arguments: dict[str, Any], expected: dict[str, Any]) -> str | None:
    properties = schema.get("properties") or {}
    for required in schema.get("required") or []:
        if required not in arguments:
            return f"missing required parameter {required!r}"
    for key, value in arguments.items():
        if key not in properties or key not in expected:
            return f"unexpected parameter {key!r}"
        if not _value_matches(value, expected[key]):
            return f"wrong value for {key!r}: {value!r}, expected {expected[key]!r}"
    return None


def _value_matches(value: Any, expected: Any) -> bool:
    if isinstance(expected, bool):
        if isinstance(value, str) and value.lower() in ("true", "false"):
            value = value.lower() == "true"
        return isinstance(value, bool) and value == expected
    if isinstance(expected, (int, float)):
        return (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isclose(value, expected, rel_tol=1e-9, abs_tol=1e-12)
        )
    if isinstance(expected, str):
        return isinstance(value, str) and normalise(expected) in normalise(value)
    if isinstance(expected, list):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(expected)
            and all(_element_matches(item, want) for item, want in zip(value, expected))
        )
    if isinstance(expected, dict):
        return (
            isinstance(value, dict)
            and len(value) == len(expected)
            and all(key in expected and _value_matches(item, expected[key]) for key, item in value.items())
        )
    return value == expected


def _element_matches(value: Any, expected: Any) -> bool:
    """List elements: strings must be equal after normalising (not merely contain the answer)."""
    if isinstance(expected, str):
        return isinstance(value, str) and normalise(value) == normalise(expected)
    return _value_matches(value, expected)


# ---------------------------------------------------------------------- special categories
def check_special(category: str, reply: str, answer: Any) -> Verdict:
    if category == "special_incomplete":
        if "Missing necessary parameters" not in reply:
            return Verdict(False, "does not say which parameters are missing")
        for api, parameters in answer.items():
            if api not in reply:
                return Verdict(False, f"does not name the API {api}")
            missing = [parameter for parameter in parameters if parameter not in reply]
            if missing:
                return Verdict(False, f"does not name the missing parameter(s) {missing}")
        return Verdict(True)
    if category == "special_error_param":
        if "There is incorrect value" not in reply:
            return Verdict(False, "does not point out an incorrect value")
        for parameter, values in answer.items():
            wrong = [value for value in values if str(value) not in reply]
            if wrong:
                return Verdict(False, f"does not quote the incorrect value(s) {wrong} of {parameter}")
        return Verdict(True)
    if category == "special_irrelevant":
        if "the limitations of the function" not in reply:
            return Verdict(False, "does not decline the out-of-scope request")
        return Verdict(True)
    raise ValueError(f"not a special category: {category}")
