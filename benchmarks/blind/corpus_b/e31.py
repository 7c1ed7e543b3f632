"""Ledger Balance: a small business account sees deposits and withdrawals; what is the final balance?

Start from the opening balance, add the deposits and subtract the withdrawals. Accounts may be
overdrawn. Give the balance in whole dollars.
"""

from __future__ import annotations

import random
import re
from typing import Any


class LedgerBalanceEnv:
    """Running balance of a short ledger."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._opening = 0
        self._entries: list[int] = []
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._opening = rng.randint(50, 600)
        self._entries = [rng.choice([1, -1]) * rng.randint(20, 400) for _ in range(rng.randint(4, 7))]
        self._turn, self._done = 0, False
        rows = "\n".join(f"  {'deposit' if e > 0 else 'withdrawal'} ${abs(e)}" for e in self._entries)
        obs = (f"Ledger Balance. Opening balance: ${self._opening}.\n{rows}\n"
               "What is the closing balance in dollars (negative if overdrawn)? Answer like \\boxed{250}.")
        return obs, {"entries": len(self._entries)}

    def _balance(self) -> int:
        return self._opening + sum(self._entries)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Ledger closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().replace("$", "").replace(",", "") if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", text):
            obs = "Give the balance as a whole number of dollars in \\boxed{...}."
        else:
            terminated = True
            if int(text) == self._balance():
                reward, obs = 1.0, "Balance correct."
            else:
                obs = "Balance incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._balance()

    def close(self) -> None:
        pass
