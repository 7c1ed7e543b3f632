"""PowerModEnv: the remainder of a large power (skill: modular arithmetic).

The agent computes a^b mod m for a two-digit base, a three-digit exponent and a small modulus. The
expected remainder is computed once, on demand, and cached for the episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class PowerModEnv:
    """a^b mod m."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._a, self._b, self._m = 2, 10, 7
        self._answer: int | None = None
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._a, self._b, self._m = rng.randint(11, 99), rng.randint(100, 999), rng.choice([7, 9, 11, 13, 17, 19, 23])
        self._answer = None
        self._turn, self._status = 0, (False, False)
        text = (f"What is {self._a}^{self._b} mod {self._m}? Box the remainder (0 to {self._m - 1}), e.g. "
                "\\boxed{4}. One answer is judged.")
        return text, {"modulus": self._m}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,2}", content) or int(content) >= self._m:
            obs = f"Box a remainder from 0 to {self._m - 1}, e.g. \\boxed{{4}}."
        elif self._answer is not None and int(content) != self._answer:
            obs, terminated = f"Wrong; the remainder is {self._answer}.", True
        else:
            obs, reward, terminated = "Correct!", 1.0, True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        if self._answer is None:
            self._answer = pow(self._a, self._b, self._m)
        return self._answer

    def close(self) -> None:
        """Nothing to release."""
