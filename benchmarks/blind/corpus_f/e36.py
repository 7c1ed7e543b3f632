"""TrainDistanceEnv: how far does a train travel at a steady speed? (skill: unit handling)

Speeds are in km/h and durations in hours and minutes; the answer is a whole number of kilometres.
Answers are read forgivingly: units, thousands separators and stray words are dropped before the
number is compared.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_TRAINS = ["the night train", "a regional train", "the freight train", "an express", "the mail train"]


class TrainDistanceEnv:
    """Distance = speed x time."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._km = 0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        speed = 4 * rng.randint(10, 40)
        hours, minutes = rng.randint(1, 7), rng.choice([15, 30, 45])
        self._km = speed * (hours * 60 + minutes) // 60
        self._turn, self._status = 0, (False, False)
        text = (f"{rng.choice(_TRAINS).capitalize()} runs at a steady {speed} km/h for {hours} h {minutes} min. "
                "How many kilometres does it cover? Box a whole number, e.g. \\boxed{250}. One answer is judged.")
        return text, {"unit": "km"}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        digits = re.sub(r"[^0-9]", "", boxes[-1])[:9] if boxes else ""
        reward, terminated = 0.0, False
        if not digits:
            obs = "Box a whole number of kilometres, e.g. \\boxed{250}."
        elif int(digits) == self._km:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the train covers {self._km} km.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._km

    def close(self) -> None:
        """Nothing to release."""
