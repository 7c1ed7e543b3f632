"""Tower of Hanoi: move the whole stack from peg A to peg C, one move per turn."""

from __future__ import annotations

import random
import re
from typing import Any


class HanoiEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 40, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 3
        self._pegs: dict[str, list[int]] = {}
        self._turn = 0
        self._done = False
        self.reset()

    def _show(self) -> str:
        return "  ".join(f"{p}: {self._pegs[p] or '-'}" for p in "ABC")

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._n = rng.choice([3, 4, 5, 6])
        self._pegs = {"A": list(range(self._n, 0, -1)), "B": [], "C": []}
        self._turn, self._done = 0, False
        obs = (f"Tower of Hanoi with {self._n} disks (1 = smallest) on peg A; move them all to peg C. Never put a "
               "larger disk on a smaller one. Each turn move one top disk, e.g. \\boxed{A C} moves the top disk "
               f"of A onto C. You have {self.max_turns} turns.\n{self._show()}")
        return obs, {"disks": self._n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "The puzzle is over.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        move = re.fullmatch(r"\s*([ABC])\s*(?:->|,|\s)\s*([ABC])\s*", boxes[-1].upper()) if boxes else None
        reward, terminated = 0.0, False
        if move is None or move.group(1) == move.group(2):
            obs = "Invalid move; use \\boxed{A C} style with two different pegs."
        else:
            src, dst = self._pegs[move.group(1)], self._pegs[move.group(2)]
            if not src or (dst and dst[-1] < src[-1]):
                obs = "Illegal move."
            else:
                dst.append(src.pop())
                obs = self._show()
                if len(self._pegs["C"]) == self._n:
                    reward, terminated, obs = 1.0, True, obs + "  Solved!"
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> list[str]:
        moves: list[str] = []

        def hanoi(k: int, a: str, b: str, c: str) -> None:
            if k:
                hanoi(k - 1, a, c, b)
                moves.append(f"{a} {c}")
                hanoi(k - 1, b, a, c)

        hanoi(self._n, "A", "B", "C")
        return moves

    def close(self) -> None:
        pass
