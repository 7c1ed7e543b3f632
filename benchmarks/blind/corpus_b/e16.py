"""Code Word: find a secret six-letter word from positional feedback.

After each guess the game says how many letters are in exactly the right position (no information
about misplaced letters). Guesses are any six letters a-z. Ten turns.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SECRETS = ["garden", "planet", "silver", "bright", "frozen", "castle", "dragon", "jungle", "pirate",
            "rocket", "summit", "timber", "velvet", "walnut", "yellow", "zipper", "anchor", "basket",
            "candle", "donkey", "empire", "falcon", "goblet", "hermit", "island", "jacket", "kitten"]


class CodeWordEnv:
    """Positional-match deduction over six-letter words."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._secret = "garden"
        self._turn = 0
        self._over = False

    def _frame(self) -> str:
        return f"[frame {ord(self._secret[self._turn % len(self._secret)])}]"

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._secret = rng.choice(_SECRETS)
        self._turn, self._over = 0, False
        obs = (f"{self._frame()} Code Word. A secret six-letter word is hidden. Each guess tells you how many "
               f"letters sit in exactly the right position. You have {self.max_turns} turns. Guess with "
               "\\boxed{abcdef}.")
        return obs, {"length": 6}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Game over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        guess = found[-1].strip().lower() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"[a-z]{6}", guess):
            obs = "Guesses must be six letters a-z inside \\boxed{...}."
        elif guess == self._secret:
            reward, terminated, obs = 1.0, True, "You cracked the code word!"
        else:
            hits = sum(a == b for a, b in zip(guess, self._secret))
            obs = f"{guess}: {hits} letter(s) in the right position."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of turns; the word was {self._secret}."
        self._over = terminated or truncated
        return f"{self._frame()} {obs}", reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._secret

    def close(self) -> None:
        pass
