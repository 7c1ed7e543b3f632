"""Prime Spotter: exactly one of six three-digit numbers is prime; name it.

The other five are odd composites with no factor below 7, so quick divisibility tricks for 2, 3 and 5
do not settle it; the player has to trial-divide up to the square root.
"""

from __future__ import annotations

import random
import re
from typing import Any


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    f = 3
    while f * f <= n:
        if n % f == 0:
            return False
        f += 2
    return True


def _last_boxed(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    found = re.findall(r"\\boxed\{([^{}]*)\}", text)
    return found[-1].strip() if found else None


class PrimeSpotterEnv:
    """Pick the single prime among six candidates."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._numbers: list[int] = []
        self._prime = 0
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        prime = rng.choice([n for n in range(101, 1000, 2) if _is_prime(n)])
        hard = [n for n in range(121, 1000, 2)
                if not _is_prime(n) and n % 3 and n % 5 and n != prime]
        numbers = rng.sample(hard, 5) + [prime]
        rng.shuffle(numbers)
        self._numbers, self._prime = numbers, prime
        self._turn, self._done = 0, False
        obs = ("Prime Spotter. Exactly one of these numbers is prime:\n  "
               + ", ".join(map(str, numbers))
               + "\nReply with the prime number in \\boxed{...}, e.g. \\boxed{1009}. "
               "One answer only; a wrong answer ends the round.")
        return obs, {"candidates": list(numbers)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The round is over.", 0.0, True, False, {}
        self._turn += 1
        content = _last_boxed(action)
        reward, terminated = 0.0, False
        if content is None or not re.fullmatch(r"\d{1,4}", content):
            obs = "Please answer with one of the listed numbers inside \\boxed{...}."
        else:
            terminated = True
            if int(content) == self._prime:
                reward, obs = 1.0, "Correct, that one is prime."
            else:
                obs = "Not the prime one."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._prime

    def close(self) -> None:
        pass
