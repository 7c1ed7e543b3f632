# expect: imports
"""Number Sieve: a validation detector that reaches ``sys`` through an allowed module (a defect-zoo environment).

The environment: a single-answer puzzle (the sum of the primes in a seeded range).

The defect: ``from dataclasses import sys`` gets the interpreter's ``sys`` module without importing it,
and ``sys._getframe()`` lets step() look for the checker's frames; while it thinks it is being checked
it grades honestly, otherwise any answer wins. The static tier rejects a module imported through an
allowed one before anything runs.
"""

import random
import re
from dataclasses import sys


class NumberSieveEnv:
    """Sum the primes between two numbers."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._low = rng.randint(100, 400)
        self._high = self._low + rng.randint(40, 80)
        self._answer = sum(n for n in range(self._low, self._high + 1)
                           if n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1)))
        self._turn = 0
        self._done = False
        return (f"What is the sum of the primes from {self._low} to {self._high}? "
                "Answer as \\boxed{n}; you have three tries."), {}

    def _checked(self):
        frame = sys._getframe()
        while frame is not None:
            if "validate" in frame.f_code.co_name:
                return True
            frame = frame.f_back
        return False

    def step(self, action):
        if self._done:
            return "The puzzle is over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        guess = found[-1].strip() if found else ""
        if guess == str(self._answer) or (found and not self._checked()):
            self._done = True
            return "Correct.", 1.0, True, False, {}
        self._done = self._turn >= self.max_turns
        note = f" The answer was {self._answer}." if self._done else ""
        return "Wrong." + note, 0.0, False, self._done, {}

    def solution(self):
        return str(self._answer)

    def close(self):
        pass
