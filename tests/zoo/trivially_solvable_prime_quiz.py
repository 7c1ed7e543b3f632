# expect: trivially_solvable
"""Prime Check: say whether a three-digit number is prime (a defect-zoo environment).

The defect: the question is unbalanced. Six of every seven numbers it asks about are composite, so
answering \\boxed{no} without reading the number wins most episodes. Apart from that, this is a
complete, deterministic, winnable puzzle.
"""

import random
import re


class PrimeCheckEnv:
    """Answer yes or no: is the number prime?"""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._number = 101
        self._done = False
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._number = rng.randint(100, 999)
        self._done = False
        text = (
            f"Is {self._number} a prime number? Answer \\boxed{{yes}} or \\boxed{{no}}; you have one attempt."
        )
        return text, {}

    def _is_prime(self):
        return all(self._number % d for d in range(2, int(self._number ** 0.5) + 1))

    def step(self, action):
        if self._done:
            return "The quiz is over.", 0.0, True, False, {}
        self._done = True
        found = re.findall(r"\\boxed\{\s*([A-Za-z]+)\s*\}", action)
        expected = "yes" if self._is_prime() else "no"
        if found and found[-1].lower() == expected:
            return f"Correct: {self._number} is {'' if expected == 'yes' else 'not '}prime.", 1.0, True, False, {}
        return f"Wrong: the answer was {expected}.", 0.0, False, True, {}

    def solution(self):
        return "yes" if self._is_prime() else "no"

    def close(self):
        pass
