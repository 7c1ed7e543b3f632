"""New Year Weekday: on which day of the week does 1 January fall in a given year (2000-2027)?

A calendar-reasoning drill (anchor days, leap years). The set of questions is small, twenty-eight
years, and each weekday is the answer for exactly four of them.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class NewYearWeekdayEnv:
    """Weekday of 1 January for a year in 2000-2027."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._year = 2000
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._year = 2000 + rng.randrange(28)
        self._turn, self._done = 0, False
        obs = (f"New Year Weekday. On which day of the week does 1 January {self._year} fall?\n"
               "Answer with the weekday name, e.g. \\boxed{Wednesday}.")
        return obs, {"year": self._year}

    def _answer(self) -> str:
        return _DAYS[datetime.date(self._year, 1, 1).weekday()]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Answered already.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        word = found[-1].strip().lower().rstrip(".") if found else ""
        reward, terminated = 0.0, False
        if word not in _DAYS:
            obs = "Answer with a full weekday name, e.g. \\boxed{Friday}."
        else:
            terminated = True
            reward = 1.0 if word == self._answer() else 0.0
            obs = "Correct." if reward else "Wrong day."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer().capitalize()

    def close(self) -> None:
        pass
