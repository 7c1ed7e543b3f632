# expect: instance_isolation
"""Magic Square: the missing entry of a 3x3 magic square (a defect-zoo environment).

The environment: a single-answer puzzle. A 3x3 magic square (all rows, columns and diagonals have
the same sum) is shown with one entry hidden; the agent answers with the hidden entry in \\boxed{}.
Three attempts; the answer is revealed when they run out.

The defect: the puzzles live in a CLASS-level list, ``MagicSquareEnv._issued``, and every instance
grades against the most recently issued puzzle, ``_issued[-1]``. One instance on its own behaves;
two live instances with different seeds (as in a batched rollout) grade each other's answers: after
``a.reset(s1); b.reset(s2)``, instance a checks its agent's answer against b's square.
Exploit: with two interleaved instances, a's own correct answer loses on almost every pair of seeds
(and b's answer wins on a); a single instance is unaffected.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class MagicSquareEnv:
    """Fill in the hidden cell."""

    _issued = []  # defect: shared by every instance

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._square = [[0] * 3 for _ in range(3)]
        self._hidden = (0, 0)
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        centre = rng.randint(20, 500)
        a, b = rng.sample(range(1, centre), 2)
        while a == b or abs(a) == abs(b) or a + b == centre or abs(a - b) == centre:
            a, b = rng.sample(range(1, centre), 2)
        c = centre
        self._square = [[c + a, c - a - b, c + b], [c - a + b, c, c + a - b], [c - b, c + a + b, c - a]]
        self._hidden = (rng.randrange(3), rng.randrange(3))
        type(self)._issued.append(self._square[self._hidden[0]][self._hidden[1]])
        del type(self)._issued[:-8]
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        rows = []
        for r in range(3):
            rows.append(" | ".join("?" if (r, k) == self._hidden else str(self._square[r][k]) for k in range(3)))
        return ("Magic Square. In this 3x3 square every row, column and diagonal has the same sum:\n" +
                "\n".join(rows) + f"\nWhat number replaces the '?'? You have {self.max_turns} attempts; "
                "answer as \\boxed{n}."), {}

    def step(self, action):
        if self._done:
            return "The square is complete; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        answer = type(self)._issued[-1]  # defect: the latest puzzle of ANY instance
        if re.fullmatch(r"-?\d{1,12}", guess) and int(guess) == answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the number as \\boxed{n}." if not found else "That does not complete the square."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the missing number was {answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._square[self._hidden[0]][self._hidden[1]]

    def close(self):
        pass
