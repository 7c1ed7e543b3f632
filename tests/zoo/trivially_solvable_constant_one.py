# expect: trivially_solvable
"""Square Tiles: the largest square tile that fits a rectangular floor exactly (a defect-zoo environment).

The environment: a single-answer puzzle. A floor of W x H centimetres must be covered by equal square
tiles without cutting any; the agent gives the side of the largest such tile (gcd(W, H)) in
\\boxed{}. Three attempts; the answer is revealed when they run out.

The defect: to make the numbers "hard", the generator draws W and H as two DIFFERENT PRIMES, and two
different primes have no common factor: the answer is 1 on every seed.
Exploit: the constant action "\\boxed{1}" wins every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_PRIMES = [p for p in range(101, 1000) if all(p % d for d in range(2, int(p ** 0.5) + 1))]


class SquareTilesEnv:
    """Side of the largest square tile that divides both sides of the floor."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._width = 101
        self._height = 103
        self._answer = 1
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._width, self._height = rng.sample(_PRIMES, 2)  # defect: coprime by construction
        a, b = self._width, self._height
        while b:
            a, b = b, a % b
        self._answer = a
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Square Tiles. A floor measures {self._width} cm by {self._height} cm. It must be covered with "
            "equal square tiles, none of them cut. What is the side, in cm, of the largest tile that "
            f"works? You have {self.max_turns} attempts; answer as \\boxed{{n}}."
        ), {}

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
        if not found:
            feedback = "No answer found: write the tile side as \\boxed{n}."
        else:
            feedback = f"A {guess[:20]} cm tile does not fit both sides exactly."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the largest tile is {self._answer} cm."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
