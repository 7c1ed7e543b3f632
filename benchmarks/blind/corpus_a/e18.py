"""Shell Game: follow a pea under three cups through a series of swaps (skill: state tracking).

A pea is placed under one of three cups in a row (left, middle, right). The dealer then swaps pairs of
cups several times; the pea travels with its cup. The player says where the pea ends up, e.g.
\\boxed{middle}. One answer per episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SPOTS = ["left", "middle", "right"]
_SWAPS = [("left", "middle"), ("middle", "right"), ("left", "right")]
_SHOWN = 5


class ShellGameEnv:
    """Track a pea under cups through pairwise swaps."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._start = "left"
        self._swaps: list[tuple[str, str]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._start = rng.choice(_SPOTS)
        self._swaps = [rng.choice(_SWAPS) for _ in range(rng.randint(5, 8))]
        self._turn, self._terminated, self._truncated = 0, False, False
        recent = self._swaps[-_SHOWN:]
        lines = [f"  - swap the {a} and {b} cups" for a, b in recent]
        text = (f"Shell Game. The pea starts under the {self._start} cup. The dealer then does this:\n"
                + "\n".join(lines)
                + "\nUnder which cup is the pea now? Answer left, middle or right in a box, e.g. \\boxed{left}.")
        return text, {"turn": 0}

    def _final(self) -> str:
        spot = self._start
        for a, b in self._swaps:
            if spot == a:
                spot = b
            elif spot == b:
                spot = a
        return spot

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The game is over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().lower() if boxes else ""
        reward = 0.0
        if pick not in _SPOTS:
            obs = "Answer left, middle or right in a box, e.g. \\boxed{right}."
        else:
            self._terminated = True
            if pick == self._final():
                reward, obs = 1.0, "Correct, there it is!"
            else:
                obs = "Wrong cup."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._final()

    def close(self) -> None:
        """Nothing to release."""
