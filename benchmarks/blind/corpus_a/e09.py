"""Prime Pick: choose the prime among four look-alike numbers (skill: factoring).

Four numbers between 100 and 999 are offered as options A-D. Exactly one is prime; the other three are
composites with no prime factor below 11, so the quick divisibility tests (2, 3, 5, 7) do not give
them away. All four options end in the same digit and the prime's rank by size is uniform. The player
answers with the letter (or the number itself). A wrong answer ends the episode, so blind guessing
wins one time in four.
"""

from __future__ import annotations

import random
import re
from typing import Any


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


_PRIMES = [n for n in range(101, 1000) if _is_prime(n)]
_DECOYS = [n for n in range(101, 1000) if all(n % p for p in (2, 3, 5, 7)) and not _is_prime(n)]


class PrimePickEnv:
    """Four-option multiple choice: which number is prime?"""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._options: list[int] = []
        self._correct = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        rank = rng.randrange(4)  # where the prime sits in size order, so size gives nothing away
        digit = rng.choice([1, 3, 7, 9])  # all four options share their last digit
        primes = [n for n in _PRIMES if n % 10 == digit]
        composites = [n for n in _DECOYS if n % 10 == digit]
        while True:
            prime, decoys = rng.choice(primes), rng.sample(composites, 3)
            if sum(d < prime for d in decoys) == rank:
                break
        options = decoys + [prime]
        rng.shuffle(options)
        self._options = options
        self._correct = next(i for i, n in enumerate(options) if _is_prime(n))
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Prime Pick. Exactly one of these numbers is prime:\n"
                + "\n".join(f"  {'ABCD'[i]}) {n}" for i, n in enumerate(options))
                + "\nAnswer with the letter of the prime in a box, e.g. \\boxed{A}.")
        return text, {"turn": 0, "options": dict(zip("ABCD", options))}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "options": dict(zip("ABCD", self._options))}
        if self._terminated or self._truncated:
            return "This question is closed.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info["turn"] = self._turn
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        value = boxes[-1].strip().upper().rstrip(")") if boxes else ""
        if len(value) == 1 and value in "ABCD":
            choice = "ABCD".index(value)
        elif re.fullmatch(r"\d{3}", value) and int(value) in self._options:
            choice = self._options.index(int(value))
        else:
            choice = -1
        reward = 0.0
        if choice < 0:
            obs = "Answer with one of the letters A, B, C or D in a box, e.g. \\boxed{C}."
        else:
            self._terminated = True
            if choice == self._correct:
                reward, obs = 1.0, f"Correct: {self._options[choice]} is prime."
            else:
                n = self._options[choice]
                factor = next(d for d in range(2, n) if n % d == 0)
                obs = f"No: {n} = {factor} x {n // factor}."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> str:
        return "ABCD"[self._correct]

    def close(self) -> None:
        """Nothing to release."""
