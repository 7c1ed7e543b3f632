"""DivisibleOrNotEnv: decide whether a seven-digit number is divisible by a small divisor.

Two legal answers, yes and no, drawn with equal probability. Guessing is discouraged the way a quiz
show does it: a right answer scores +1, a wrong one scores -1 and ends the round.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_DIVISORS = (3, 4, 6, 7, 8, 9, 11, 12)


class DivisibleOrNotEnv:
    """Yes/no question with a -1 penalty for a wrong answer."""

    reward_range = (-1.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._number = 0
        self._divisor = 3
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        divisor = rng.choice(_DIVISORS)
        divisible = rng.random() < 0.5
        quotient = rng.randint(1_000_000 // divisor + 1, 9_999_999 // divisor - 1)
        number = divisor * quotient + (0 if divisible else rng.randint(1, divisor - 1))
        self._number, self._divisor = number, divisor
        self._turn, self._status = 0, (False, False)
        text = (
            f"Is {number:,} divisible by {divisor}? Answer \\boxed{{yes}} or \\boxed{{no}} (case does not "
            "matter).\nScoring: a right answer scores +1; a wrong answer scores -1 and ends the round. "
            "Boxing both yes and no counts as a wrong answer."
        )
        return text, {"divisor": divisor}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Round over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        said = [c.strip().lower() for c in _BOX.findall(action if isinstance(action, str) else "")]
        said = [s for s in said if s in ("yes", "no")]
        truth = "yes" if self._number % self._divisor == 0 else "no"
        reward, terminated = 0.0, False
        if not said:
            obs = "Please answer \\boxed{yes} or \\boxed{no}."
        elif len(set(said)) > 1 or said[0] != truth:
            obs, reward, terminated = f"Wrong: the answer is {truth}. (-1)", -1.0, True
        else:
            obs, reward, terminated = "Right! (+1)", 1.0, True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return "yes" if self._number % self._divisor == 0 else "no"

    def hint(self) -> str:
        return {3: "Add up the digits.", 4: "Only the last two digits matter.", 6: "Check 2 and 3.",
                7: "Long division is quickest here.", 8: "Only the last three digits matter.",
                9: "Add up the digits.", 11: "Alternate the signs of the digits.",
                12: "Check 3 and 4."}[self._divisor]

    def close(self) -> None:
        """Nothing to release."""
