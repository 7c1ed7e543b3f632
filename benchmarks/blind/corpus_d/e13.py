"""Classic code breaking: a four-peg, six-colour code with black/white peg counts, ten guesses."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_COLOURS = "BGOPRY"


def _score(guess: str, code: str) -> tuple[int, int]:
    black = sum(g == c for g, c in zip(guess, code))
    common = sum(min(guess.count(x), code.count(x)) for x in set(guess))
    return black, common - black


class PegCountEnv:
    """Standard Mastermind feedback (counts only, not positions); a consistent-guess player wins."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "BBGG"
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.choice(_COLOURS) for _ in range(4))
        self._turn, self._done = 0, False
        obs = ("A secret code of 4 pegs uses the colours B, G, O, P, R, Y (repeats allowed). After each guess "
               "you are told how many pegs are the right colour in the right place (black) and how many more "
               "are a right colour in the wrong place (white), but not which ones. You have "
               f"{self.max_turns} guesses. Reply with four letters, e.g. \\boxed{{BGOP}}.")
        return obs, {"pegs": 4, "colours": _COLOURS}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The code has been closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = re.sub(r"[\s,]", "", boxes[-1]).upper() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(f"[{_COLOURS}]{{4}}", guess):
            obs = "A guess is four colour letters from B G O P R Y, e.g. \\boxed{BGOP}."
        elif guess == self._code:
            reward, terminated, obs = 1.0, True, "4 black, 0 white. Code broken!"
        else:
            black, white = _score(guess, self._code)
            obs = f"{guess}: {black} black, {white} white."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"guesses_left": self.max_turns - self._turn}

    def solution(self) -> list[str]:
        """Open with BBGG, then always play the first code consistent with every answer so far."""
        pool = ["".join(p) for p in itertools.product(_COLOURS, repeat=4)]
        guess, moves = "BBGG", []
        while True:
            moves.append(guess)
            if guess == self._code:
                return moves
            feedback = _score(guess, self._code)
            pool = [c for c in pool if _score(guess, c) == feedback]
            guess = pool[0]

    def close(self) -> None:
        pass
