"""Word Order Reversal: rewrite a sentence with its words in reverse order (skill: string manipulation).

A sentence of 5-9 lowercase words is shown. The player writes the same words in the opposite order,
e.g. 'green hills roll far' becomes 'far roll hills green'. Letter case and extra spaces are ignored
when the answer is compared. One answer per episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_WORDS = ["amber", "lanterns", "glow", "over", "quiet", "harbours", "while", "seven", "gulls", "drift",
          "past", "the", "old", "stone", "bridge", "at", "dusk", "and", "a", "lonely", "fiddler", "plays",
          "slow", "tunes", "for", "sleepy", "fishermen", "near", "river", "mouth", "under", "silver", "moon"]


def _normalise(text: str) -> list[str]:
    return sorted(text.lower().split())


class WordOrderReversalEnv:
    """Reverse the order of the words in a sentence."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._sentence: list[str] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            words = rng.sample(_WORDS, rng.randint(5, 9))
            if words != words[::-1]:
                break
        self._sentence = words
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Word Order Reversal. Rewrite this sentence with its words in reverse order (the last word "
                "first, the first word last; the words themselves stay as they are):\n  "
                + " ".join(words) + "\nAnswer in a box, e.g. for 'green hills roll far' write "
                "\\boxed{far roll hills green}.")
        return text, {"turn": 0, "words": len(words)}

    def _target(self) -> str:
        return " ".join(reversed(self._sentence))

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        answer = boxes[-1] if boxes else ""
        reward = 0.0
        if not answer.strip():
            obs = "Write the reversed sentence in a box, e.g. \\boxed{far roll hills green}."
        else:
            self._terminated = True
            if _normalise(answer) == _normalise(self._target()):
                reward, obs = 1.0, "Correct!"
            else:
                obs = "That is not the sentence with its words reversed."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._target()

    def close(self) -> None:
        """Nothing to release."""
