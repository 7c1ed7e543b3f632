"""Cycle count: total the units in every storage bin of an aisle."""

from __future__ import annotations

import random
import re
import textwrap
from typing import Any


class BinTotalEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._total = 0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        aisle = rng.choice("ABCDEFGH") + str(rng.randint(1, 9))
        counts = [rng.randint(0, 250) for _ in range(rng.randint(8, 40))]
        self._total = sum(counts)
        listing = ", ".join(f"bin {aisle}-{i + 1:02d}: {c}" for i, c in enumerate(counts))
        shown = textwrap.shorten(listing, width=420, placeholder=" ...")
        self._turn, self._done = 0, False
        obs = (f"Cycle count for aisle {aisle}. Units per bin:\n{shown}\n"
               "What is the total number of units in the aisle? Reply like \\boxed{1234}. One attempt.")
        return obs, {"aisle": aisle}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Count closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip().replace(",", "") if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,6}", raw):
            obs = "Reply with a whole number, e.g. \\boxed{1234}."
        else:
            terminated = True
            reward = 1.0 if int(raw) == self._total else 0.0
            obs = "Count confirmed." if reward else "Count does not match."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._total

    def close(self) -> None:
        pass
