"""RunTimeEnv: how long does a run take at a steady pace? (skill: rates and units)

A runner covers a distance at a pace given in seconds per 100 metres; the instances are chosen so
that the duration is a whole number of minutes.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class RunTimeEnv:
    """Duration = distance / 100 x pace."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._duration = 60
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            pace = rng.randint(18, 40)
            hundreds = rng.randint(20, 150)
            if (pace * hundreds) % 60 == 0:
                break
        self._duration = pace * hundreds
        self._turn, self._status = 0, (False, False)
        name = rng.choice(["Maya", "Tobi", "Ines", "Karl", "Zoe", "Ravi", "Lena", "Omar"])
        text = (f"{name} runs {hundreds * 100} metres at a steady pace of {pace} seconds per 100 metres. How many "
                "minutes does the run take? Box a whole number of minutes, e.g. \\boxed{42}. One answer is judged.")
        return text, {"distance_m": hundreds * 100}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,7}", content):
            obs = "Box a whole number, e.g. \\boxed{42}."
        elif int(content) == self._duration:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = "Wrong.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._duration

    def close(self) -> None:
        """Nothing to release."""
