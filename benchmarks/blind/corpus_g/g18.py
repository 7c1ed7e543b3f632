"""TileSwapEnv: Sort six lettered tiles by swapping two positions per turn; starts are 1-4 swaps from sorted.
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


_GOAL = "ABCDEF"


class TileSwapEnv(_Episode):
    """Sort six lettered tiles by swapping two positions per turn; starts are 1-4 swaps from sorted."""

    reward_range = (0.0, 1.0)
    default_turns = 6

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self._setup(max_turns)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            row = list(_GOAL)
            for _ in range(rng.randint(1, 4)):
                i, j = rng.sample(range(6), 2)
                row[i], row[j] = row[j], row[i]
            if "".join(row) != _GOAL:
                break
        self._row = row
        self._begin()
        obs = ("Tile swap. Six tiles sit in positions 1 to 6: " + self._show() + "\n"
               "Each turn swap the tiles at two positions, e.g. \\boxed{swap <i> <j>} (case and spacing do not "
               f"matter; \\boxed{{2,5}} works too). Reach A B C D E F within {self.max_turns} turns to win. "
               "One swap per reply.")
        return obs, {"turn": 0}

    def _show(self) -> str:
        return " ".join(f"{i}:{t}" for i, t in enumerate(self._row, 1))

    def _legal(self, box: str) -> Any:
        match = re.fullmatch(r"(?:swap)?\s*([1-6])\s*(?:,|\s|and|with|<->|-)\s*([1-6])\s*\.?", box.strip().lower())
        if match and match.group(1) != match.group(2):
            return tuple(sorted((int(match.group(1)), int(match.group(2)))))
        return None

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return self._over()
        self._turn += 1
        found = self._answers(action)
        reward = 0.0
        if len(found) != 1:
            obs = "Not a move: box exactly one swap of two different positions 1-6. Row: " + self._show()
        else:
            i, j = found[0][0] - 1, found[0][1] - 1
            self._row[i], self._row[j] = self._row[j], self._row[i]
            if "".join(self._row) == _GOAL:
                self._terminated, reward = True, 1.0
                obs = "Sorted! " + self._show()
            else:
                obs = "Row: " + self._show() + f". Turns left: {self.max_turns - self._turn}."
        return self._finish(obs, reward)

    def solution(self) -> list[str]:
        row, moves = list(self._row), []
        for i, tile in enumerate(_GOAL):
            if row[i] != tile:
                j = row.index(tile)
                row[i], row[j] = row[j], row[i]
                moves.append(f"swap {i + 1} {j + 1}")
        return moves
