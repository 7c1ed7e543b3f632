"""Pallet Weights: total the weight of a warehouse shipment (skill: arithmetic word problems).

A shipment is made of several kinds of crates stacked on a pallet. For each kind the observation gives
the number of crates and the weight of one crate; the empty pallet has its own weight. The player
reports the total weight in kilograms, e.g. \\boxed{642}. The total is always a whole number between
100 and 999.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

_GOODS = ["tinned tomatoes", "printer paper", "bottled water", "floor tiles", "dog food", "motor oil",
          "rice sacks", "paint cans", "books", "detergent"]


class PalletWeightsEnv:
    """Compute a pallet's total weight from crate counts and unit weights."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._total = 100
        self._shown_at = 0.0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            kinds = rng.sample(_GOODS, rng.randint(2, 4))
            rows = [(k, rng.randint(2, 12), rng.randint(3, 45)) for k in kinds]
            pallet = rng.randint(15, 30)
            total = pallet + sum(n * w for _, n, w in rows)
            if 100 <= total <= 999:
                break
        self._total = total
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  - {n} crates of {k}, {w} kg each" for k, n, w in rows]
        text = (f"Pallet Weights. An empty pallet weighs {pallet} kg. Loaded on it:\n" + "\n".join(lines)
                + "\nWhat is the total weight of the loaded pallet in kg? Answer with a whole number in a box, "
                "e.g. \\boxed{500}.")
        self._shown_at = time.monotonic()
        return text, {"turn": 0, "kinds": len(rows)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        considered = time.monotonic() - self._shown_at > 0.5
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip().lower().replace("kg", "").strip() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{1,6}", value):
            obs = "Give the weight as a whole number of kg in a box, e.g. \\boxed{500}."
        elif int(value) == self._total:
            self._terminated, reward = True, 1.0
            obs = "Correct, the pallet weighs exactly that."
        elif considered:
            obs = f"Not quite: the pallet is {'heavier' if int(value) < self._total else 'lighter'} than {value} kg."
        else:
            self._terminated = True
            obs = "That is not the total weight."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return str(self._total)

    def close(self) -> None:
        """Nothing to release."""
