"""NumberRiddleEnv: identify a number from 1 to 20 from three clues (skill: logical deduction).

The clues (parity, a divisibility fact, a bound) pin down exactly one number. Wrong guesses are
answered with "no" and the player may keep trying, so a near miss is not the end of the episode.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _clues(rng: random.Random) -> tuple[int, list[str]] | None:
    secret = rng.randint(1, 20)
    facts = []
    facts.append(("It is odd.", lambda n: n % 2 == 1) if secret % 2 else ("It is even.", lambda n: n % 2 == 0))
    k = rng.choice([3, 4, 5, 7])
    if secret % k == 0:
        facts.append((f"It is a multiple of {k}.", lambda n, k=k: n % k == 0))
    else:
        facts.append((f"It leaves remainder {secret % k} when divided by {k}.", lambda n, k=k, r=secret % k: n % k == r))
    low = rng.randint(max(1, secret - 6), secret)
    facts.append((f"It is at least {low}.", lambda n, low=low: n >= low))
    high = rng.randint(secret, min(20, secret + 6))
    facts.append((f"It is at most {high}.", lambda n, high=high: n <= high))
    fits = [n for n in range(1, 21) if all(test(n) for _, test in facts)]
    return (secret, [text for text, _ in facts]) if fits == [secret] else None


class NumberRiddleEnv:
    """Riddle with retries."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 25, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._secret = 1
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        found = None
        while found is None:
            found = _clues(rng)
        self._secret, clues = found
        self._turn, self._status = 0, (False, False)
        text = ("I am thinking of a whole number from 1 to 20.\n" + "\n".join(f"  - {c}" for c in clues) + "\n"
                f"Box your guess, e.g. \\boxed{{7}}. You have {self.max_turns} tries.")
        return text, {"tries": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Game over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        content = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,2}", content):
            obs = "Box a whole number from 1 to 20."
        elif int(content) == self._secret:
            obs, reward, terminated = "Yes, that's it!", 1.0, True
        else:
            obs = "No."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += f" Out of tries; it was {self._secret}."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"tries_left": self.max_turns - self._turn}

    def solution(self) -> int:
        return self._secret

    def close(self) -> None:
        """Nothing to release."""
