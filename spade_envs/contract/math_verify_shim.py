"""``math_verify`` for environments: the two functions the SPADE release's prompts tell designers to import.

The release's templates start with ``from math_verify import parse, verify`` and compare answers with
``verify(parse(player_answer), parse(solution))``. The real package needs sympy, which neither the sandbox
nor a light install has, so environments get this module under that name instead (the loader maps the
import). It decides equality exactly where it can and never more leniently than math-verify:

* numbers: integers, decimals, scientific notation, ``a/b``, ``\\frac{a}{b}`` (also ``\\dfrac``,
  ``\\tfrac``), ``-`` signs, thousands separators and a trailing ``%`` (as math-verify reads
  percentages), compared as exact fractions; a value written with a decimal point is compared after
  rounding both sides to ``float_rounding`` places, as math-verify does;
* tuples and sets of numbers (``(1, 2)``, ``\\{1, 2\\}``), element by element;
* anything else: the text after removing ``\\boxed{}``, ``$``, ``\\text{}``, ``\\left``/``\\right`` and
  spaces, compared exactly.

Symbolic equivalence (``2\\sqrt{2}`` against ``\\sqrt{8}``) is not attempted: such answers match only when
written the same way. Known differences from math-verify: scientific notation (``1e3``) is read as a
number, sets written without ``$`` compare as sets, and identical plain text matches. Inputs are bounded (length, digits, exponents), as everything an environment hands
the host must be.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

__all__ = ["parse", "verify"]

MAX_TEXT = 2_000
MAX_DIGITS = 400
MAX_EXPONENT = 400

_NUMBER = re.compile(r"^[+-]?(\d[\d,]*)?(\.\d*)?([eE][+-]?\d+)?$")
_FRAC = re.compile(r"^([+-]?)\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}$")


class _Parsed:
    """One parsed answer: a number (Fraction), a tuple of numbers, a set of numbers, or plain text."""

    __slots__ = ("inexact", "percent_of", "text", "value")

    def __init__(self, value: Any, inexact: bool, text: str, percent_of: Fraction | None = None) -> None:
        self.value, self.inexact, self.text = value, inexact, text
        self.percent_of = percent_of  # for "x%": the bare x, which math-verify also accepts

    def __repr__(self) -> str:
        return f"parsed({self.text!r})"


def _strip_latex(text: str) -> str:
    text = text.strip()
    for _ in range(3):
        match = re.fullmatch(r"\\boxed\{(.*)\}", text, re.DOTALL)
        if match:
            text = match.group(1).strip()
    text = text.strip("$").strip()
    text = re.sub(r"\\text\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\(left|right|displaystyle|,|;|!)", "", text)
    text = re.sub(r"^[A-Za-z]\s*=\s*(?=\S)", "", text)
    return text.replace("\\%", "%").strip()


def _number(text: str) -> tuple[Fraction, bool] | None:
    """(value, written inexactly) for a plain number, a fraction or a LaTeX fraction; None otherwise."""
    text = text.replace(" ", "")
    percent = text.endswith("%")
    if percent:
        text = text[:-1]
    match = _FRAC.match(text)
    if match:
        sign, top, bottom = match.groups()
        top_value, bottom_value = _number(top), _number(bottom)
        if top_value is None or bottom_value is None or bottom_value[0] == 0:
            return None
        value = top_value[0] / bottom_value[0] * (-1 if sign == "-" else 1)
        inexact = top_value[1] or bottom_value[1]
    elif text.count("/") == 1:
        top_text, bottom_text = text.split("/")
        top_value, bottom_value = _number(top_text), _number(bottom_text)
        if top_value is None or bottom_value is None or bottom_value[0] == 0:
            return None
        value, inexact = top_value[0] / bottom_value[0], top_value[1] or bottom_value[1]
    else:
        if not text or not _NUMBER.match(text) or not any(c.isdigit() for c in text):
            return None
        mantissa, _, exponent = text.lower().partition("e")
        if len(mantissa.replace(",", "")) > MAX_DIGITS or (exponent and abs(int(exponent)) > MAX_EXPONENT):
            return None
        if "," in mantissa and not re.fullmatch(r"[+-]?\d{1,3}(,\d{3})*(\.\d*)?", mantissa):
            return None
        try:
            value = Fraction(text.replace(",", ""))
        except (ValueError, ZeroDivisionError):
            return None
        inexact = "." in mantissa or bool(exponent)
    return (value / 100 if percent else value), inexact


def _sequence(text: str) -> tuple[str, list[tuple[Fraction, bool]]] | None:
    """('tuple' | 'set', numbers) for ``(1, 2)``, ``[1, 2]`` or ``\\{1, 2\\}``."""
    kind = None
    if text.startswith("\\{") and text.endswith("\\}"):
        kind, inner = "set", text[2:-2]
    elif text[:1] + text[-1:] in ("()", "[]"):
        kind, inner = "tuple", text[1:-1]
    elif text[:1] + text[-1:] == "{}":
        kind, inner = "set", text[1:-1]
    if kind is None or "," not in inner:
        return None
    numbers = [_number(part) for part in inner.split(",")]
    if any(number is None for number in numbers) or len(numbers) > 100:
        return None
    return kind, numbers  # type: ignore[return-value]


def parse(text: Any, *args: Any, **kwargs: Any) -> list[_Parsed]:
    """What ``text`` says, as a one-item list (math-verify's ``parse`` also returns a list)."""
    raw = str(text)[:MAX_TEXT]
    cleaned = _strip_latex(raw)
    number = _number(cleaned)
    if number is not None:
        bare = _number(cleaned.replace(" ", "")[:-1]) if cleaned.endswith("%") else None
        return [_Parsed(number[0], number[1], cleaned, bare[0] if bare else None)]
    sequence = _sequence(cleaned.replace(" ", ""))
    if sequence is not None:
        kind, numbers = sequence
        values = tuple(n[0] for n in numbers)
        return [_Parsed((kind, values), any(n[1] for n in numbers), cleaned)]
    return [_Parsed(None, False, re.sub(r"\s+", "", cleaned))]


def _same_number(a: Fraction, b: Fraction, inexact: bool, rounding: int) -> bool:
    if a == b:
        return True
    return inexact and round(float(a), rounding) == round(float(b), rounding)


def _equal(gold: _Parsed, target: _Parsed, rounding: int) -> bool:
    inexact = gold.inexact or target.inexact
    if isinstance(gold.value, Fraction) and isinstance(target.value, Fraction):
        lefts = [v for v in (gold.value, gold.percent_of) if v is not None]
        rights = [v for v in (target.value, target.percent_of) if v is not None]
        return any(_same_number(a, b, inexact, rounding) for a in lefts for b in rights)
    if isinstance(gold.value, tuple) and isinstance(target.value, tuple):
        (kind, left), (other, right) = gold.value, target.value
        if kind != other or len(left) != len(right):
            return False
        if kind == "set":
            left, right = sorted(left), sorted(right)
        return all(_same_number(a, b, inexact, rounding) for a, b in zip(left, right))
    return gold.value is None and target.value is None and gold.text == target.text and gold.text != ""


def verify(gold: Any, target: Any, float_rounding: int = 6, *args: Any, **kwargs: Any) -> bool:
    """True when some parsed gold answer equals some parsed target answer (see the module docstring)."""
    golds = gold if isinstance(gold, list) else parse(gold)
    targets = target if isinstance(target, list) else parse(target)
    rounding = float_rounding if isinstance(float_rounding, int) and 0 <= float_rounding <= 15 else 6
    return any(isinstance(g, _Parsed) and isinstance(t, _Parsed) and _equal(g, t, rounding)
               for g in golds[:10] for t in targets[:10])
