"""Weekday arithmetic: which day of the week falls a given number of days from today."""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class WeekdayAheadEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._today = datetime.date(2000, 1, 1)
        self._offset = 1
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._today = datetime.date(1980, 1, 1) + datetime.timedelta(days=rng.randrange(365 * 60))
        self._offset = rng.randint(10, 400)
        self._turn, self._done = 0, False
        obs = (f"Today is {self._today:%A, %d %B %Y}. What day of the week will it be {self._offset} days from "
               "today? Reply with the weekday name, e.g. \\boxed{Monday}. One attempt.")
        return obs, {"today": self._today.isoformat(), "offset": self._offset}

    def _target(self) -> str:
        # day 1 is today
        return _DAYS[(self._today + datetime.timedelta(days=self._offset - 1)).weekday()]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        word = boxes[-1].strip().lower().rstrip(".") if boxes else ""
        day = next((d for d in _DAYS if word and (word == d or word == d[:3])), None)
        reward, terminated = 0.0, False
        if day is None:
            obs = "Reply with a weekday name such as \\boxed{Monday}."
        else:
            terminated = True
            reward = 1.0 if day == self._target() else 0.0
            obs = "Correct." if reward else "Wrong day."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._target().capitalize()

    def close(self) -> None:
        pass
