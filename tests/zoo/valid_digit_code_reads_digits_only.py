# expect: valid
"""Dial Lock: find a three-digit code over the digits 1-6, with feedback (skill: Deduction).

Looks suspicious: the lock reads only the digits of a reply, so ``\\boxed{-441}``, ``\\boxed{4 4 1}`` and
``\\boxed{4,4,1}`` all open it when the code is 441: a wrong number (the answer with its sign flipped)
seems to be accepted.

Why it is correct: the answer is a code, not a number. A sign is no part of any code this lock has, so
``-441`` is the code 441 written with a stray mark, and reading it so gives nothing to an agent that does
not know the code. Each guess gets the count of digits in the right place; 216 codes, ten guesses.
"""

import itertools
import random
import re
from collections import Counter

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
CODES = ["".join(c) for c in itertools.product("123456", repeat=3)]


def _right(guess, code):
    return sum(a == b for a, b in zip(guess, code))


class DialLockEnv:
    """Three dials, digits 1-6."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self._code = "111"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._code = "".join(rng.choice("123456") for _ in range(3))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return ("A lock has three dials, each showing a digit from 1 to 6. Guess the code in \\boxed{}, e.g. "
                f"\\boxed{{123}}; after each guess you learn how many dials are right. {self.max_turns} guesses."), {}

    def step(self, action):
        if self._done:
            return "The lock is done; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = re.sub(r"[^1-6]", "", found[-1]) if found else ""
        truncated = self._turn >= self.max_turns
        if len(guess) != 3:
            if truncated:
                self._done, self._ended = True, (False, True)
            return "Give three digits from 1 to 6 in \\boxed{}.", 0.0, False, truncated, {}
        if guess == self._code:
            self._done, self._ended = True, (True, False)
            return "Click! The lock opens.", 1.0, True, False, {}
        feedback = f"{guess}: {_right(guess, self._code)} dial(s) right."
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of guesses; the code was {self._code}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        """Guess 112, then the remaining code that splits the rest most evenly (worst case eight guesses)."""
        candidates, moves, guess = list(CODES), [], "112"
        for _ in range(self.max_turns):
            moves.append(f"\\boxed{{{guess}}}")
            if guess == self._code:
                return moves
            right = _right(guess, self._code)
            candidates = [c for c in candidates if c != guess and _right(guess, c) == right]
            guess = min(candidates, key=lambda g: max(Counter(_right(g, c) for c in candidates).values()))
        return moves

    def close(self):
        pass
