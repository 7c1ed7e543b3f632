"""LargerFractionEnv: which of two fractions is larger? (skill: comparing fractions)

Two fractions with unlike denominators are shown; the agent answers LEFT or RIGHT. A wrong answer
ends the round.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class LargerFractionEnv:
    """LEFT or RIGHT."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._left = Fraction(1, 2)
        self._right = Fraction(1, 3)
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            b, d = rng.randint(7, 29), rng.randint(7, 29)
            a = rng.randint(b // 2 + 1, b - 1)
            c = rng.randint(1, d // 2 + 1)
            if b != d and Fraction(a, b) != Fraction(c, d):
                break
        self._left, self._right = Fraction(a, b), Fraction(c, d)
        self._turn, self._status = 0, (False, False)
        text = (f"Which is larger: {a}/{b} (LEFT) or {c}/{d} (RIGHT)? Answer \\boxed{{LEFT}} or \\boxed{{RIGHT}}. "
                "A wrong answer ends the round.")
        return text, {"choices": ["LEFT", "RIGHT"]}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Round over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        said = boxes[-1].strip().upper() if boxes else ""
        truth = "LEFT" if self._left > self._right else "RIGHT"
        reward, terminated = 0.0, False
        if said not in ("LEFT", "RIGHT"):
            obs = "Answer \\boxed{LEFT} or \\boxed{RIGHT}."
        elif said == truth:
            obs, reward, terminated = "Right!", 1.0, True
        else:
            obs, terminated = f"Wrong; {truth} is larger.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return "LEFT" if self._left > self._right else "RIGHT"

    def close(self) -> None:
        """Nothing to release."""
