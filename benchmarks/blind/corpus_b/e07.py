"""Checkout Clerk: total up a web-shop order, including the shipping charge for the delivery zone.

Each order has a few lines (quantity x unit price in whole dollars) and ships to one of four zones.
The customer is charged the item subtotal plus the flat shipping fee of the zone.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PRODUCTS = ["mug", "notebook", "tea tin", "scarf", "poster", "candle", "phone case", "water bottle",
             "bookmark", "puzzle", "tote bag", "pen set"]


class CheckoutClerkEnv:
    """Order total = subtotal + zone shipping fee."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._lines: list[tuple[str, int, int]] = []
        self._zone = 1
        self._fees: dict[int, int] = {}
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._lines = [(p, rng.randint(1, 6), rng.randint(3, 40)) for p in rng.sample(_PRODUCTS, rng.randint(2, 5))]
        self._fees = {z: rng.randint(3, 11) for z in range(1, 5)}
        self._zone = rng.randint(1, 4)
        self._turn, self._done = 0, False
        rows = "\n".join(f"  {q} x {p} @ ${u}" for p, q, u in self._lines)
        obs = (f"Checkout Clerk. Order lines:\n{rows}\nDelivery: zone {self._zone} (flat shipping fee for the zone "
               "is added to the order).\nWhat is the total charged, in whole dollars? Answer like \\boxed{123}.")
        return obs, {"zone": self._zone}

    def _total(self) -> int:
        return sum(q * u for _, q, u in self._lines) + self._fees[self._zone]

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Order already closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().lstrip("$").replace(",", "") if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", text):
            obs = "Answer with a whole-dollar amount in \\boxed{...}."
        else:
            terminated = True
            if int(text) == self._total():
                reward, obs = 1.0, "Correct total."
            else:
                obs = "That total is wrong."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._total()

    def close(self) -> None:
        pass
