"""Letter Tumblers: set five letter tumblers by alphabetical feedback (skill: Binary Search).

A lock has five tumblers, each hiding a letter from a range of 20 to 26 letters stamped on the lock
(drawn per episode). Each turn the player tries one letter on one
tumbler: it either locks in place or the lock says whether the hidden letter comes earlier or later
in the alphabet. Halving the range each time locks a tumbler in at most five tries, so the 28-turn
budget covers all five tumblers with a few turns to spare.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

_TUMBLERS = 5
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LetterTumblersEnv:
    """Try a letter on a tumbler; lock all five to open the lock."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 28, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._letters = string.ascii_uppercase
        self._code = ""
        self._locked: set[int] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the five hidden letters."""
        rng = random.Random(seed)
        low = rng.randint(0, 6)
        high = rng.randint(max(low + 19, 19), 25)
        self._letters = string.ascii_uppercase[low:high + 1]
        self._code = "".join(rng.choice(self._letters) for _ in range(_TUMBLERS))
        self._locked = set()
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Letter Tumblers. The lock has {_TUMBLERS} tumblers, numbered 1 to {_TUMBLERS}; each hides a letter from "
            f"{self._letters[0]} to {self._letters[-1]} (the range stamped on the lock).\n"
            "Each turn try a letter on one tumbler, e.g. \\boxed{3 K} tries K on tumbler 3. The right letter locks "
            "the tumbler; otherwise you learn whether the hidden letter is earlier or later in the alphabet.\n"
            f"Lock all {_TUMBLERS} tumblers within {self.max_turns} turns to open the lock and win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        return "Lock: " + " ".join(self._code[i] if i in self._locked else "_" for i in range(_TUMBLERS))

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "locked": len(self._locked)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Try one letter on one tumbler; locking the last one wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        move = re.fullmatch(r"(\d{1,3})\s*[:=,]?\s*([A-Za-z])", _move_text(action))
        p = int(move.group(1)) if move else 0
        if move is None or not 1 <= p <= _TUMBLERS:
            obs = f"Invalid move. Write a tumbler 1-{_TUMBLERS} and a letter, e.g. \\boxed{{3 K}}."
        elif p - 1 in self._locked:
            obs = f"Tumbler {p} is already locked: {self._code[p - 1]}."
        else:
            letter, hidden = move.group(2).upper(), self._code[p - 1]
            if letter == hidden:
                self._locked.add(p - 1)
                obs = f"Click! Tumbler {p} locks on {letter}."
            else:
                obs = f"Tumbler {p}: the hidden letter comes {'earlier' if hidden < letter else 'later'} than {letter}."
        if len(self._locked) == _TUMBLERS:
            self._terminated, reward = True, 1.0
            return obs + " The lock opens. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The right letter on every tumbler still open."""
        return [f"\\boxed{{{i + 1} {self._code[i]}}}" for i in range(_TUMBLERS) if i not in self._locked]

    def close(self) -> None:
        """Nothing to release."""
