# expect: step_budget
"""Ruler Maker: how long must a ruler be for its digits to add up to a target? (a defect-zoo environment).

The environment: a single-answer puzzle. A "ruler" of length n is the string of digits 1, 2, ..., 9,
0, 1, 2, ... (the last digit of each position 1..n); the agent answers with the smallest length whose
digits sum to at least the target, in \\boxed{}. Three attempts; the answer is revealed when they run
out.

The defect: step() checks a guess by BUILDING the ruler of the guessed length as a string,
``"".join(str(i % 10) for i in range(1, n + 1))``, so its time and memory grow with the number in the
action: instant for the real answers (a few hundred), minutes and gigabytes for "\\boxed{2147483647}".
Exploit: the action "\\boxed{2147483647}" makes one step run for minutes and allocate gigabytes;
"\\boxed{100}" returns at once.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class RulerMakerEnv:
    """Smallest n with digit-sum(ruler(n)) >= target."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._target = 100
        self._answer = 22
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    @staticmethod
    def _ruler(n):
        return "".join(str(i % 10) for i in range(1, n + 1))  # defect: O(n) time and memory per step

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._target = rng.randint(400, 4000)
        total, n = 0, 0
        while total < self._target:
            n += 1
            total += n % 10
        self._answer = n
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Ruler Maker. A ruler of length n shows the last digit of each position 1, 2, ..., n (so length 12 "
            f"reads 123456789012). What is the shortest ruler whose digits add up to at least {self._target}? "
            f"You have {self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

    def step(self, action):
        if self._done:
            return "The ruler is cut; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if not re.fullmatch(r"\d{1,10}", guess):
            feedback = "No answer found: write the length as \\boxed{n}."
        else:
            n = int(guess)
            reaches = sum(int(d) for d in self._ruler(n)) >= self._target
            shorter = n > 0 and sum(int(d) for d in self._ruler(n - 1)) >= self._target
            if reaches and not shorter:
                self._done, self._ended = True, (True, False)
                return "Correct!", 1.0, True, False, {}
            feedback = "Too short: the digits do not reach the target." if not reaches else "A shorter ruler also works."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the shortest ruler has length {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
