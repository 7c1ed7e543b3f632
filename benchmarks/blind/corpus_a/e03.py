"""Bulls and Cows: deduce a secret four-digit code (skill: logical deduction).

The secret is four DIFFERENT digits (a leading zero is allowed), one of 5040 codes. After each guess
the player learns the number of bulls (right digit in the right place) and cows (right digit in the
wrong place). Guesses must also use four different digits. Ten guesses are allowed; a player who keeps
every guess consistent with the feedback so far needs about five or six, while random guessing
succeeds about once in five hundred episodes.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_ALL_CODES = ["".join(p) for p in itertools.permutations("0123456789", 4)]


def _score(guess: str, code: str) -> tuple[int, int]:
    bulls = sum(g == c for g, c in zip(guess, code))
    common = len(set(guess) & set(code))
    return bulls, common - bulls


class BullsAndCowsEnv:
    """Guess the 4-digit code with distinct digits from bulls/cows feedback."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "0123"
        self._history: list[tuple[str, int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.sample("0123456789", 4))
        self._history = []
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            "Bulls and Cows. I am thinking of a code of four different digits (0-9, a leading zero is "
            "allowed). Guess it by writing four different digits in a box, e.g. \\boxed{1234}.\n"
            "After each guess you get bulls (right digit, right place) and cows (right digit, wrong "
            f"place). You have {self.max_turns} guesses."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "guesses_left": self.max_turns - self._turn}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "This game is finished.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = re.sub(r"\s+", "", boxes[-1]) if boxes else ""
        reward = 0.0
        if not re.fullmatch(r"\d{4}", guess) or len(set(guess)) != 4:
            obs = "A guess must be four different digits in a box, e.g. \\boxed{5082}."
        else:
            bulls, cows = _score(guess, self._code)
            self._history.append((guess, bulls, cows))
            if bulls == 4:
                self._terminated, reward = True, 1.0
                obs = f"{guess}: 4 bulls. You found the code!"
            else:
                obs = "\n".join(f"{g}: {b} bulls, {c} cows" for g, b, c in self._history)
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f"\nNo guesses left. The code was {self._code}."
        elif not self._terminated:
            obs += f"\nGuesses left: {self.max_turns - self._turn}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Always play the first code consistent with every answer so far."""
        candidates = list(_ALL_CODES)
        moves: list[str] = []
        while True:
            guess = candidates[0]
            moves.append(guess)
            if guess == self._code:
                break
            result = _score(guess, self._code)
            candidates = [c for c in candidates if _score(guess, c) == result]
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
