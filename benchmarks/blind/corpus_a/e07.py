"""Bakery Ledger: follow a day of baking and selling to find the closing stock (skill: multi-step arithmetic).

The bakery opens with some loaves on the shelf. The observation lists the day's events in order:
batches baked, loaves sold, a tray dropped, a delivery that doubles the stock of the back room, and
so on. The player reports how many loaves are left at closing time, e.g. \\boxed{57}. A hint is
available that helps the player check their working.
"""

from __future__ import annotations

import random
import re
from typing import Any


class BakeryLedgerEnv:
    """Track a loaf count through a sequence of bakery events."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._events: list[str] = []
        self._answer = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            stock = rng.randint(20, 60)
            events: list[str] = [f"The shop opens with {stock} loaves."]
            lowest = stock
            for _ in range(rng.randint(4, 6)):
                kind = rng.choice(["bake", "sell", "sell", "drop", "double", "give"])
                if kind == "bake":
                    n = rng.randint(10, 40)
                    stock += n
                    events.append(f"A batch of {n} loaves comes out of the oven.")
                elif kind == "sell":
                    n = rng.randint(1, max(1, stock // 2))
                    stock -= n
                    events.append(f"Customers buy {n} loaves.")
                elif kind == "drop":
                    n = min(stock, rng.randint(2, 6))
                    stock -= n
                    events.append(f"A tray falls: {n} loaves are thrown away.")
                elif kind == "double":
                    stock *= 2
                    events.append("A delivery from the sister shop doubles the number of loaves.")
                else:
                    stock -= stock // 4
                    events.append("A quarter of the loaves (rounded down) go to the food bank.")
                lowest = min(lowest, stock)
            if 10 <= stock <= 999 and lowest >= 0:
                break
        self._events, self._answer = events, stock
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Bakery Ledger. Here is what happened today, in order:\n"
                + "\n".join(f"  {i}. {e}" for i, e in enumerate(events, 1))
                + "\nHow many loaves are left at closing time? Answer in a box, e.g. \\boxed{42}.")
        return text, {"turn": 0, "events": len(events)}

    def hint(self) -> str:
        low = self._answer - self._answer % 10
        return (f"Apply the events strictly in order and keep a running total. As a check, the closing "
                f"count is between {low} and {low + 9}, and it is congruent to {self._answer % 10} modulo 10.")

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "events": len(self._events)}
        if self._terminated or self._truncated:
            return "The ledger is closed.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"-?\d{1,6}", value):
            obs = "Give the number of loaves as a whole number in a box, e.g. \\boxed{42}."
        else:
            self._terminated = True
            reward = 1.0 if int(value) == self._answer else 0.0
            obs = "Correct!" if reward else "That is not the closing count."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return str(self._answer)

    def close(self) -> None:
        """Nothing to release."""
