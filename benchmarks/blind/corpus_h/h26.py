"""Dial Lock: open a four-dial lock with Mastermind feedback (skill: Logical Deduction).

A lock has four dials showing 0 until turned; each dial carries six digits drawn per episode from 1-9
and the secret code uses them (repeats allowed, 1296 codes). Each try turns the dials and pulls the
shackle: the lock reports how many dials show the right digit (in place) and how many more digits are
right but on the wrong dial (misplaced). A short entry turns only the first dials and leaves the
others where they are. Blind tries succeed about once in 130 episodes; keeping every try consistent
with the feedback opens the lock within ten tries.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_DIALS = 4
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_OPEN = re.compile(r"^(?:open|try)\s*([0-9][0-9\s,\-]*)$")


def _score(tried: list[int], code: list[int]) -> tuple[int, int]:
    """(in place, misplaced): exact matches, then shared digits on other dials."""
    exact = sum(a == b for a, b in zip(tried, code))
    shared = sum(min(tried.count(d), code.count(d)) for d in set(tried))
    return exact, shared - exact


class DialLockEnv:
    """Try codes until the four dials open the lock."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code: list[int] = []
        self._alphabet: list[int] = []
        self._dials: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the secret code; all dials start at 0."""
        rng = random.Random(seed)
        self._alphabet = sorted(rng.sample(range(1, 10), 6))
        self._code = [rng.choice(self._alphabet) for _ in range(_DIALS)]
        self._dials = [0] * _DIALS
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Dial Lock. The lock has four dials, all showing 0. Each dial carries the digits "
            f"{', '.join(map(str, self._alphabet[:-1]))} and {self._alphabet[-1]}; the secret code has one of them "
            "on each dial (digits may repeat).\n"
            "Each turn set the dials and pull, e.g. \\boxed{open "
            f"{self._alphabet[2]} {self._alphabet[4]} {self._alphabet[1]} {self._alphabet[5]}}}. A shorter entry such as "
            f"\\boxed{{open {self._alphabet[3]} {self._alphabet[0]}}} turns only the first dials and leaves the others as they are.\n"
            "After each pull you learn how many dials are right (in place) and how many other digits are "
            f"in the code but on a different dial (misplaced). Open the lock within {self.max_turns} tries to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "dials": "-".join(map(str, self._dials))}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Set the dials and pull; the right code wins, running out of tries truncates."""
        if self._terminated or self._truncated:
            return "The lock game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _OPEN.match(boxes[-1].strip().lower()) if boxes else None
        digits = [int(d) for d in re.findall(r"[0-9]", match.group(1))] if match else []
        if not digits:
            obs = "Invalid move. Write \\boxed{open D D D D} with the digits of the dials."
        elif len(digits) > _DIALS:
            obs = f"The lock has only {_DIALS} dials."
        elif not all(d in self._alphabet for d in digits):
            obs = "The dials carry only the digits " + ", ".join(map(str, self._alphabet)) + "."
        else:
            tried = digits + self._dials[len(digits):]
            self._dials = tried
            shown = "-".join(map(str, tried))
            if tried == self._code:
                self._terminated = True
                return f"Trying {shown}: click! The lock opens.", 1.0, True, False, self._info()
            exact, near = _score(tried, self._code)
            obs = f"Trying {shown}: {exact} in place, {near} misplaced."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of tries."
        else:
            obs += f" Tries left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Consistent guessing: open with a a b b (the two smallest digits), then always try the first code (in order) that agrees
        with every answer so far. It never needs more than eight tries."""
        candidates = [list(p) for p in itertools.product(self._alphabet, repeat=_DIALS)]
        a, b = self._alphabet[:2]
        guess = [a, a, b, b]
        moves = [guess]
        while guess != self._code:
            result = _score(guess, self._code)
            candidates = [c for c in candidates if _score(guess, c) == result]
            guess = candidates[0]
            moves.append(guess)
        return ["\\boxed{open " + " ".join(map(str, g)) + "}" for g in moves]

    def close(self) -> None:
        """Nothing to release."""
