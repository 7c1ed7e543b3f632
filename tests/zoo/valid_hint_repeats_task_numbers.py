# expect: valid
"""Egg Plan: the price of an order of eggs, with an honest hint that repeats the task's own numbers.

Looks suspicious: the hint names every number the answer is computed from, and multiplying them in
the order the hint says gives the answer.

Why it is correct: every number in the hint is already in the task; the hint names the method (count
the eggs, then price them) and no new fact, so a reader of the hint knows nothing a reader of the task
does not. Combining the task's own numbers is the task.
"""

import random
import re
from fractions import Fraction

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class EggPlanEnv:
    """Crates x trays x eggs x price, hinted honestly."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._values = {}
        self._answer = Fraction(0)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        v = {"crates": rng.randint(3, 19), "trays": rng.randint(2, 9), "eggs": rng.choice([6, 10, 12, 15]),
             "price": rng.randint(11, 49)}
        self._values = v
        self._answer = Fraction(v["crates"] * v["trays"] * v["eggs"] * v["price"])
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return self._task(), {}

    def _task(self):
        v = self._values
        return (f"A bakery orders {v['crates']} crates of eggs. Each crate holds {v['trays']} trays of {v['eggs']} eggs, "
                f"and one egg costs {v['price']} cents. What does the order cost, in cents? Answer in \\boxed{{}}.")

    def hint(self):
        v = self._values
        return (f"Multiply {v['crates']} crates by {v['trays']} trays by {v['eggs']} eggs to count the eggs, then by "
                f"{v['price']} cents.")

    def step(self, action):
        if self._done:
            return "The question is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = None
        if found:
            try:
                guess = Fraction(found[-1].strip().replace(" ", ""))
            except (ValueError, ZeroDivisionError):
                guess = None
        if guess is not None and guess == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Not right." if guess is not None else "Write a number in \\boxed{}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The answer was {self._shown()}."
        return feedback, 0.0, False, truncated, {}

    def _shown(self):
        a = self._answer
        return str(a.numerator) if a.denominator == 1 else f"{a.numerator}/{a.denominator}"

    def solution(self):
        return self._shown()

    def close(self):
        pass
