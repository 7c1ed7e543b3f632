"""MeanScoreEnv: the mean of four test scores, exactly (skill: arithmetic).

The mean is given exactly: as a whole number, a decimal (81.25) or a fraction (325/4).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _parse(text: str) -> Fraction | None:
    text = text.strip()
    if re.fullmatch(r"-?\d{1,6}(?:\.\d{1,6})?", text):
        return Fraction(text)
    match = re.fullmatch(r"(-?\d{1,6})\s*/\s*(\d{1,6})", text)
    if match and int(match.group(2)):
        return Fraction(int(match.group(1)), int(match.group(2)))
    return None


class MeanScoreEnv:
    """Exact mean of four integers."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._scores: list[int] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        name = rng.choice(["Ada", "Bo", "Caro", "Dev", "Eun", "Femi", "Gus", "Hira"])
        self._scores = [rng.randint(40, 100) for _ in range(4)]
        self._turn, self._status = 0, (False, False)
        text = (f"{name} scored {', '.join(map(str, self._scores))} on four tests. What is the mean score, exactly? "
                "Box it as a whole number, decimal or fraction, e.g. \\boxed{72.5}. One answer is judged.")
        return text, {"tests": 4}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        value = _parse(boxes[-1]) if boxes else None
        mean = Fraction(sum(self._scores), 4)
        reward, terminated = 0.0, False
        if value is None:
            obs = "Box a number, e.g. \\boxed{72.5}."
        elif value == mean:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the mean is {float(mean):g}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return sum(self._scores) // len(self._scores)

    def close(self) -> None:
        """Nothing to release."""
