"""WorksheetEnv: a three-question arithmetic worksheet answered in one box; one third per right part.

Part 3 asks for a fraction in lowest terms; any exact way of writing the same number is accepted
(3/4, 0.75, 6/8), as a teacher marking by value would. Parts are separated by semicolons.
"""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_INT_OR_DEC = re.compile(r"^-?\d{1,12}(?:\.\d{1,12})?$")
_RATIO = re.compile(r"^(-?\d{1,12})\s*/\s*(\d{1,12})$")


def _number(text: str) -> Fraction | None:
    text = text.strip()
    if _INT_OR_DEC.match(text):
        return Fraction(text)
    match = _RATIO.match(text)
    if match and int(match.group(2)) != 0:
        return Fraction(int(match.group(1)), int(match.group(2)))
    return None


class WorksheetEnv:
    """Three parts, partial credit in thirds."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answers: list[Fraction] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        a, b, c = rng.randint(100, 899), rng.randint(100, 899), rng.randint(50, 400)
        d, e = rng.randint(12, 48), rng.randint(12, 48)
        while True:
            x, y = rng.randint(1, 11), rng.randint(2, 12)
            if math.gcd(x, y) == 1 and x != y:
                break
        k = rng.randint(2, 9)
        self._answers = [Fraction(a + b - c), Fraction(d * e), Fraction(x, y)]
        self._turn, self._status = 0, (False, False)
        text = (
            "Worksheet, three parts:\n"
            f"  (1) {a} + {b} - {c}\n"
            f"  (2) {d} x {e}\n"
            f"  (3) {x * k}/{y * k} in lowest terms\n"
            "Answer all three in one box separated by semicolons, e.g. \\boxed{120; 96; 2/5}. "
            "Each right part scores 1/3 (part 3 is marked by value, so 0.4 and 2/5 are the same); all "
            "three right scores 1.0. One scored answer; two different boxed answers score 0."
        )
        return text, {"parts": 3}

    @staticmethod
    def _parse(content: str) -> list[str] | None:
        parts = [p.strip() for p in content.split(";")]
        return parts if len(parts) == 3 and all(parts) else None

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already marked; call reset().", 0.0, *self._status, {}
        self._turn += 1
        found = [p for p in (self._parse(c) for c in _BOX.findall(action if isinstance(action, str) else ""))
                 if p is not None]
        reward, terminated = 0.0, False
        if not found:
            obs = "Give three answers separated by semicolons in one box, e.g. \\boxed{120; 96; 2/5}."
        elif len({tuple(_number(p) for p in parts) for parts in found}) > 1:
            obs, terminated = "Two different answers were boxed; this scores 0.", True
        else:
            marks = [_number(p) == want for p, want in zip(found[-1], self._answers)]
            hits = sum(marks)
            terminated = True
            reward = 1.0 if hits == 3 else hits / 3
            obs = "All three parts right!" if hits == 3 else \
                f"Marked: {', '.join('right' if m else 'wrong' for m in marks)} ({hits}/3)."
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        first, second, third = self._answers
        return f"{first}; {second}; {third.numerator}/{third.denominator}"

    def close(self) -> None:
        """Nothing to release."""
