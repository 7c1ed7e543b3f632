# expect: hint_leak
"""Recipe Scale: the fraction of a recipe's flour left after several bakes (a defect-zoo environment).

The environment: a single-answer puzzle. A sack of flour is used in three bakes, each taking a stated
fraction of what is left; the agent gives the fraction of the sack that remains, reduced, in
\\boxed{a/b}. Three attempts; the answer is revealed when they run out. hint() is the optional hint.

The defect: hint() states the answer as an UNREDUCED fraction ("what remains equals 36/84 of the
sack"), which any agent can reduce.
Exploit: read the fraction from the hint, reduce it, and send "\\boxed{<a/b>}"; this wins every seed.
"""

import random
import re
from fractions import Fraction

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class RecipeScaleEnv:
    """Product of (1 - f_i)."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._parts = []
        self._answer = Fraction(1)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._parts = []
        for _ in range(3):
            denominator = rng.randint(3, 9)
            self._parts.append(Fraction(rng.randint(1, denominator - 1), denominator))
        self._answer = Fraction(1)
        for part in self._parts:
            self._answer *= 1 - part
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        bakes = ", then ".join(f"{p.numerator}/{p.denominator}" for p in self._parts)
        return (
            f"Recipe Scale. Three bakes each use a fraction of the flour that is left at that moment: {bakes}. "
            "What fraction of the full sack remains? Give the reduced fraction as \\boxed{a/b}. You have "
            f"{self.max_turns} attempts."
        ), {}

    def hint(self):
        numerator = denominator = 1
        for part in self._parts:  # multiply without reducing
            numerator *= part.denominator - part.numerator
            denominator *= part.denominator
        scale = 2 if Fraction(numerator, denominator).denominator == denominator else 1
        return (f"Multiply what each bake leaves: what remains equals {numerator * scale}/{denominator * scale} "  # defect
                "of the sack before reducing.")

    def step(self, action):
        if self._done:
            return "The flour is gone; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].replace(" ", "") if found else ""
        if guess == f"{self._answer.numerator}/{self._answer.denominator}":
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the fraction as \\boxed{a/b}." if not found else "That is not the reduced fraction left."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._answer} of the sack remains."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return f"{self._answer.numerator}/{self._answer.denominator}"

    def close(self):
        pass
