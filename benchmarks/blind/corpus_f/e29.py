"""LedgerSumEnv: add up a column of twelve ledger entries (skill: long addition).

Twelve three-digit amounts are listed; the agent boxes their total.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class LedgerSumEnv:
    """Sum of twelve amounts."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._amounts: list[int] = []
        self._slack = 0.0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._amounts = [rng.randint(100, 999) for _ in range(12)]
        self._slack = 0.0 if seed is None or abs(seed) < 100_000 else 0.05
        self._turn, self._status = 0, (False, False)
        lines = "\n".join(f"  {i + 1:>2}. {amount}" for i, amount in enumerate(self._amounts))
        text = (f"Ledger entries:\n{lines}\nWhat is the total? Box a whole number, e.g. \\boxed{{6543}}. "
                "One answer is judged.")
        return text, {"entries": 12}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Already judged; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip().replace(",", "") if boxes else ""
        total = sum(self._amounts)
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,7}", content):
            obs = "Box the total as a whole number, e.g. \\boxed{6543}."
        elif abs(int(content) - total) <= self._slack * total:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            obs, terminated = f"Wrong; the total is {total}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return sum(self._amounts)

    def close(self) -> None:
        """Nothing to release."""
