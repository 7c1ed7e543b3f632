# expect: valid
"""Bit Count: how many numbers in a range have a given number of 1-bits (skill: Combinatorics).

Looks suspicious: the observation depends on ``max_turns`` ("You have 7 attempts"), so a
max_turns_honoured check that compares observations made with different budgets sees them differ.
Why it is correct: the budget changes only the sentence that states it and the turn at which the
episode truncates; the task, the answer and the feedback are the same for every budget, and the
episode ends exactly at max_turns.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class BitCountEnv:
    """count of n in [lo, hi] with popcount(n) == k."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._low, self._high, self._bits = 1, 10, 2
        self._answer = 4
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._low = rng.randint(1, 5000)
            self._high = self._low + rng.randint(500, 20000)
            self._bits = rng.randint(3, 8)
            self._answer = sum(n.bit_count() == self._bits for n in range(self._low, self._high + 1))
            if self._answer >= 50:
                break
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Bit Count. How many whole numbers from {self._low} to {self._high} (inclusive) have exactly "
                f"{self._bits} ones in their binary form? You have {self.max_turns} attempts; answer as \\boxed{{n}}."), {}

    def step(self, action):
        if self._done:
            return "The count is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the count as \\boxed{n}." if not found else "That is not the count."
        left = self.max_turns - self._turn
        truncated = left <= 0
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the count is {self._answer}."
        else:
            feedback += f" {left} attempt{'s' if left != 1 else ''} left."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
