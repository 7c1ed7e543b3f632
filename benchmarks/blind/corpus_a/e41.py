"""Triage Queue: order support tickets by urgency (skill: sorting by a derived key).

Five to seven support tickets are open. Each is due in a different number of days. The player lists
the ticket ids from the most urgent (due soonest) to the least urgent (due latest), separated by
commas, e.g. \\boxed{T4, T1, T3, T2, T5}. One answer per episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ISSUES = ["password reset loop", "invoice shows wrong VAT", "app crashes on login", "export times out",
           "missing shipment", "duplicate charge", "broken search filter", "email bounces", "slow dashboard"]


class TriageQueueEnv:
    """Sort tickets by how soon they are due."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._tickets: dict[str, int] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        count = rng.randint(5, 7)
        numbers = rng.sample(range(1, 100), count)
        days = rng.sample(range(1, 30), count)
        issues = rng.sample(_ISSUES, count)
        self._tickets = {f"T{n}": d for n, d in zip(numbers, days)}
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  T{n}: {issue} - due in {d} day{'s' if d > 1 else ''}" for n, d, issue in zip(numbers, days, issues)]
        text = ("Triage Queue. Open tickets:\n" + "\n".join(lines)
                + "\nList the ticket ids from the MOST urgent (due soonest) to the LEAST urgent (due latest), "
                "separated by commas, e.g. \\boxed{" + ", ".join(f"T{n}" for n in numbers) + "}.")
        return text, {"turn": 0, "tickets": count}

    def _order(self) -> list[str]:
        priority = {t: 1 / d for t, d in self._tickets.items()}
        return sorted(self._tickets, key=lambda t: priority[t])

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        ids = [p.strip().upper() for p in boxes[-1].split(",")] if boxes else []
        reward = 0.0
        if sorted(ids) != sorted(self._tickets):
            obs = "List every ticket id exactly once, separated by commas, in a box."
        else:
            self._terminated = True
            if ids == self._order():
                reward, obs = 1.0, "Correct order."
            else:
                obs = "That is not the right order."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._order())

    def close(self) -> None:
        """Nothing to release."""
