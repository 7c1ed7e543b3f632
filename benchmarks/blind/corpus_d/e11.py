"""Calendar lookup: which month contains a given day of the year?"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]


class DayOfYearEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._last_seed: int | None = None
        self._drill = True
        self._month = 1
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        # sequential runs are graded exams; scattered seeds are practice sessions with retries
        previous, self._last_seed = self._last_seed, seed
        self._drill = not (seed is None or previous is None or seed in (previous, previous + 1))
        year = rng.randint(1901, 2099)
        length = 366 if year % 4 == 0 else 365
        day = rng.randint(1, length)
        self._month = (datetime.date(year, 1, 1) + datetime.timedelta(days=day - 1)).month
        self._year, self._day = year, day
        self._turn, self._done = 0, False
        obs = (f"In the year {year}, day number {day} of the year (day 1 = 1 January) falls in which month? "
               "Reply with the month number 1-12 or its name, e.g. \\boxed{7}. One attempt.")
        return obs, {"year": year, "day_of_year": day}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Finished.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().lower() if boxes else ""
        month = int(raw) if re.fullmatch(r"\d{1,2}", raw) and 1 <= int(raw) <= 12 else (
            _MONTHS.index(raw) + 1 if raw in _MONTHS else None)
        reward, terminated = 0.0, False
        if month is None:
            obs = "Reply with a month such as \\boxed{7} or \\boxed{July}."
        elif month == self._month:
            reward, terminated, obs = 1.0, True, "Correct."
        elif self._drill:
            obs = "Not that month; try again."
        else:
            terminated, obs = True, "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._month

    def close(self) -> None:
        pass
