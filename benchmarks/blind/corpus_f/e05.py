"""DigitSumEnv: the digit sum of a product (skill: careful multiplication).

The agent multiplies two numbers and adds up the digits of the product. Models like to show their
working inside the box ("= 27"), so the checker reads the numbers written in the box.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class DigitSumEnv:
    """Digit sum of a x b."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a, self._b = 2, 3
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._a, self._b = rng.randint(1000, 9999), rng.randint(100, 999)
        self._turn, self._status = 0, (False, False)
        text = (f"Compute {self._a} x {self._b}, then add up the digits of the product. "
                "Give the digit sum as a single whole number in a box, e.g. \\boxed{30}. One answer is judged.")
        return text, {"factors": 2}

    def _answer(self) -> int:
        return sum(int(d) for d in str(self._a * self._b))

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        numbers = re.findall(r"-?\d{1,6}", boxes[-1]) if boxes else []
        reward, terminated = 0.0, False
        if not numbers:
            obs = "Put a whole number in a box, e.g. \\boxed{30}."
        elif str(self._answer()) in numbers:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the digit sum is {self._answer()}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._answer()

    def close(self) -> None:
        """Nothing to release."""
