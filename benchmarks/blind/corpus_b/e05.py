"""Tower Shuffle: solve the Tower of Hanoi with four or five disks, one move per turn.

Pegs are A, B and C; all disks start on A and must end on C. A move names the source and target peg
(``\\boxed{A->C}``). A larger disk may never sit on a smaller one; an illegal move is refused and
costs the turn. The optimal solution takes 2^n - 1 moves, so games are long.
"""

from __future__ import annotations

import random
import re
from typing import Any


class TowerShuffleEnv:
    """Classic Tower of Hanoi, played move by move."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 45, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._n = 4
        self._pegs: dict[str, list[int]] = {}
        self._turn = 0
        self._finished = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._n = rng.choice([4, 5])
        self._pegs = {"A": list(range(self._n, 0, -1)), "B": [], "C": []}
        self._turn, self._finished = 0, False
        obs = (f"Tower Shuffle. {self._n} disks (1 = smallest) are stacked on peg A. Move them all to peg C, "
               "one disk per turn, never placing a larger disk on a smaller one.\n"
               f"{self._render()}\nMove with \\boxed{{A->C}} (source->target). You have {self.max_turns} turns.")
        return obs, self._info()

    def _render(self) -> str:
        return "  ".join(f"{p}: {self._pegs[p]}" for p in "ABC")

    def _info(self) -> dict:
        return {"turn": self._turn, "disks": self._n}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._finished:
            return "The puzzle is finished.", 0.0, True, False, self._info()
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        m = re.fullmatch(r"\s*([ABCabc])\s*(?:->|-|to|,)?\s*([ABCabc])\s*", found[-1]) if found else None
        reward, terminated = 0.0, False
        if m is None:
            obs = "Invalid move format; use e.g. \\boxed{A->C}."
        else:
            src, dst = m.group(1).upper(), m.group(2).upper()
            if src == dst or not self._pegs[src]:
                obs = f"Illegal move {src}->{dst}."
            elif self._pegs[dst] and self._pegs[dst][-1] < self._pegs[src][-1]:
                obs = f"Illegal move {src}->{dst}: a larger disk cannot go on a smaller one."
            else:
                self._pegs[dst].append(self._pegs[src].pop())
                obs = f"Moved {src}->{dst}."
                if len(self._pegs["C"]) == self._n:
                    terminated, reward = True, 1.0
                    obs += " All disks are on C. Solved!"
        obs += "\n" + self._render()
        truncated = not terminated and self._turn >= self.max_turns
        self._finished = terminated or truncated
        return obs, reward, terminated, truncated, self._info()

    def solution(self) -> list[str]:
        moves: list[str] = []

        def solve(k: int, a: str, c: str, b: str) -> None:
            if k == 0:
                return
            solve(k - 1, a, b, c)
            moves.append(f"{a}->{c}")
            solve(k - 1, b, c, a)

        solve(self._n, "A", "C", "B")
        return moves

    def close(self) -> None:
        pass
