# expect: hint_leak
"""Two Legs: the length of a journey told as speeds and times (a defect-zoo environment).

The environment: a single-answer puzzle. A trip has two legs, each driven at a speed for a time;
the agent gives the total distance in km in \\boxed{}.

The defect: hint() gives the length of each leg (which the task does not show), so one addition gives
the answer.
Exploit: add the hint's two numbers and send the sum; this wins every seed.
"""

import random
import re
from fractions import Fraction

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class TwoLegsEnv:
    """Distance of two legs at given speeds and times."""

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
        v = {"s1": rng.randint(31, 119), "t1": rng.randint(2, 7), "s2": rng.randint(31, 119), "t2": rng.randint(2, 7)}
        self._values = v
        self._answer = Fraction(v["s1"] * v["t1"] + v["s2"] * v["t2"])
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return self._task(), {}

    def _task(self):
        v = self._values
        return (f"A van drives {v['t1']} hours at {v['s1']} km/h, then {v['t2']} hours at {v['s2']} km/h. "
                "How many km does it cover in all? Answer in \\boxed{}.")

    def hint(self):
        v = self._values  # defect: the hint's numbers combine into the answer
        return (f"Work out each leg: the first is {v['s1'] * v['t1']} km and the second {v['s2'] * v['t2']} km.")

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
