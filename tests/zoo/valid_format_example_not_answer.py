# expect: valid
"""Tile Count: tiles needed for an L-shaped floor (skill: Spatial Reasoning).

Looks suspicious: the observation contains a number inside \\boxed{} ("answer like \\boxed{250}"),
the classic place where a format example leaks the answer, and 250 lies inside the answer range.
Why it is correct: the example is the same fixed number on every seed and the generator never
produces 250 as an answer (such tasks are drawn again), so copying the example never wins; the answer
appears nowhere in the observation.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
EXAMPLE = 250


class TileCountEnv:
    """Area of an L shape in tiles."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._dims = (10, 10, 4, 4)
        self._answer = 84
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        while True:
            width, height = rng.randint(8, 40), rng.randint(8, 40)
            cut_w, cut_h = rng.randint(2, width - 3), rng.randint(2, height - 3)
            answer = width * height - cut_w * cut_h
            if answer != EXAMPLE:
                break
        self._dims, self._answer = (width, height, cut_w, cut_h), answer
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (f"Tile Count. A rectangular floor of {width} x {height} tiles has a {cut_w} x {cut_h} corner taken out "
                f"for a staircase. How many tiles cover the rest? You have {self.max_turns} attempts; answer like "
                f"\\boxed{{{EXAMPLE}}}."), {}

    def step(self, action):
        if self._done:
            return "The floor is tiled; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the count as \\boxed{n}." if not found else "That is not the number of tiles."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._answer} tiles."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
