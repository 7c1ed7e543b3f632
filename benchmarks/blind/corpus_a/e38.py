"""Savings Growth: balance of a deposit under monthly compounding (skill: financial arithmetic).

A sum is deposited at a fixed annual interest rate, compounded monthly, and left untouched for a
number of years. The player reports the final balance in dollars. Rounding conventions differ between
calculators, so an answer within 0.5% of the exact balance is accepted, e.g. \\boxed{1834.20}.
"""

from __future__ import annotations

import random
import re
from typing import Any


class SavingsGrowthEnv:
    """Compound interest with monthly compounding; 0.5% tolerance."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._balance = 0.0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        principal = rng.randrange(500, 20001, 50)
        rate = rng.choice([1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.5])
        years = rng.randint(2, 25)
        self._balance = principal * (1 + rate / 100 / 12) ** (12 * years)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Savings Growth. ${principal:,} is deposited at {rate}% annual interest, compounded monthly, "
                f"and left for {years} years. What is the balance at the end, in dollars? Answers within 0.5% "
                "are accepted. Write the amount in a box, e.g. \\boxed{1834.20}.")
        return text, {"turn": 0, "principal": principal, "rate": rate, "years": years}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        text = boxes[-1].strip().lstrip("$").replace(",", "") if boxes else ""
        try:
            value = float(text)
        except ValueError:
            value = None
        reward = 0.0
        if value is None or value != value:
            obs = "Write the balance as a number of dollars in a box, e.g. \\boxed{1834.20}."
        else:
            self._terminated = True
            if abs(value - self._balance) <= 0.005 * abs(value):
                reward, obs = 1.0, f"Correct: the balance is ${self._balance:,.2f}."
            else:
                obs = "That is not within 0.5% of the final balance."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._balance:.2f}"

    def close(self) -> None:
        """Nothing to release."""
