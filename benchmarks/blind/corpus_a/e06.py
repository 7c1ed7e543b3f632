"""Counterfeit Coin: identify the heavy coin from balance-scale readings (skill: deduction).

Among four coins, one counterfeit is slightly heavier than the three genuine ones. The observation
lists a few balance-scale weighings (which coins went on each pan and which way the scale tipped);
together they single out the counterfeit. The player names the coin by its letter, e.g. \\boxed{C}.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_COINS = "ABCD"


def _reading(left: str, right: str, heavy: str) -> str:
    if heavy in left:
        return "left pan down"
    if heavy in right:
        return "right pan down"
    return "balanced"


class CounterfeitCoinEnv:
    """Find the heavier counterfeit coin among four from listed weighings."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._heavy = "A"
        self._weighings: list[tuple[str, str, str]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        heavy = rng.choice(_COINS)
        pairs = [(a, b) for a, b in itertools.permutations(_COINS, 2)]
        pairs += [(a + b, c + d) for a, b, c, d in itertools.permutations(_COINS, 4) if a < b and c < d]
        while True:
            chosen = rng.sample(pairs, 2)
            weighings = [(l, r, _reading(l, r, heavy)) for l, r in chosen]
            consistent = [c for c in _COINS if all(_reading(l, r, c) == res for l, r, res in weighings)]
            if consistent == [heavy]:
                break
        self._heavy, self._weighings = heavy, weighings
        self._turn, self._terminated, self._truncated = 0, False, False
        lines = [f"  Weighing {i}: {' + '.join(l)} vs {' + '.join(r)} -> {res}"
                 for i, (l, r, res) in enumerate(weighings, 1)]
        text = (
            "Counterfeit Coin. One of the coins A, B, C, D is a heavier fake; the others weigh the same.\n"
            + "\n".join(lines)
            + "\nWhich coin is the fake? Answer with its letter in a box, e.g. \\boxed{B}."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "coins": list(_COINS), "weighings": len(self._weighings)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The puzzle is closed.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().upper() if boxes else ""
        reward = 0.0
        if len(pick) != 1 or pick not in _COINS:
            obs = "Name one coin, A, B, C or D, in a box, e.g. \\boxed{B}."
        elif pick == self._heavy:
            self._terminated, reward = True, 1.0
            obs = f"Correct, coin {pick} is the counterfeit."
        else:
            obs = f"Coin {pick} is genuine. Look at the weighings again."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return self._heavy

    def close(self) -> None:
        """Nothing to release."""
