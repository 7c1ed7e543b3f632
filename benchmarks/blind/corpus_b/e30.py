"""Expression Match: which of four arithmetic expressions evaluates to the target value?

Exactly one option hits the target; the others are near misses that a careless order-of-operations
reading would pick. Answer with the option letter.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LETTERS = "ABCD"


def _expr(rng: random.Random) -> tuple[str, int]:
    a, b, c, d = rng.randint(2, 19), rng.randint(2, 12), rng.randint(2, 15), rng.randint(1, 9)
    shape = rng.randrange(4)
    if shape == 0:
        return f"{a} + {b} * {c} - {d}", a + b * c - d
    if shape == 1:
        return f"({a} + {b}) * {c} - {d}", (a + b) * c - d
    if shape == 2:
        return f"{a} * {b} - {c} * {d}", a * b - c * d
    return f"{a} * ({b} + {c}) - {d}", a * (b + c) - d


class ExpressionMatchEnv:
    """Four-option multiple choice."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._options: list[tuple[str, int]] = []
        self._target = 0
        self._correct = "A"
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            options = [_expr(rng) for _ in range(4)]
            values = [v for _, v in options]
            if len(set(values)) == 4:
                break
        idx = rng.randrange(4)
        self._options, self._target = options, values[idx]
        self._correct = _LETTERS[idx]
        self._turn, self._done = 0, False
        lines = "\n".join(f"  {_LETTERS[i]}) {e}" for i, (e, _) in enumerate(options))
        obs = (f"Expression Match. Which expression equals {self._target}? (usual operator precedence)\n{lines}\n"
               "Answer with one letter, e.g. \\boxed{B}.")
        return obs, {"options": 4}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Question closed.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        pick = found[-1].strip().upper().rstrip(")") if found else ""
        reward, terminated = 0.0, False
        if pick not in _LETTERS or len(pick) != 1:
            obs = "Answer with A, B, C or D in \\boxed{...}."
        else:
            terminated = True
            reward = 1.0 if pick == self._correct else 0.0
            obs = "Correct." if reward else "Wrong option."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._correct

    def close(self) -> None:
        pass
