"""InchesToCmEnv: convert a length in inches to whole centimetres (skill: unit conversion).

Small models often lose the format before they lose the arithmetic, so a well-formatted number earns
a small format reward, and a wrong value can be retried until the turns run out.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_NUMBER = re.compile(r"^-?\d{1,7}(?:\.\d{1,6})?$")
_FORMAT_REWARD = 0.25


class InchesToCmEnv:
    """inches x 2.54, rounded to the nearest centimetre."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cm = 0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        while True:
            inches = rng.randint(10, 400) + rng.choice([0, 0.25, 0.5, 0.75])
            exact = inches * 2.54
            if abs(exact - int(exact) - 0.5) > 0.01:
                break
        self._inches, self._cm = inches, int(exact + 0.5)
        self._turn, self._status = 0, (False, False)
        text = (f"A shelf is {inches:g} inches long. How long is it in centimetres (1 inch = 2.54 cm), rounded to "
                f"the nearest whole centimetre? Box the number, e.g. \\boxed{{57}}. You have {self.max_turns} tries.")
        return text, {"tries": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Episode finished; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not _NUMBER.match(content):
            obs = "Box a number of centimetres, e.g. \\boxed{57}."
        elif float(content) == self._cm:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, reward = f"Not quite (+{_FORMAT_REWARD} for a well-formatted answer). Try again.", _FORMAT_REWARD
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of tries: it is {self._cm} cm."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._cm

    def close(self) -> None:
        """Nothing to release."""
