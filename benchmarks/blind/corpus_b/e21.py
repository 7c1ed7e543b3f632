"""Bulls and Cows: crack a four-digit code with distinct digits.

Each guess (four distinct digits) is scored with bulls (right digit, right place) and cows (right
digit, wrong place). Ten guesses; good play needs about five to seven.
"""

from __future__ import annotations

import random
import re
from typing import Any


class BullsAndCowsEnv:
    """Classic code-breaking with bulls/cows feedback."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "0123"
        self._turn = 0
        self._history: list[str] = []
        self._over = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.sample("0123456789", 4))
        self._turn, self._history, self._over = 0, [], False
        obs = ("Bulls and Cows. A secret code of four DISTINCT digits (leading zero allowed) is hidden.\n"
               "After each guess you get bulls (right digit, right place) and cows (right digit, wrong place).\n"
               f"You have {self.max_turns} guesses. Guess like \\boxed{{0123}}.")
        return obs, {"history": []}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._over:
            return "Game over.", 0.0, True, False, {"history": list(self._history)}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        guess = found[-1].strip() if found else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{4}", guess) or len(set(guess)) != 4:
            obs = "A guess is four distinct digits, e.g. \\boxed{0123}."
        elif guess == self._code:
            reward, terminated, obs = 1.0, True, "4 bulls - code cracked!"
        else:
            bulls = sum(a == b for a, b in zip(guess, self._code))
            cows = len(set(guess) & set(self._code)) - bulls
            obs = f"{guess}: {bulls} bull(s), {cows} cow(s)."
            self._history.append(obs)
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of guesses; the code was {self._code}."
        self._over = terminated or truncated
        return obs, reward, terminated, truncated, {"history": list(self._history)}

    def solution(self) -> str:
        return self._code

    def close(self) -> None:
        pass
