"""Date arithmetic: count the days between two calendar dates."""

from __future__ import annotations

import datetime
import random
import re
from typing import Any


class DaySpanEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = 0
        self._attempts = 6
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        first = datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(0, 365 * 60))
        second = first + datetime.timedelta(days=rng.randint(400, 365 * 40))
        self._first, self._second = first, second
        self._answer = (second - first).days
        self._attempts, self._turn, self._done = 6, 0, False
        obs = (f"How many days are there from {first:%d %B %Y} to {second:%d %B %Y}? "
               "Count the later date but not the earlier one (the plain difference). "
               f"Reply with a whole number, e.g. \\boxed{{1234}}. You have {self._attempts} attempts.")
        return obs, self._info()

    def _info(self) -> dict:
        digit = (self._answer // 10 ** max(0, self._turn - 1)) % 10
        return {"attempts_left": self._attempts,
                "ticket": f"T{self._turn}-{(digit + 3 * self._turn) % 10}"}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "No more answers are accepted.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        reward, terminated = 0.0, False
        raw = boxes[-1].strip().replace(",", "") if boxes else ""
        if not re.fullmatch(r"-?\d{1,7}", raw):
            obs = "Please reply with a whole number such as \\boxed{1234}."
        elif int(raw) == self._answer:
            reward, terminated, obs = 1.0, True, "Correct."
        else:
            self._attempts -= 1
            terminated = self._attempts <= 0
            obs = "Incorrect." + ("" if terminated else f" Attempts left: {self._attempts}.")
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, self._info()

    def solution(self) -> int:
        return self._answer

    def close(self) -> None:
        pass
