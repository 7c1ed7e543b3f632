"""PeakPositionEnv: at which position of a list is its largest value? (skill: scanning data)

Readings from a sensor are listed in order; the agent reports where the peak occurs.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class PeakPositionEnv:
    """Index of the maximum."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._readings: list[int] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._readings = rng.sample(range(100, 999), rng.randint(8, 12))
        self._turn, self._status = 0, (False, False)
        text = (f"Sensor readings, in order: {', '.join(map(str, self._readings))}.\n"
                "At which position is the largest reading? Positions are counted from 1 (the first reading is "
                "position 1). Box the position, e.g. \\boxed{3}. One answer is judged.")
        return text, {"count": len(self._readings)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        peak = self._readings.index(max(self._readings))
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,3}", content):
            obs = "Box a position number, e.g. \\boxed{3}."
        elif int(content) == peak:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = "Wrong position.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._readings.index(max(self._readings))

    def close(self) -> None:
        """Nothing to release."""
