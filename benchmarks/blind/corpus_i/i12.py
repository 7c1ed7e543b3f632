"""Pico Fermi: deduce a three-digit code from Pico/Fermi clues (skill: Logical Deduction).

The code has three different digits taken from eight digits announced per episode (a leading 0
is allowed). After each guess the player hears how
many digits are right and in the right place (Fermi) and how many are right but misplaced (Pico);
"Bagels" means no digit is right. A player who keeps every guess consistent with the clues so far
needs about five guesses and never more than nine; the budget is ten.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_DIGITS = 3
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _clue(guess: str, code: str) -> tuple[int, int]:
    fermi = sum(g == c for g, c in zip(guess, code))
    return fermi, len(set(guess) & set(code)) - fermi


class PicoFermiEnv:
    """Guess the three-digit code from Pico/Fermi clues."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._digits = "0123456789"
        self._code = ""
        self._history: list[tuple[str, int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a code of three different digits."""
        rng = random.Random(seed)
        self._digits = "".join(sorted(rng.sample("0123456789", 8)))
        self._code = "".join(rng.sample(self._digits, _DIGITS))
        self._history = []
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Pico Fermi. I am thinking of a {_DIGITS}-digit code; its digits are all different and all among "
            f"{', '.join(self._digits)} (it may start with 0).\n"
            f"Guess a code of three different digits from that list, e.g. \\boxed{{{self._digits[:3]}}}. Clues: Fermi = a right digit in the right "
            "place, Pico = a right digit in the wrong place, Bagels = no digit is right.\n"
            f"Find the code within {self.max_turns} guesses to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "guesses": len(self._history)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Score one guess; the code itself wins."""
        if self._terminated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        guess = re.sub(r"[\s,]+", "", _move_text(action))
        if not re.fullmatch(r"\d{3}", guess) or len(set(guess)) != _DIGITS or not set(guess) <= set(self._digits):
            obs = f"Invalid guess. Write three different digits from {self._digits}, e.g. \\boxed{{{self._digits[:3]}}}."
        elif guess == self._code:
            self._terminated, reward = True, 1.0
            return f"{guess}: Fermi Fermi Fermi. You found the code!", reward, True, self._truncated, self._info()
        else:
            fermi, pico = _clue(guess, self._code)
            self._history.append((guess, fermi, pico))
            lines = [f"  {g}: " + (" ".join(["Fermi"] * f + ["Pico"] * p) or "Bagels") for g, f, p in self._history]
            obs = "Your guesses:\n" + "\n".join(lines)
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += f"\nOut of guesses: the code was {self._code}."
        else:
            obs += f"\nGuesses left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Consistent guessing in numeric order, starting from the clues already given."""
        candidates = ["".join(p) for p in itertools.permutations(self._digits, _DIGITS)]
        for g, f, p in self._history:
            candidates = [c for c in candidates if _clue(g, c) == (f, p)]
        moves = []
        while True:
            guess = candidates[0]
            moves.append(guess)
            if guess == self._code:
                return [f"\\boxed{{{m}}}" for m in moves]
            clue = _clue(guess, self._code)
            candidates = [c for c in candidates if _clue(guess, c) == clue]

    def close(self) -> None:
        """Nothing to release."""
