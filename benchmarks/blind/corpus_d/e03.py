"""Savings projection: balance of a deposit after compound interest, within a stated tolerance."""

from __future__ import annotations

import random
import re
from typing import Any

_PERIODS = {"monthly": 12, "quarterly": 4, "semi-annually": 2, "annually": 1}


class SavingsGrowthEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._target = 0.0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        principal = rng.randrange(1000, 50001, 100)
        rate = rng.choice([1.5, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0, 4.25, 4.75, 5.0, 5.5, 6.0])
        years = rng.randint(2, 15)
        period = rng.choice(sorted(_PERIODS))
        k = _PERIODS[period]
        self._target = round(principal * (1 + rate / 100 / k) ** (k * years), 2)
        self._turn, self._done = 0, False
        obs = (f"A deposit of ${principal:,} earns {rate}% nominal annual interest, compounded {period}, with no "
               f"withdrawals. What is the balance after {years} years, in dollars? Answers within $0.50 of the "
               "exact balance are accepted. Reply with the number only, e.g. \\boxed{12345.67}. One attempt; "
               "a reply that is not a plain number does not use it.")
        return obs, {"principal": principal, "rate_percent": rate, "years": years, "compounding": period}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The projection is closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().replace("$", "").replace(",", "") if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,9}(\.\d{1,6})?", raw):
            obs = "Reply with a plain number of dollars, e.g. \\boxed{12345.67}."
        else:
            terminated = True
            reward = 1.0 if abs(float(raw) - self._target) <= 0.5 else 0.0
            obs = "Within tolerance." if reward else "Outside the accepted tolerance."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._target:.2f}"

    def close(self) -> None:
        pass
