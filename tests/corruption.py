"""A wrong answer of the same shape, for the gold-answer checks: a scorer that gives gold 100% must give
this 0. Shared by the tool-use tests so both benchmarks are checked against the same corruptions."""

from __future__ import annotations

from typing import Any

WRONG = "wrong-value-qzx"


def corrupt_value(value: Any) -> Any:
    """``value`` changed in a way no checker should accept: a flipped flag, an off number, a foreign
    string, an extra list element or dictionary key."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 7
    if isinstance(value, str):
        return WRONG
    if isinstance(value, list):
        return [*value, WRONG]
    if isinstance(value, dict):
        return {**value, "unexpected_key_qzx": 1}
    return WRONG
