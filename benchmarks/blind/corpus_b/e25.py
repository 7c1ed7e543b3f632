"""High Low: guess a secret number between 1 and 1000 with higher/lower feedback.

Six guesses are not enough to bisect the whole range with certainty, so the game rewards a good
opening and a bit of luck. Each response reports the round id and the remaining guesses.
"""

from __future__ import annotations

import random
import re
from typing import Any


class HighLowEnv:
    """Number guessing with higher/lower hints."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._secret = 1
        self._turn = 0
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._secret = rng.randint(1, 1000)
        self._turn, self._over = 0, False
        obs = (f"High Low. I am thinking of a whole number from 1 to 1000. You have {self.max_turns} guesses; "
               "after each wrong guess I say higher or lower. Guess like \\boxed{500}.")
        return obs, self._info()

    def _info(self) -> dict:
        return {"round_id": f"{self._secret:03x}", "guesses_left": self.max_turns - self._turn}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Round over.", 0.0, True, False, self._info()
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        text = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,4}", text):
            obs = "Guess a whole number in \\boxed{...}."
        elif int(text) == self._secret:
            reward, terminated, obs = 1.0, True, "Spot on!"
        else:
            obs = "Higher." if self._secret > int(text) else "Lower."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of guesses: it was {self._secret}."
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, self._info()

    def solution(self) -> str:
        return str(self._secret)

    def close(self) -> None:
        pass
