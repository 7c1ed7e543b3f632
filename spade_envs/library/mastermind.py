"""Mastermind: deduce a hidden colour code from black/white peg feedback (skill: Logical Deduction).

The env hides a code of 4 pegs, each one of 6 colours (repeats allowed, 1296 possible codes). The six
colours are letters drawn per episode, so every seed shows a different palette. After each guess the
player learns how many pegs are the right colour in the right place (black) and how many more are the
right colour in the wrong place (white). Blind guessing wins with probability about 10/1296; a player
who keeps every guess consistent with all earlier feedback needs about five guesses on average, so
the 10-turn budget rewards deduction, not luck.
"""

from __future__ import annotations

import itertools
import random
import re
import string
from typing import Any

_PEGS = 4
_COLOURS = 6


def _feedback(guess: str, code: str) -> tuple[int, int]:
    """(black, white): exact matches, then colour matches in the wrong position.

    solution() scores every one of the 1296 codes against each guess, so this avoids building Counters:
    the colours two codes share are counted with str.count on the guess's distinct letters."""
    black = sum(map(str.__eq__, guess, code))
    common = sum(min(guess.count(colour), code.count(colour)) for colour in set(guess))
    return black, common - black


class MastermindEnv:
    """Guess the 4-peg code; each guess returns black and white peg counts."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._palette = ""
        self._code = ""
        self._history: list[tuple[str, int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a palette of six letters and a secret code over it; clear the guess history."""
        rng = random.Random(seed)
        self._palette = "".join(sorted(rng.sample(string.ascii_uppercase, _COLOURS)))
        self._code = "".join(rng.choice(self._palette) for _ in range(_PEGS))
        self._history = []
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            f"Mastermind. A secret code of {_PEGS} pegs is hidden; each peg is one of the colours "
            f"{', '.join(self._palette)} (colours may repeat).\n"
            f"Guess by writing {_PEGS} colour letters, e.g. \\boxed{{{self._palette[0]}{self._palette[0]}"
            f"{self._palette[1]}{self._palette[2]}}}.\n"
            "Feedback: black = right colour in the right position; white = right colour in the wrong "
            f"position (each peg counts once). Crack the code within {self.max_turns} guesses to win."
        )
        return rules, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "palette": self._palette}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Score one guess; four blacks win, running out of guesses truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        guess = re.sub(r"[\s,]+", "", found[-1]).upper() if found else ""
        reward = 0.0
        if len(guess) != _PEGS or any(ch not in self._palette for ch in guess):
            obs = (f"Invalid guess. Write exactly {_PEGS} letters from {self._palette}, "
                   f"e.g. \\boxed{{{self._palette[:_PEGS]}}}.")
        else:
            black, white = _feedback(guess, self._code)
            self._history.append((guess, black, white))
            if black == _PEGS:
                self._terminated, reward = True, 1.0
                obs = f"{guess}: 4 black. You cracked the code!"
            else:
                obs = "Guesses so far:\n" + "\n".join(f"  {g}: {b} black, {w} white" for g, b, w in self._history)
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f"\nOut of guesses: the code was {self._code}."
        elif not self._terminated:
            obs += f"\nGuesses left: {self.max_turns - self._turn}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Simulate the consistent-guess strategy: open with AABB, then always play the first code
        (in palette order) that agrees with all feedback so far. Over all 1296 codes it needs at most
        8 guesses, inside the 10-turn budget."""
        candidates = ["".join(p) for p in itertools.product(self._palette, repeat=_PEGS)]
        guess = self._palette[0] * 2 + self._palette[1] * 2
        moves = [guess]
        while guess != self._code:
            result = _feedback(guess, self._code)
            candidates = [c for c in candidates if _feedback(guess, c) == result]
            guess = candidates[0]
            moves.append(guess)
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
