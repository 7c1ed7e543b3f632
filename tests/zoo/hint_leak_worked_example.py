# expect: hint_leak
"""Remainder Pair: the smallest n with two given remainders (a defect-zoo environment).

The defect: hint() shows a worked example built with the task generator and a fixed seed, 0. That
example *is* the task of seed 0, so on that seed the hint hands the agent the answer. Apart from
that, this is a complete, deterministic, winnable puzzle.
"""

import math
import random
import re


def _make_task(rng):
    while True:
        a, b = rng.sample(range(5, 40), 2)
        if math.gcd(a, b) == 1:
            break
    answer = rng.randint(10, a * b - 1)
    return a, b, answer % a, answer % b, answer


class RemainderPairEnv:
    """Name the smallest positive n with n mod a = r and n mod b = s."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._task = (5, 7, 0, 0, 35)
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed=None):
        self._task = _make_task(random.Random(seed))
        self._turn = 0
        self._done = False
        a, b, r, s, _ = self._task
        return (
            f"Find the smallest positive integer n with n mod {a} = {r} and n mod {b} = {s}. "
            f"You have {self.max_turns} attempts; answer with \\boxed{{n}}."
        ), {}

    def hint(self):
        a, b, r, s, answer = _make_task(random.Random(0))  # defect: seed 0 is also a real task
        return (
            f"Worked example: for n mod {a} = {r} and n mod {b} = {s}, list the numbers {r}, {r + a}, "
            f"{r + 2 * a}, ... and stop at the first one that leaves remainder {s} mod {b}: it is {answer}."
        )

    def step(self, action):
        if self._done:
            return "The puzzle is over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{\s*(-?\d{1,12})\s*\}", action)
        if found and int(found[-1]) == self._task[4]:
            self._done = True
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if found else "No answer found; write it as \\boxed{n}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done = True
            feedback += f" The answer was {self._task[4]}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._task[4]

    def close(self):
        pass
