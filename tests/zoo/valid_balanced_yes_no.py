# expect: valid
"""Parity Check: is the sum of a list of numbers even? (skill: Logical Deduction).

Looks suspicious: the answer is yes or no, so a constant \\boxed{yes} wins about half of the
episodes, far above a 5% "trivially solvable" threshold.

Why it is correct: the question is balanced by construction (the generator first draws the answer
with probability 1/2, then builds a list with that parity), so no constant beats 50%, which is
chance for a yes/no question; there is one attempt and the feedback reveals nothing until the end.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class ParityCheckEnv:
    """Even sum, yes or no."""

    def __init__(self, max_turns=1, **kwargs):
        self.max_turns = max_turns
        self._values = []
        self._answer = "yes"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        want_even = rng.random() < 0.5
        self._values = [rng.randint(100, 9999) for _ in range(11)]
        if (sum(self._values) % 2 == 0) != want_even:
            self._values[rng.randrange(11)] += 1
        self._answer = "yes" if sum(self._values) % 2 == 0 else "no"
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Parity Check. Is the sum of {', '.join(map(str, self._values))} an even number? Answer "
                "\\boxed{yes} or \\boxed{no}; you have one attempt."), {}

    def step(self, action):
        if self._done:
            return "The check is over; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip().lower() if found else ""
        if guess == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "Wrong." if guess in ("yes", "no") else "Answer \\boxed{yes} or \\boxed{no}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" The answer was {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
