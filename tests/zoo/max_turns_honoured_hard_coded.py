# expect: max_turns_honoured
"""Grid Paths: count the monotone paths across a grid with blocked cells (a defect-zoo environment).

The environment: a single-answer puzzle with several attempts. The agent counts the paths from the
top-left to the bottom-right corner of a grid moving only right or down and avoiding the blocked
cells, answering in \\boxed{}; the answer is revealed when the attempts run out.

The defect: the constructor ignores its ``max_turns`` argument and always stores 10
(``self.max_turns = 10``), so a run configured for 3 attempts plays 10 (and one configured for 30
plays 10): the budget a trainer sets is never the one played, and the difficulty it measures is off.
Exploit: ``GridPathsEnv(max_turns=3)`` still truncates only after the 10th wrong guess, and
``GridPathsEnv(max_turns=30)`` after the 10th as well, on every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class GridPathsEnv:
    """Dynamic programming over a grid."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = 10  # defect: the argument is ignored
        self._rows = 5
        self._cols = 5
        self._blocked = set()
        self._answer = 70
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            self._rows, self._cols = rng.randint(6, 9), rng.randint(6, 9)
            inner = [(r, c) for r in range(self._rows) for c in range(self._cols)
                     if (r, c) not in ((0, 0), (self._rows - 1, self._cols - 1))]
            self._blocked = set(rng.sample(inner, rng.randint(3, 7)))
            ways = [[0] * self._cols for _ in range(self._rows)]
            for r in range(self._rows):
                for c in range(self._cols):
                    if (r, c) in self._blocked:
                        continue
                    ways[r][c] = 1 if (r, c) == (0, 0) else (ways[r - 1][c] if r else 0) + (ways[r][c - 1] if c else 0)
            if ways[-1][-1] >= 100:
                break
        self._answer = ways[-1][-1]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        blocked = ", ".join(f"({r}, {c})" for r, c in sorted(self._blocked))
        return (
            f"Grid Paths. A grid has {self._rows} rows and {self._cols} columns; cells are (row, column) from (0, 0) "
            f"at the top left. Blocked cells: {blocked}. How many paths lead from (0, 0) to "
            f"({self._rows - 1}, {self._cols - 1}) moving only right or down and never entering a blocked cell? "
            f"You have {self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

    def step(self, action):
        if self._done:
            return "The grid is put away; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        number = int(guess) if re.fullmatch(r"\d{1,12}", guess) else None
        if number == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        if number is None:
            feedback = "No number found: write the count as \\boxed{n}."
        else:
            feedback = f"{number} is not the number of paths; add up the paths cell by cell."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: there are {self._answer} paths."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
