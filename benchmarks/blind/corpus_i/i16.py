"""Colour Pegs: crack a four-peg colour code with per-peg feedback (skill: Logical Deduction).

The code has four pegs over a palette of six colour letters drawn per episode (repeats allowed).
Each guess is marked peg by peg: '+' right colour in the right place, '~' the colour occurs elsewhere
in the code, '.' the colour is not (or no longer) needed. Pegs already marked '+' may be written as
'_' in later guesses and are filled in. With per-peg marks a careful player needs four or five
guesses; the budget is eight.
"""

from __future__ import annotations

import itertools
import random
import re
import string
from typing import Any

_PEGS = 4
_COLOURS = 6
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _marks(guess: str, code: str) -> str:
    """Per-peg marks: '+' exact, '~' present elsewhere (each code peg used once), '.' otherwise."""
    marks = ["+" if g == c else "." for g, c in zip(guess, code)]
    spare = [c for g, c in zip(guess, code) if g != c]
    for i, g in enumerate(guess):
        if marks[i] == "." and g in spare:
            marks[i] = "~"
            spare.remove(g)
    return "".join(marks)


class ColourPegsEnv:
    """Guess the four-peg code; every guess is marked peg by peg."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._palette = ""
        self._code = ""
        self._known = ["_"] * _PEGS
        self._history: list[tuple[str, str]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the palette and the code."""
        rng = random.Random(seed)
        self._palette = "".join(sorted(rng.sample(string.ascii_uppercase, _COLOURS)))
        self._code = "".join(rng.choice(self._palette) for _ in range(_PEGS))
        self._known = ["_"] * _PEGS
        self._history = []
        self._turn, self._terminated, self._truncated = 0, False, False
        p = self._palette
        intro = (
            f"Colour Pegs. A secret code of {_PEGS} pegs, each one of the colours {', '.join(p)} (repeats allowed).\n"
            f"Guess by writing {_PEGS} colour letters, e.g. \\boxed{{{p[0]}{p[1]}{p[1]}{p[2]}}}. Each peg of a guess "
            "is marked '+' (right colour, right place), '~' (colour elsewhere in the code) or '.' (not needed).\n"
            "Once a peg has been marked '+', you may write '_' for it and it is filled in for you; a short guess "
            "counts as ending in '_'.\n"
            f"Crack the code within {self.max_turns} guesses to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "palette": self._palette}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Mark one guess; four '+' marks win."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        raw = re.sub(r"[\s,]+", "", _move_text(action)).upper()
        if not raw or len(raw) > _PEGS or any(ch not in self._palette + "_" for ch in raw):
            obs = (f"Invalid guess. Write up to {_PEGS} letters from {self._palette} (or '_' for a peg already "
                   f"marked '+'), e.g. \\boxed{{{self._palette[:_PEGS]}}}.")
        else:
            padded = raw.ljust(_PEGS, "_")
            guess = "".join(self._code[i] if ch == "_" else ch for i, ch in enumerate(padded))
            if "_" in guess:
                obs = f"Peg {guess.index('_') + 1} has not been marked '+' yet, so it cannot be left as '_'."
            else:
                marks = _marks(guess, self._code)
                self._history.append((guess, marks))
                for i, mark in enumerate(marks):
                    if mark == "+":
                        self._known[i] = guess[i]
                if marks == "+" * _PEGS:
                    self._terminated, reward = True, 1.0
                    return f"Guess {guess}: {marks}. You cracked the code!", reward, True, False, self._info()
                obs = "Guesses so far:\n" + "\n".join(f"  {g}: {m}" for g, m in self._history)
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += "\nOut of guesses."
        else:
            obs += f"\nGuesses left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Consistent guessing: open with two colours, then always play the first code in palette order
        that agrees with every mark so far."""
        candidates = ["".join(c) for c in itertools.product(self._palette, repeat=_PEGS)]
        for guess, marks in self._history:
            candidates = [c for c in candidates if _marks(guess, c) == marks]
        guess = self._palette[0] * 2 + self._palette[1] * 2 if not self._history else candidates[0]
        moves = [guess]
        while guess != self._code:
            marks = _marks(guess, self._code)
            candidates = [c for c in candidates if _marks(guess, c) == marks]
            guess = candidates[0]
            moves.append(guess)
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
