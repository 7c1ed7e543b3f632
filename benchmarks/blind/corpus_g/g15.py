"""PrimePickEnv: Eight numbers, three primes: each prime named earns 1/3, each non-prime named takes 1/3 back.
"""
from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _boxes(action: Any) -> list[str]:
    """Contents of the simple \\boxed{...} groups of a reply; a non-string reply has none."""
    if not isinstance(action, str):
        return []
    return [box.strip() for box in _BOX.findall(action[:20000])]


def _int(text: str) -> int | None:
    """A plain integer (optional sign, at most 12 digits), else None."""
    text = text.strip().rstrip(".").strip()
    return int(text) if re.fullmatch(r"[+-]?\d{1,12}", text) else None


class _Episode:
    """Turn counting and the end-of-episode rules shared by the single-answer tasks of this file."""

    default_turns = 3
    invalid_text = "Invalid reply: put exactly one answer inside \\boxed{}."

    def _setup(self, max_turns: Any) -> None:
        try:
            self.max_turns = max(1, int(max_turns))
        except (TypeError, ValueError, OverflowError):
            self.max_turns = self.default_turns

    def _begin(self) -> None:
        self._turn = 0
        self._terminated = False
        self._truncated = False

    def _over(self) -> tuple[str, float, bool, bool, dict]:
        return ("The episode is over. Call reset() to play again.", 0.0, self._terminated,
                self._truncated, {"turn": self._turn})

    def _finish(self, obs: str, reward: float) -> tuple[str, float, bool, bool, dict]:
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        return obs, float(reward), self._terminated, self._truncated, {"turn": self._turn}

    def _legal(self, box: str) -> Any:
        return None

    def _answers(self, action: Any) -> list[Any]:
        found: list[Any] = []
        for box in _boxes(action):
            value = self._legal(box)
            if value is not None and value not in found:
                found.append(value)
        return found

    def _judge_single(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """One answer decides the episode; boxes holding no legal answer are ignored."""
        if self._terminated or self._truncated:
            return self._over()
        self._turn += 1
        found = self._answers(action)
        reward = 0.0
        if not found:
            obs = self.invalid_text
        elif len(found) > 1:
            self._terminated = True
            obs = "Several different answers were given; that counts as a wrong answer."
        elif found[0] == self._answer:
            self._terminated, reward = True, 1.0
            obs = "Correct!"
        else:
            self._terminated = True
            obs = "Wrong answer."
        return self._finish(obs, reward)

    def close(self) -> None:
        """Nothing to release."""


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))


class PrimePickEnv(_Episode):
    """Eight numbers, three primes: each prime named earns 1/3, each non-prime named takes 1/3 back."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self._setup(max_turns)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        primes = [n for n in range(11, 100) if _is_prime(n)]
        composites = [n for n in range(10, 100) if not _is_prime(n) and n % 2 and n % 5]
        numbers = rng.sample(primes, 3) + rng.sample(composites, 5)
        rng.shuffle(numbers)
        self._numbers = numbers
        self._primes = sorted(n for n in numbers if _is_prime(n))
        self._begin()
        obs = ("Exactly three of these numbers are prime: " + ", ".join(map(str, numbers)) + ".\n"
               "Name the primes inside one box, separated by commas, e.g. \\boxed{a, b, c}. Partial credit: "
               "the reward is (primes named - non-primes named) / 3, never below 0; naming all three primes and "
               "nothing else is a full win (reward 1). Only numbers from the list count; a box naming any "
               "other number, or none, is invalid and can be corrected. The first valid answer ends the episode.")
        return obs, {"turn": 0, "numbers": 8}

    def _legal(self, box: str) -> Any:
        pieces = [p.strip() for p in box.split(",")]
        values = [_int(p) for p in pieces]
        if not pieces or None in values or any(v not in self._numbers for v in values):
            return None
        return frozenset(values)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return self._over()
        self._turn += 1
        found = self._answers(action)
        reward = 0.0
        if not found:
            obs = "Invalid reply: name numbers from the list, e.g. \\boxed{a, b, c}."
        elif len(found) > 1:
            self._terminated = True
            obs = "Several different answers were given; nothing is paid."
        else:
            hits = sum(1 for v in found[0] if v in self._primes)
            misses = len(found[0]) - hits
            self._terminated = True
            reward = 1.0 if hits == 3 and misses == 0 else round(max(0, hits - misses) / 3, 4)
            obs = f"{hits} primes and {misses} non-primes named."
        return self._finish(obs, reward)

    def solution(self) -> str:
        return ", ".join(map(str, self._primes))
