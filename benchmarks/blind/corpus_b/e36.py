"""Letter Bag: which of five strings uses exactly the letters of a given word?

Four options are rearrangements with one letter swapped for another; one option is a true
rearrangement (an anagram, not necessarily a real word). Answer with the option number.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

_WORDS = ["planet", "garden", "silver", "stream", "candle", "orange", "master", "listen", "triangle",
          "painter", "station", "thunder", "monarch", "lantern", "whisper", "caravan"]


class LetterBagEnv:
    """Anagram recognition, five options."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = "planet"
        self._options: list[str] = []
        self._answer = 1
        self._turn = 0
        self._done = False

    @staticmethod
    def _scramble(rng: random.Random, letters: list[str]) -> str:
        cells = letters[:]
        rng.shuffle(cells)
        return "".join(cells)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        word = rng.choice(_WORDS)
        options = [self._scramble(rng, list(word))]
        while len(options) < 5:
            cells = list(word)
            pos = rng.randrange(len(cells))
            cells[pos] = rng.choice([c for c in string.ascii_lowercase if c != cells[pos]])
            cand = self._scramble(rng, cells)
            if sorted(cand) != sorted(word) and cand not in options:
                options.append(cand)
        order = list(range(5))
        rng.shuffle(order)
        self._options = [options[i] for i in order]
        self._answer = order.index(0) + 1
        self._word = word
        self._turn, self._done = 0, False
        lines = "\n".join(f"  {i + 1}. {o}" for i, o in enumerate(self._options))
        obs = (f"Letter Bag. Which option uses exactly the letters of '{word}' (each letter as often)?\n{lines}\n"
               "Answer with the option number, e.g. \\boxed{3}.")
        return obs, {"options": 5}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip().rstrip(".") if found else ""
        reward, terminated = 0.0, False
        if text not in ("1", "2", "3", "4", "5"):
            obs = "Answer with an option number 1-5 in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if int(text) == self._answer else 0.0
            obs = "Correct." if reward else "That option does not match."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._answer

    def close(self) -> None:
        pass
