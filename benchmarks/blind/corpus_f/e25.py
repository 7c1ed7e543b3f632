"""ParityCallEnv: is a sum of products even or odd? Two answers, one call, a wrong call ends the round.

The parity is drawn first (even and odd equally likely) and the last term adjusted to match, so a
constant answer wins half the time and no more.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class ParityCallEnv:
    """EVEN or ODD; wrong ends with 0."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._value = 0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        want_odd = rng.random() < 0.5
        terms = [(rng.randint(13, 97), rng.randint(13, 97)) for _ in range(3)]
        last = rng.randint(101, 999)
        value = terms[0][0] * terms[0][1] + terms[1][0] * terms[1][1] - terms[2][0] * terms[2][1] + last
        if (value % 2 == 1) != want_odd:
            last += 1
            value += 1
        self._value = value
        self._turn, self._status = 0, (False, False)
        text = (
            f"Is {terms[0][0]} x {terms[0][1]} + {terms[1][0]} x {terms[1][1]} - {terms[2][0]} x {terms[2][1]}"
            f" + {last} even or odd?\nAnswer \\boxed{{EVEN}} or \\boxed{{ODD}} (case does not matter). "
            "You get one call: a wrong call, or boxing both answers, ends the round with 0."
        )
        return text, {"terms": 4}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Round over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        said = [c.strip().upper() for c in _BOX.findall(action if isinstance(action, str) else "")]
        said = [s for s in said if s in ("EVEN", "ODD")]
        truth = "ODD" if self._value % 2 else "EVEN"
        reward, terminated = 0.0, False
        if not said:
            obs = "Answer with \\boxed{EVEN} or \\boxed{ODD}."
        elif len(set(said)) == 1 and said[0] == truth:
            obs, reward, terminated = f"Right, it is {truth.lower()}.", 1.0, True
        else:
            obs, terminated = f"Wrong call; it is {truth.lower()}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return "ODD" if self._value % 2 else "EVEN"

    def hint(self) -> str:
        return "Only the parity of each factor matters."

    def close(self) -> None:
        """Nothing to release."""
