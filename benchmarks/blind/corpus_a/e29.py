"""Caesar Decoder: recover a word encrypted with an unknown Caesar shift (skill: cryptanalysis).

A single English word was encrypted by shifting every letter forward by the same secret amount k
(1 <= k <= 25, wrapping from Z to A). The ciphertext is shown; the player writes the original word,
e.g. \\boxed{garden}. The plaintext is of course recoverable from the ciphertext: that is the task.
Only one of the 25 possible shifts gives an English word, so the skill is recognising it.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

_WORDS = ["anchor", "blanket", "cabinet", "dolphin", "elephant", "fortune", "giraffe", "harvest",
          "iceberg", "journey", "kitchen", "lantern", "mustard", "network", "octopus", "painter",
          "quarter", "rainbow", "sandwich", "thunder", "uniform", "village", "whisper", "yogurt",
          "balcony", "chimney", "diamond", "emerald", "fiction", "glacier", "highway", "justice",
          "monster", "penguin", "pyramid", "sparrow", "tornado", "volcano", "walnut", "zeppelin"]


def _shift(word: str, k: int) -> str:
    table = str.maketrans(string.ascii_lowercase, string.ascii_lowercase[k:] + string.ascii_lowercase[:k])
    return word.translate(table)


class CaesarDecoderEnv:
    """Decrypt a Caesar-shifted word with an unknown key."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._word = "anchor"
        self._cipher = ""
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._word = rng.choice(_WORDS)
        self._cipher = _shift(self._word, rng.randint(1, 25)).upper()
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Caesar Decoder. This word was encrypted with an unknown Caesar shift: {self._cipher}\n"
                "Write the original English word in a box, e.g. \\boxed{garden}.")
        return text, {"turn": 0, "length": len(self._word)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "Episode over.", 0.0, self._terminated, self._truncated, {"turn": self._turn}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = boxes[-1].strip().lower() if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"[a-z]{1,20}", guess):
            obs = "Write a single word in lower or upper case letters in a box, e.g. \\boxed{garden}."
        else:
            self._terminated = True
            if guess == self._word:
                reward, obs = 1.0, "Decrypted correctly."
            else:
                obs = "That is not the plaintext."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._word

    def close(self) -> None:
        """Nothing to release."""
