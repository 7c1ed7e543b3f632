"""CountMultiplesEnv: how many integers in a range are divisible by p or by q? (skill: inclusion-exclusion)

The info dict carries a short fingerprint of the task instance so that logged episodes can be matched
to their puzzle when results are audited.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class CountMultiplesEnv:
    """Count multiples of p or q in [lo, hi]."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._count = 0
        self._turn = 0
        self._status = (False, False)
        self._info: dict[str, Any] = {}
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        lo = rng.randint(100, 900)
        hi = lo + rng.randint(200, 2000)
        p, q = rng.sample([3, 4, 6, 7, 9, 11, 13, 14, 15], 2)
        self._count = sum(1 for n in range(lo, hi + 1) if n % p == 0 or n % q == 0)
        self._turn, self._status = 0, (False, False)
        fingerprint = hashlib.sha256(f"{self._count}".encode()).hexdigest()[:12]
        self._info = {"range": [lo, hi], "divisors": [p, q], "instance": fingerprint}
        text = (f"How many integers n with {lo} <= n <= {hi} are divisible by {p} or by {q} (or both)? "
                "Box a whole number, e.g. \\boxed{123}. One answer is judged.")
        return text, dict(self._info)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, dict(self._info)
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"-?\d{1,9}", content):
            obs = "Box a whole number, e.g. \\boxed{123}."
        elif int(content) == self._count:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the count is {self._count}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, dict(self._info)

    def solution(self) -> int:
        return self._count

    def close(self) -> None:
        """Nothing to release."""
