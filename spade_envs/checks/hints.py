"""Does a hint give the answer away?

In SPADE the designer is paid by regret: the hinted agent's return minus the unhinted one. A hint
that contains the answer maximises regret without teaching anything, and a designer trained on it
learns to cheat. The prompt asks for no answer; this check enforces it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from spade_envs.contract.actions import extract_boxed

_SMALL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
MIN_SEQUENCE_MOVES = 4
"""A hint may name a move or two; spelling out this many solution moves in order gives the game away."""


def number_words(value: int) -> str | None:
    """English words for 0..999 ('forty-two'), the forms a hint might spell a number in."""
    if not 0 <= value < 1000:
        return None
    if value < 20:
        return _SMALL[value]
    if value < 100:
        tens, ones = divmod(value, 10)
        return _TENS[tens] + (f"-{_SMALL[ones]}" if ones else "")
    hundreds, rest = divmod(value, 100)
    return f"{_SMALL[hundreds]} hundred" + (f" and {number_words(rest)}" if rest else "")


def _normalise(text: str) -> str:
    """Lower case, thousands separators dropped (1,000 -> 1000), punctuation turned into spaces."""
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())
    return " ".join(re.sub(r"[^\w.\-/]+", " ", text).split())


def answer_forms(answer: str) -> set[str]:
    """The answer and the other ways to write it: numeric variants and number words."""
    text = _normalise(answer)
    forms = {text} if text else set()
    try:
        number = Fraction(text.replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return forms
    forms.add(str(number.numerator) if number.denominator == 1 else f"{number.numerator}/{number.denominator}")
    decimal = float(number)
    forms.add(f"{decimal:g}")
    if number.denominator == 1:
        value = number.numerator
        forms.add(f"{value}.0")
        words = number_words(abs(value))
        if words:
            forms.add(("minus " if value < 0 else "") + words)
    return {form for form in forms if form}


def _contains(hint: str, form: str) -> bool:
    """Whole-token containment, so that the answer 12 does not match 'step 120'."""
    return re.search(rf"(?<![\w.]){re.escape(form)}(?![\w]|\.\d)", hint) is not None


def _final_answer(solution: Any, tool_use: bool) -> str | None:
    """The answer a solution states: a bare value, a one-move list, or a tool-use list's final answer."""
    if isinstance(solution, (list, tuple)):
        if tool_use and solution and not isinstance(solution[-1], dict):
            return str(solution[-1])
        if len(solution) == 1 and isinstance(solution[0], (str, int, float)):
            return _final_answer(solution[0], tool_use)
        return None
    if solution is None:
        return None
    text = str(solution)
    return extract_boxed(text) if "\\boxed{" in text else text


def _move_sequence(solution: Any) -> str | None:
    if not isinstance(solution, (list, tuple)) or len(solution) < MIN_SEQUENCE_MOVES:
        return None
    if any(not isinstance(move, str) for move in solution):
        return None
    moves = [extract_boxed(move) if "\\boxed{" in move else move for move in solution]
    return "".join(re.sub(r"\W+", "", (m or "").lower()) for m in moves) or None


def find_hint_leak(hint: str, solutions: list[Any], *, tool_use: bool = False) -> str | None:
    """How ``hint`` leaks one of the ``solutions`` (one per seed), or None if it does not.

    Answers shorter than two characters are not matched: a hint may well say 'in 3 moves'.
    """
    normalised = _normalise(hint)
    squeezed = re.sub(r"\W+", "", hint.lower())
    for solution in solutions:
        answer = _final_answer(solution, tool_use)
        if answer is not None:
            for form in sorted(answer_forms(answer), key=len, reverse=True):
                if len(form) >= 2 and _contains(normalised, form):
                    return f"contains the answer ({form!r})"
        sequence = _move_sequence(solution)
        if sequence and len(sequence) >= MIN_SEQUENCE_MOVES and sequence in squeezed:
            return "spells out the winning move sequence"
        final_number = _final_move_number(solution)
        if final_number and _contains(normalised, final_number):
            return f"contains the number the winning move states ({final_number!r})"
    return None


def _final_move_number(solution: Any) -> str | None:
    """The number in a game's winning last move (``\\boxed{guess 606}``): usually the secret itself."""
    if not isinstance(solution, (list, tuple)) or len(solution) < 2 or not isinstance(solution[-1], str):
        return None
    move = extract_boxed(solution[-1]) if "\\boxed{" in solution[-1] else solution[-1]
    numbers = re.findall(r"-?\d+(?:\.\d+)?", move or "")
    return numbers[-1] if len(numbers) == 1 and len(numbers[0].lstrip("-")) >= 2 else None
