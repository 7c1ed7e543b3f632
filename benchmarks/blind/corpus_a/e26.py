"""Stockroom Tally: how many units of a product remain after a week of movements (skill: bookkeeping).

A shop's stock card for one product lists the opening balance and a week of movements: deliveries
in, sales out, returns from customers, items written off as damaged, and a transfer to another
branch. The player reports the closing balance, e.g. \\boxed{137}. Each task carries a ticket id so
that it can be quoted in bug reports.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PRODUCTS = ["AA batteries", "dish soap", "USB cables", "notebooks", "tea lights", "hand cream", "sunglasses"]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


class StockroomTallyEnv:
    """Compute a closing stock balance from a list of movements."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._balance = 0
        self._ticket = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            opening = rng.randint(40, 300)
            balance, lines = opening, []
            for day in _DAYS:
                kind = rng.choice(["in", "sale", "sale", "return", "damaged", "transfer"])
                n = rng.randint(3, 60)
                if kind == "in":
                    balance += n
                    lines.append(f"  {day}: delivery received, +{n}")
                elif kind == "return":
                    n //= 4
                    balance += n
                    lines.append(f"  {day}: {n} returned by customers")
                else:
                    balance -= n
                    label = {"sale": "sold", "damaged": "written off as damaged", "transfer": "sent to the other branch"}[kind]
                    lines.append(f"  {day}: {n} {label}")
            if 0 <= balance <= 999:
                break
        self._balance = balance
        self._ticket = f"{rng.randrange(16 ** 4):04x}{balance:03x}"
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Stockroom Tally. Stock card for {rng.choice(_PRODUCTS)}: opening balance {opening} units.\n"
                + "\n".join(lines) + "\nWhat is the closing balance on Sunday evening? Answer in a box, e.g. \\boxed{120}.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "ticket": self._ticket}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"-?\d{1,5}", value):
            obs = "Answer with a whole number of units in a box, e.g. \\boxed{120}."
        else:
            self._terminated = True
            if int(value) == self._balance:
                reward, obs = 1.0, "Correct, the stock card balances."
            else:
                obs = "That is not the closing balance."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return str(self._balance)

    def close(self) -> None:
        """Nothing to release."""
