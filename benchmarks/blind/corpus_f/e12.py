"""FestivalDaysEnv: how many days does an event run? (skill: counting calendar days)

An event runs from a first day to a last day (dates in words, possibly across months and years).
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_EVENTS = ["book fair", "film festival", "harvest market", "jazz week", "science expo", "lantern festival"]


def _words(date: datetime.date) -> str:
    return f"{date.day} {_MONTHS[date.month - 1]} {date.year}"


class FestivalDaysEnv:
    """Count the event's days."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._first = datetime.date(2024, 1, 1)
        self._last = datetime.date(2024, 1, 9)
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._first = datetime.date(rng.randint(2000, 2030), rng.randint(1, 12), rng.randint(1, 28))
        self._last = self._first + datetime.timedelta(days=rng.randint(5, 90))
        self._turn, self._status = 0, (False, False)
        text = (f"The {rng.choice(_EVENTS)} opens on {_words(self._first)} and its last day is {_words(self._last)}. "
                "On how many days is it open? Count both the opening day and the last day. Box a whole number, "
                "e.g. \\boxed{12}. One answer is judged.")
        return text, {"first": self._first.isoformat()}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        days = (self._last - self._first).days
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,5}", content):
            obs = "Box a whole number of days, e.g. \\boxed{12}."
        elif int(content) == days:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = "Wrong count.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return (self._last - self._first).days

    def close(self) -> None:
        """Nothing to release."""
