"""ThreePartArithmeticEnv: Three independent sums; each right part is worth a third of the reward.
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


class ThreePartArithmeticEnv(_Episode):
    """Three independent sums; each right part is worth a third of the reward."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self._setup(max_turns)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        a, b = rng.randint(100, 899), rng.randint(100, 899)
        c, d = rng.randint(12, 49), rng.randint(12, 49)
        e, f = rng.randint(500, 999), rng.randint(100, 499)
        self._parts = [a + b, c * d, e - f]
        self._begin()
        obs = ("Answer three questions in one reply.\n"
               f"(1) {a} + {b}\n(2) {c} x {d}\n(3) {e} - {f}\n"
               "Write the three integers in order inside one box, separated by semicolons: \\boxed{(1); (2); (3)}. "
               "Partial credit: each correct part earns 1/3 of the reward (so two right parts pay 0.667, one pays "
               "0.333); wrong parts earn nothing. Only all three right is a full win. The first well-formed "
               "answer ends the episode; a box that does not hold exactly three integers can be corrected.")
        return obs, {"turn": 0, "parts": 3}

    def _legal(self, box: str) -> Any:
        pieces = [p.strip() for p in box.split(";")]
        if len(pieces) != 3:
            return None
        values = [_int(p) for p in pieces]
        return None if None in values else tuple(values)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return self._over()
        self._turn += 1
        found = self._answers(action)
        reward = 0.0
        if not found:
            obs = "Invalid reply: write \\boxed{x; y; z} with three integers."
        elif len(found) > 1:
            self._terminated = True
            obs = "Several different answers were given; nothing is paid."
        else:
            right = sum(g == t for g, t in zip(found[0], self._parts))
            self._terminated = True
            reward = 1.0 if right == 3 else round(right / 3, 4)
            obs = f"{right} of 3 parts correct."
        return self._finish(obs, reward)

    def solution(self) -> str:
        return "; ".join(str(v) for v in self._parts)
