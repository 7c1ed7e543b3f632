"""Caesar Courier: decrypt a short phrase that was shifted through the alphabet.

The shift amount is given; the player shifts every letter back and reports the plain phrase.
Case does not matter and words are separated by single spaces.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

_WORDS = ["amber", "harbor", "lantern", "meadow", "pocket", "silver", "thunder", "violet",
          "garden", "river", "candle", "forest", "window", "mirror", "anchor", "falcon",
          "pepper", "marble", "winter", "saddle", "copper", "orchid", "basket", "cobalt",
          "ginger", "hollow", "island", "jungle", "kettle", "ladder", "nectar", "oyster"]


def _shift(text: str, k: int) -> str:
    out = []
    for ch in text:
        if ch in string.ascii_lowercase:
            out.append(chr((ord(ch) - 97 + k) % 26 + 97))
        else:
            out.append(ch)
    return "".join(out)


class CaesarCourierEnv:
    """Undo a Caesar shift on a two- or three-word phrase."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._plain = ""
        self._shift = 1
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        words = rng.sample(_WORDS, rng.choice([2, 3]))
        self._plain = " ".join(words)
        self._shift = rng.randint(1, 25)
        cipher = _shift(self._plain, self._shift).upper()
        self._turn, self._over = 0, False
        obs = (f"Caesar Courier. The message below was encrypted by shifting each letter {self._shift} "
               f"places forward in the alphabet (wrapping Z to A):\n  {cipher}\n"
               "Send the decrypted phrase in \\boxed{...}, e.g. \\boxed{hello world}.")
        return obs, {"shift": self._shift}

    def _matches(self, guess: str) -> bool:
        if len(guess) > 60:
            return False
        try:
            return re.fullmatch(guess, self._plain, flags=re.IGNORECASE) is not None
        except re.error:
            return False

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Episode finished.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        reward, terminated = 0.0, False
        if not found or not found[-1].strip():
            obs = "No answer found. Put the decrypted phrase inside \\boxed{...}."
        else:
            guess = " ".join(found[-1].split())
            terminated = True
            if self._matches(guess):
                reward, obs = 1.0, "Decrypted correctly."
            else:
                obs = "That is not the original message."
        truncated = not terminated and self._turn >= self.max_turns
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._plain

    def close(self) -> None:
        pass
