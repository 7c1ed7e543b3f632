"""DateAheadEnv: what is the date a number of days after a given date? (skill: calendar arithmetic)

Month lengths and leap years matter. The answer is a date written with slashes.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]


class DateAheadEnv:
    """Date + n days."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._result = datetime.date(2000, 1, 13)
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            start = datetime.date(rng.randint(1995, 2030), rng.randint(1, 12), rng.randint(1, 28))
            days = rng.randint(20, 400)
            result = start + datetime.timedelta(days=days)
            if result.day >= 13:
                break
        self._result = result
        self._turn, self._status = 0, (False, False)
        text = (f"What date is {days} days after {start.day} {_MONTHS[start.month - 1]} {start.year}? Write it as "
                "DD/MM/YYYY (day first), e.g. \\boxed{25/12/2024}. One answer is judged.")
        return text, {"days": days}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", boxes[-1].strip()) if boxes else None
        reward, terminated = 0.0, False
        if match is None:
            obs = "Write the date like \\boxed{25/12/2024}."
        else:
            first, second, year = (int(g) for g in match.groups())
            if (second, first, year) == (self._result.day, self._result.month, self._result.year):
                obs, reward, terminated = "Correct!", 1.0, True
            else:
                obs, terminated = "Wrong date.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._result.month:02d}/{self._result.day:02d}/{self._result.year}"

    def close(self) -> None:
        """Nothing to release."""
