"""FourConversionsEnv: Four unit conversions in one reply; each right value earns a quarter of the reward.
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


class FourConversionsEnv(_Episode):
    """Four unit conversions in one reply; each right value earns a quarter of the reward."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self._setup(max_turns)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        h, km, mins, kg = rng.randint(2, 30), rng.randint(2, 60), rng.randint(2, 90), rng.randint(2, 40)
        self._parts = [h * 60, km * 1000, mins * 60, kg * 1000]
        self._begin()
        obs = ("Convert each quantity and reply with the four plain numbers in order, separated by semicolons, "
               "inside one box: \\boxed{a; b; c; d}.\n"
               f"a) {h} hours in minutes\nb) {km} kilometres in metres\nc) {mins} minutes in seconds\n"
               f"d) {kg} kilograms in grams\n"
               "Scoring: each correct value earns 0.25 (wrong values earn nothing); all four correct is a full "
               "win with reward 1. The first box holding four integers ends the episode.")
        return obs, {"turn": 0, "parts": 4}

    def _legal(self, box: str) -> Any:
        pieces = [p.strip() for p in box.split(";")]
        if len(pieces) != 4:
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
            obs = "Invalid reply: write \\boxed{a; b; c; d} with four integers."
        elif len(found) > 1:
            self._terminated = True
            obs = "Several different answers were given; nothing is paid."
        else:
            right = sum(g == t for g, t in zip(found[0], self._parts))
            self._terminated = True
            reward = 1.0 if right == 4 else right / 4
            obs = f"{right} of 4 conversions correct."
        return self._finish(obs, reward)

    def solution(self) -> str:
        return "; ".join(str(v) for v in self._parts)
