"""BiggerProductEnv: which of two close products is larger, or are they the same?

Three legal answers (A, B, SAME), each the right one a third of the time. The products are built to
be close, so estimating is not enough. A wrong answer costs 0.5 and ends the round.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_ANSWERS = ("A", "B", "SAME")


class BiggerProductEnv:
    """Compare a x b with c x d."""

    reward_range = (-0.5, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._left = (2, 3)
        self._right = (3, 2)
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        outcome = rng.choice(_ANSWERS)
        while True:
            a, b = rng.randint(11, 60), rng.randint(11, 60)
            if outcome == "SAME":
                pairs = [(c, a * b // c) for c in range(11, 67)
                         if (a * b) % c == 0 and 11 <= a * b // c <= 66 and c not in (a, b)]
                if not pairs:
                    continue
                c, d = rng.choice(pairs)
            else:
                c, d = a + rng.randint(1, 6), b - rng.randint(1, 6)
                if c * d == a * b or d < 11:
                    continue
                bigger = "A" if a * b > c * d else "B"
                if bigger != outcome:
                    (a, b), (c, d) = (c, d), (a, b)
            break
        if rng.random() < 0.5:
            a, b = b, a
        self._left, self._right = (a, b), (c, d)
        self._turn, self._status = 0, (False, False)
        text = (
            f"A = {a} x {b}    B = {c} x {d}\n"
            "Which is larger? Answer \\boxed{A}, \\boxed{B} or \\boxed{SAME} (case does not matter).\n"
            "A right answer scores 1. A wrong answer scores -0.5 and ends the round; so does boxing two "
            "different answers."
        )
        return text, {"choices": list(_ANSWERS)}

    def _truth(self) -> str:
        left, right = self._left[0] * self._left[1], self._right[0] * self._right[1]
        return "SAME" if left == right else ("A" if left > right else "B")

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Round over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        said = [c.strip().upper() for c in _BOX.findall(action if isinstance(action, str) else "")]
        said = [s for s in said if s in _ANSWERS]
        reward, terminated = 0.0, False
        if not said:
            obs = "Answer with \\boxed{A}, \\boxed{B} or \\boxed{SAME}."
        elif len(set(said)) == 1 and said[0] == self._truth():
            obs, reward, terminated = "Right!", 1.0, True
        else:
            obs, reward, terminated = f"Wrong; the answer was {self._truth()}. (-0.5)", -0.5, True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._truth()

    def close(self) -> None:
        """Nothing to release."""
