# expect: feasible
"""Factorial Zeros: the number of trailing zeros of n! (a defect-zoo environment).

The environment: a single-answer puzzle. The agent counts the zeros at the end of n! for n between
100 and 640, answering in \\boxed{}. Three attempts; the answer is revealed when they run out.

The defect: solution() counts the factors of 5 as n//5 + n//25 + n//125 and forgets n//625, which
only matters at the top edge of the range: it is wrong exactly when n >= 625, about 3% of seeds
(2 of the 100 sanity seeds).
Exploit: none for the agent; the feasibility certificate is wrong on rare seeds that a replay on a
few small seeds does not reach.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class FactorialZerosEnv:
    """Legendre's formula for the prime 5."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._n = 100
        self._answer = 24
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._n = rng.randint(100, 640)
        zeros, power = 0, 5
        while power <= self._n:
            zeros += self._n // power
            power *= 5
        self._answer = zeros
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Factorial Zeros. How many zeros are at the end of {self._n}! (the product 1 x 2 x ... x {self._n})? "
            f"You have {self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

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
        feedback = "No answer found: write the count as \\boxed{n}." if not found else "That is not the number of zeros."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._n}! ends in {self._answer} zeros."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._n // 5 + self._n // 25 + self._n // 125  # defect: n // 625 is missing

    def close(self):
        pass
