"""SortPricesEnv: sort a handful of prices written in mixed formats (skill: normalising and ordering).

Prices appear as "$12.50", "12 dollars 5 cents" or "1250c"; the agent converts them and lists them
sorted from the lowest to the highest, as plain cent amounts.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _format(cents: int, style: int) -> str:
    if style == 0:
        return f"${cents // 100}.{cents % 100:02d}"
    if style == 1:
        return f"{cents // 100} dollars {cents % 100} cents"
    return f"{cents}c"


class SortPricesEnv:
    """Sort six prices; answer in cents."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cents: list[int] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._cents = rng.sample(range(105, 4999), 6)
        shown = [_format(c, rng.randrange(3)) for c in self._cents]
        self._turn, self._status = 0, (False, False)
        text = (f"Prices: {'; '.join(shown)}.\nConvert each to cents and list them in ascending order (lowest "
                "first), separated by commas, e.g. \\boxed{105, 230, 999, 1200, 2500, 4010}. One answer is judged.")
        return text, {"count": 6}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        items = [p.strip() for p in boxes[-1].split(",")] if boxes else []
        reward, terminated = 0.0, False
        if len(items) != 6 or not all(re.fullmatch(r"\d{1,6}", p) for p in items):
            obs = "Box six whole cent amounts separated by commas."
        elif [int(p) for p in items] == sorted(self._cents, reverse=True):
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = "That is not the right list.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(str(c) for c in sorted(self._cents, reverse=True))

    def close(self) -> None:
        """Nothing to release."""
