"""Time zones: convert a meeting time between two UTC offsets (clock time only)."""

from __future__ import annotations

import random
import re
from typing import Any


def _fmt(offset: int) -> str:
    return f"UTC{offset:+d}" if offset else "UTC"


class MeetingClockEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = (0, 0)
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        here, there = rng.sample(range(-10, 13), 2)
        hour, minute = rng.randint(0, 23), rng.choice([0, 15, 30, 45])
        total = (hour * 60 + minute + (there - here) * 60) % (24 * 60)
        self._answer = divmod(total, 60)
        self._turn, self._done = 0, False
        obs = (f"A call is booked for {hour:02d}:{minute:02d} local time in a city on {_fmt(here)}. What does the "
               f"clock show at that moment in a city on {_fmt(there)}? Ignore the date; give 24-hour time as "
               "HH:MM, e.g. \\boxed{07:45}. One attempt.")
        return obs, {"from": _fmt(here), "to": _fmt(there)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", boxes[-1]) if boxes else None
        reward, terminated = 0.0, False
        if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
            obs = "Reply with a 24-hour time such as \\boxed{07:45}."
        else:
            terminated = True
            reward = 1.0 if (int(match.group(1)), int(match.group(2))) == self._answer else 0.0
            obs = "Correct." if reward else "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return f"{self._answer[0]:02d}:{self._answer[1]:02d}"

    def close(self) -> None:
        pass
