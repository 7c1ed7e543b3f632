"""Bakery Bill: a customer buys several bakery items; what does the basket cost?

Prices are listed per item in dollars and cents. A loyalty discount of a whole percentage applies to
the whole basket, rounded to the nearest cent.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ITEMS = {"croissant": 245, "baguette": 310, "muffin": 275, "cinnamon roll": 395, "rye loaf": 520,
          "scone": 225, "eclair": 360, "bagel": 165, "brioche": 440, "danish": 335}


class BakeryBillEnv:
    """Basket total after a percentage discount."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._basket: list[tuple[str, int]] = []
        self._discount = 0
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._basket = [(name, rng.randint(1, 5)) for name in rng.sample(sorted(_ITEMS), rng.randint(2, 4))]
        self._discount = rng.choice([5, 10, 12, 15, 20, 25])
        self._turn, self._over = 0, False
        rows = "\n".join(f"  {q} x {n} (${_ITEMS[n] / 100:.2f} each)" for n, q in self._basket)
        obs = (f"Bakery Bill. The basket:\n{rows}\nA {self._discount}% loyalty discount applies to the whole basket "
               "(round to the nearest cent).\nWhat is the amount to pay, in dollars? Answer like \\boxed{12.34}.")
        return obs, {}

    def _cents(self) -> int:
        gross = sum(_ITEMS[n] * q for n, q in self._basket)
        return int(gross * (100 - self._discount) / 100 + 0.5)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Bill settled.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().lstrip("$").strip() if found else ""
        reward, terminated = 0.0, False
        try:
            value = float(text) if re.fullmatch(r"\d+(\.\d+)?", text) else None
        except ValueError:
            value = None
        if value is None:
            obs = "Answer with a number in \\boxed{...}."
        else:
            terminated = True
            if abs(value - self._cents()) < 1e-6:
                reward, obs = 1.0, "Correct amount."
            else:
                obs = "That amount is not right."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._cents()

    def close(self) -> None:
        pass
