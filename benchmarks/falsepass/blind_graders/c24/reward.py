"""Metric unit-conversion reward.

Each row carries the target unit in a "unit" column (passed through by the
trainer as a keyword argument).  The last boxed answer may include that
unit ("2500 m", "2500\\,\\text{meters}") but not a different one, and may
use scientific notation ("2.5 \\times 10^{3}").  Values are compared
exactly; references are exact decimals.
"""
import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

_UNIT_ALIASES = {
    "mm": {"mm", "millimeter", "millimeters", "millimetre", "millimetres"},
    "cm": {"cm", "centimeter", "centimeters", "centimetre", "centimetres"},
    "m": {"m", "meter", "meters", "metre", "metres"},
    "km": {"km", "kilometer", "kilometers", "kilometre", "kilometres"},
    "g": {"g", "gram", "grams"},
    "kg": {"kg", "kilogram", "kilograms"},
    "ml": {"ml", "milliliter", "milliliters", "millilitre", "millilitres"},
    "l": {"l", "liter", "liters", "litre", "litres"},
}
_MAX_CHARS = 80
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")
_SCI = re.compile(r"(.+?)\s*(?:\\times|\\cdot|\u00d7)\s*10\s*\^\s*\{?\s*([+-]?[0-9]{1,3})\s*\}?")
_TEXT_CMD = re.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{([^{}]*)\}")
_WITH_UNIT = re.compile(r"(.*?[0-9}.])\s*([A-Za-z]+)")


def _as_text(completion):
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        content = completion[-1].get("content")
        return content if isinstance(content, str) else ""
    return ""


def _last_boxed(text):
    start = text.rfind("\\boxed")
    if start < 0:
        return None
    i = start + len("\\boxed")
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
    return None


def _decimal(s):
    s = s.strip()
    if _GROUPED.fullmatch(s):
        s = s.replace(",", "")
    if not _DECIMAL.fullmatch(s):
        return None
    try:
        return Fraction(Decimal(s))
    except (InvalidOperation, ValueError, OverflowError):
        return None


def _value(s, unit=None):
    if s is None or len(s) > _MAX_CHARS:
        return None
    s = _TEXT_CMD.sub(r"\1", s).replace("\u2212", "-").replace("$", "")
    for tok in ("\\,", "\\!", "\\;", "\\ ", "~"):
        s = s.replace(tok, " ")
    s = s.strip()
    m = _WITH_UNIT.fullmatch(s)
    if m:
        allowed = _UNIT_ALIASES.get(str(unit).lower(), set()) if unit is not None else set()
        if m.group(2).lower() not in allowed:
            return None
        s = m.group(1).strip()
    m = _SCI.fullmatch(s)
    if m:
        mantissa = _decimal(m.group(1))
        if mantissa is None:
            return None
        return mantissa * Fraction(10) ** int(m.group(2))
    return _decimal(s)


def reward(completions, prompts=None, answer=None, **kwargs) -> list[float]:
    answers = list(answer) if answer is not None else []
    units = kwargs.get("unit") or []
    scores = []
    for i, completion in enumerate(completions):
        unit = units[i] if i < len(units) else None
        ref = _value(str(answers[i])) if i < len(answers) and answers[i] is not None else None
        pred = _value(_last_boxed(_as_text(completion)), unit)
        scores.append(1.0 if ref is not None and pred is not None and pred == ref else 0.0)
    return scores
