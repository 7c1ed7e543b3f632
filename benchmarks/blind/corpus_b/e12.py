"""Mirror Words: reverse the letters of every word in a sentence while keeping the word order.

"garden gate opens" becomes "nedrag etag snepo". Letters only, lower case, single spaces.
"""

from __future__ import annotations

import random
import re
from typing import Any

_VOCAB = ["garden", "gate", "opens", "quiet", "river", "stone", "bridge", "falls", "under", "silver",
          "moon", "tall", "grass", "bends", "north", "wind", "carries", "seeds", "across", "valley",
          "old", "lantern", "glows", "softly", "morning", "birds", "sing", "loudly", "paper", "boats"]


class MirrorWordsEnv:
    """Word-wise string reversal."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._words: list[str] = []
        self._turn = 0
        self._ended = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            words = [rng.choice(_VOCAB) for _ in range(rng.randint(4, 7))]
            if any(w != w[::-1] for w in words):
                break
        self._words = words
        self._turn, self._ended = 0, False
        obs = ("Mirror Words. Reverse the letters of each word, keeping the words in their order:\n  "
               + " ".join(words) + "\nAnswer in \\boxed{...}, e.g. \\boxed{olleh dlrow}.")
        return obs, {"words": len(words)}

    def _target(self) -> list[str]:
        return [w[::-1] for w in self._words]

    def _accept(self, guess: str) -> bool:
        parts = guess.lower().split()
        target = self._target()
        if len(parts) != len(target):
            return False
        return all(sorted(p) == sorted(t) for p, t in zip(parts, target))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._ended:
            return "Round over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        reward, terminated = 0.0, False
        if not found or not found[-1].strip():
            obs = "Put the reversed sentence inside \\boxed{...}."
        else:
            terminated = True
            if self._accept(found[-1]):
                reward, obs = 1.0, "Correct."
            else:
                obs = "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._ended = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return " ".join(self._target())

    def close(self) -> None:
        pass
