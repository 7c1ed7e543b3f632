"""Word sort: order words by length, breaking ties alphabetically."""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ["ash", "oak", "elm", "yew", "fig", "pine", "lime", "teak", "palm", "holly", "maple", "cedar", "birch",
          "larch", "rowan", "alder", "willow", "spruce", "poplar", "walnut", "cherry", "laurel", "juniper",
          "hickory", "cypress", "hemlock", "sycamore", "magnolia", "chestnut", "hawthorn"]


class WordSortEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._shown: list[str] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            words = rng.sample(_WORDS, 7)
            if words != self._sorted(words) and words[::-1] != self._sorted(words):
                break
        self._shown = words
        self._turn, self._done = 0, False
        obs = ("Sort these words from shortest to longest; words of equal length go in alphabetical order:\n  "
               + ", ".join(words)
               + "\nReply with the sorted list separated by commas, e.g. \\boxed{ash, fig, pine}. One attempt.")
        return obs, {"count": len(words)}

    @staticmethod
    def _sorted(words: list[str]) -> list[str]:
        return sorted(words, key=lambda w: (len(w), w))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Already answered.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        names = [w.strip().lower() for w in boxes[-1].split(",")] if boxes else []
        reward, terminated = 0.0, False
        if sorted(names) != sorted(self._shown):
            obs = "List every word exactly once, separated by commas."
        else:
            terminated = True
            reward = 1.0 if names == self._sorted(self._shown) else 0.0
            obs = "Correct order." if reward else "Wrong order."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._sorted(self._shown))

    def close(self) -> None:
        pass
