# expect: valid
"""Series Sum: a finite geometric series as an exact fraction, written exactly as the SPADE release prompt shows.

The release's single-answer template: ``from math_verify import parse, verify``, the module-level
``verify_answer`` helper (string match first, then math equivalence, bare ``except``), a class with
``self.turn_count``, ``solution()`` computing the answer from the generated task, step() reading
``re.search(r'\\\\boxed\\{([^}]+)\\}', action)``, specific feedback with the task repeated, and the answer
revealed on the truncating step.

Looks suspicious: it imports math_verify (not in the standard-library allowlist; the sandbox
provides it as a shim) and accepts any mathematically equal form of the answer ("6/14" for "3/7",
"\\frac{3}{7}"), which a strict answer-variants check might take for leniency.
Why it is correct: accepting equal values is the template's intended behaviour (verify compares
values, not strings); wrong values are rejected with a hint, and the answer appears only on the final
step.
"""

import random
import re
from fractions import Fraction
from typing import Any, Optional, Tuple, Dict, List
from math_verify import parse, verify


def verify_answer(player_answer, solution):
    """Check if answer is correct: string match first, then math equivalence."""
    if str(player_answer).strip() == str(solution).strip():
        return True
    try:
        return verify(parse(player_answer), parse(solution))
    except:
        return False


class GeometricSeriesSumEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        self._first = Fraction(1)
        self._ratio = Fraction(1, 2)
        self._terms = 3
        self._answer = Fraction(7, 4)
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None) -> Tuple[str, dict]:
        rng = random.Random(seed)
        self.turn_count = 0
        self._first = Fraction(rng.randint(1, 9), rng.randint(1, 5))
        self._ratio = Fraction(rng.choice([-1, 1]) * rng.randint(1, 6), rng.randint(7, 13))
        self._terms = rng.randint(4, 7)
        self._answer = sum(self._first * self._ratio ** k for k in range(self._terms))
        self._done = False
        self._ended = (False, False)
        return ("Series Sum. " + self._task() + " Give the exact value as a reduced fraction, e.g. \\boxed{p/q}."), {}

    def _task(self):
        return (f"A geometric series starts at {self._first} and every term is the previous one times {self._ratio}. "
                f"What is the sum of its first {self._terms} terms?")

    def solution(self) -> str:
        return f"{self._answer.numerator}/{self._answer.denominator}"

    def step(self, action: str) -> Tuple[str, float, bool, bool, dict]:
        if self._done:
            return ("The episode is over.", 0.0, self._ended[0], self._ended[1], {})
        self.turn_count += 1
        truncated = self.turn_count >= self.max_turns
        match = re.search(r'\\boxed\{([^}]+)\}', action)
        if match and verify_answer(match.group(1), self.solution()):
            self._done, self._ended = True, (True, False)
            return ("Correct! That is the sum.", 1.0, True, False, {})
        elif truncated:
            self._done, self._ended = True, (False, True)
            return (f"Time's up. The answer was {self.solution()}. {self._task()}", 0.0, False, True, {})
        else:
            hint = "Put your answer in \\boxed{p/q}." if not match else \
                "Wrong. Use S = a(1 - r^n)/(1 - r) and reduce the fraction."
            return (f"{hint} Try again. {self._task()}", 0.0, False, False, {})

    def close(self): pass
