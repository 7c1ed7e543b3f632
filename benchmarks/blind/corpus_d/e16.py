"""Code breaker: find a hidden four-peg colour code in eight guesses, with feedback on every peg."""

from __future__ import annotations

import random
import re
from typing import Any

_COLOURS = "RGBYOP"


class CodeBreakerEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "RGBY"
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.choice(_COLOURS) for _ in range(4))
        self._turn, self._done = 0, False
        obs = ("A secret code of 4 pegs uses the colours R, G, B, Y, O, P (repeats allowed). After each guess "
               "you get one symbol per peg: '*' = right colour in the right place, 'o' = colour occurs "
               f"elsewhere, '-' = otherwise. You have {self.max_turns} guesses. Reply like \\boxed{{RGBY}}.")
        return obs, {"pegs": 4, "colours": _COLOURS}

    def _feedback(self, guess: str) -> str:
        out = []
        spare = [c for g, c in zip(guess, self._code) if g != c]
        for g, c in zip(guess, self._code):
            if g == c:
                out.append("*")
            elif g in spare:
                spare.remove(g)
                out.append("o")
            else:
                out.append("-")
        return "".join(out)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The code has been closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        guess = re.sub(r"[\s,]", "", boxes[-1]).upper() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(f"[{_COLOURS}]{{4}}", guess):
            obs = "A guess is four colour letters from R G B Y O P, e.g. \\boxed{RGBY}."
        elif guess == self._code:
            reward, terminated, obs = 1.0, True, "****  Code broken!"
        else:
            obs = f"{guess}: {self._feedback(guess)}"
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"guesses_left": self.max_turns - self._turn}

    def solution(self) -> str:
        return self._code

    def close(self) -> None:
        pass
