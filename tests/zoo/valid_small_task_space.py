# expect: valid
"""Square Count: how many squares of all sizes does a grid contain? (skill: Combinatorics).

Looks suspicious: there are only 48 distinct tasks (grids of 3..8 rows by 5..12 columns), far fewer
than the seeds, so a distinct-tasks check that expects a fresh task per seed may flag it, and an
agent could in principle memorise all 48 answers.

Why it is correct: 48 distinct, equally likely tasks with 48 different answers means a memorised
constant wins 1/48 (about 2%) of the episodes; the task is fully stated, needs a real count (sum over
square sizes), and is a small but honest task space, exactly like a 48-question quiz.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
TASKS = [(rows, cols) for rows in range(3, 9) for cols in range(5, 13)]


class SquareCountEnv:
    """sum_k (r - k + 1)(c - k + 1)."""

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max_turns
        self._rows = 3
        self._cols = 5
        self._answer = 26
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._rows, self._cols = TASKS[rng.randrange(len(TASKS))]
        self._answer = sum((self._rows - k + 1) * (self._cols - k + 1) for k in range(1, self._rows + 1))
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Square Count. A grid of {self._rows} rows and {self._cols} columns of unit squares is drawn. "
                "How many squares of any size (1x1, 2x2, ...) can you find in it? You have "
                f"{self.max_turns} attempts; answer as \\boxed{{n}}."), {}

    def step(self, action):
        if self._done:
            return "The grid is erased; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,6}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "That is not the number of squares." if found else "Answer as \\boxed{n}."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" There are {self._answer} squares."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
