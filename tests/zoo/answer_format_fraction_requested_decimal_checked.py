# expect: answer_format
"""Pie Share: the fraction of a pie left after several people take their share (a defect-zoo environment).

The environment: a single-answer puzzle. People take stated fractions of what is left of a pie in
turn; the task asks for the fraction that remains "as a reduced fraction a/b". Three attempts; the
answer is revealed when they run out.

The defect: the checker only accepts the DECIMAL string of the answer (e.g. "0.3125") and rejects
the reduced fraction the task asks for ("5/16"); solution() returns the decimal, so replaying it
wins while every agent that follows the instructions loses.
Exploit: none for the agent; the instructed form "\\boxed{<a/b>}" loses on every seed while
"\\boxed{<decimal>}" wins, so the environment looks hard for the wrong reason.
"""

import random
import re
from fractions import Fraction

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class PieShareEnv:
    """Product of (1 - f_i) with power-of-two denominators."""

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
        self._shares = []
        for _ in range(rng.randint(2, 4)):
            denominator = rng.choice([2, 4, 5, 8])
            self._shares.append(Fraction(rng.randint(1, denominator - 1), denominator))
        self._answer = Fraction(1)
        for share in self._shares:
            self._answer *= 1 - share
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        takes = ", then ".join(f"{s.numerator}/{s.denominator}" for s in self._shares)
        return (
            f"Pie Share. In turn, each person takes this fraction of the pie that is left: {takes}. What fraction "
            f"of the pie remains? Give it as a reduced fraction a/b in \\boxed{{}}. You have {self.max_turns} attempts."
        ), {}

    def _decimal(self):
        return format(self._answer.numerator / self._answer.denominator, ".10f").rstrip("0")

    def step(self, action):
        if self._done:
            return "The pie is gone; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if guess == self._decimal():  # defect: only the decimal form is accepted
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write it in \\boxed{}." if not found else "That is not what remains."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._decimal()} of the pie remains."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._decimal()

    def close(self):
        pass
