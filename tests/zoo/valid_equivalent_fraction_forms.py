# expect: valid
"""Fair Share: split a bill into exact fractions (skill: Fraction Arithmetic).

Looks suspicious: several different strings win the same episode: "3/8", "0.375", "6/16" and
"\\frac{3}{8}" are all accepted, which an answer-variants check that perturbs the answer's TEXT may
take for a lenient checker.
Why it is correct: they are the same number. The check parses the reply as an exact rational
(Fraction) and compares VALUES: any form equal to the answer wins and every other value loses,
including the reciprocal, the negation and near misses; no tolerance is involved.
"""

import random
import re
from fractions import Fraction

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")  # one level of nested braces, for \frac{a}{b}


def _parse(text):
    text = text.strip().replace(" ", "")
    frac = re.fullmatch(r"\\d?frac\{(-?\d{1,9})\}\{(\d{1,9})\}", text)
    if frac:
        text = f"{frac.group(1)}/{frac.group(2)}"
    if not re.fullmatch(r"-?\d{1,9}(\.\d{1,12})?(/\d{1,9})?", text):
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


class FairShareEnv:
    """Remaining share after others pay fractions of the bill."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._shares = []
        self._answer = Fraction(1, 2)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._shares = [Fraction(rng.randint(1, 4), rng.choice([5, 6, 8, 10, 12])) for _ in range(rng.randint(2, 3))]
            self._answer = 1 - sum(self._shares)
            if 0 < self._answer < 1 and self._answer.denominator > 2 and self._answer not in self._shares:
                break
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        shares = ", ".join(f"{s.numerator}/{s.denominator}" for s in self._shares)
        return (f"Fair Share. Friends split a restaurant bill: the others pay {shares} of it. What fraction of the "
                "bill is left for you? Any exact form is fine (a/b, a decimal if it ends, or \\frac{a}{b}). You have "
                f"{self.max_turns} attempts; answer in \\boxed{{}}."), {}

    def step(self, action):
        if self._done:
            return "The bill is settled; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        boxes = _BOXED.findall(action)
        value = _parse(boxes[-1]) if boxes else None
        if value is not None and value == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write it in \\boxed{}." if not boxes else "That is not your share."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: your share is {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return f"{self._answer.numerator}/{self._answer.denominator}"

    def close(self):
        pass
