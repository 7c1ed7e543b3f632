"""Tower of Hanoi: move a stack of disks to another peg (skill: recursive planning, long horizon).

Disks of sizes 1..n (n = 4, 5 or 6) start stacked on one of the pegs L, M, R, largest at the bottom.
One move takes the top disk of a peg and puts it on another peg; a disk may never sit on a smaller
one. The goal is the whole stack on the target peg. The minimum is 2^n - 1 moves and the move budget
is only five more than that, so the episode is long (up to 68 turns) and leaves little room for
wandering. Moves are written as \\boxed{L R} (top disk of L onto R). The reply repeats the move.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PEGS = "LMR"


class TowerOfHanoiEnv:
    """Classic Tower of Hanoi with a tight move budget."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 80, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._pegs: dict[str, list[int]] = {p: [] for p in _PEGS}
        self._disks = 4
        self._source = "L"
        self._target = "R"
        self._budget = 20
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._disks = rng.choice([4, 5, 6])
        self._source, self._target = rng.sample(_PEGS, 2)
        self._pegs = {p: [] for p in _PEGS}
        self._pegs[self._source] = list(range(self._disks, 0, -1))
        self._budget = min(self.max_turns, 2 ** self._disks - 1 + 5)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (
            f"Tower of Hanoi. {self._disks} disks (1 = smallest) are stacked on peg {self._source}; "
            f"move the whole stack to peg {self._target}.\n"
            "Each turn move the top disk of one peg onto another, e.g. \\boxed{L M}. A disk may never "
            f"be placed on a smaller disk. You have {self._budget} moves.\n" + self._render()
        )
        return text, self._info()

    def _render(self) -> str:
        return "\n".join(f"  {p}: {' '.join(map(str, self._pegs[p])) or '-'}" for p in _PEGS)

    def _info(self) -> dict:
        return {"turn": self._turn, "budget": self._budget, "disks": self._disks,
                "pegs": {p: list(v) for p, v in self._pegs.items()}}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The puzzle is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        letters = re.findall(r"[LMR]", boxes[-1].upper()) if boxes else []
        reward = 0.0
        if len(letters) != 2 or letters[0] == letters[1]:
            obs = "Write a move as two different pegs, e.g. \\boxed{L M}."
        else:
            src, dst = letters
            if not self._pegs[src]:
                obs = f"You tried {src} -> {dst}, but peg {src} is empty."
            elif self._pegs[dst] and self._pegs[dst][-1] < self._pegs[src][-1]:
                obs = (f"You tried {src} -> {dst}: disk {self._pegs[src][-1]} cannot go on disk "
                       f"{self._pegs[dst][-1]}.")
            else:
                disk = self._pegs[src].pop()
                self._pegs[dst].append(disk)
                obs = f"You moved disk {disk}: {src} -> {dst}.\n" + self._render()
                if len(self._pegs[self._target]) == self._disks:
                    self._terminated, reward = True, 1.0
                    obs += "\nThe tower is complete!"
        if not self._terminated and self._turn >= self._budget:
            self._truncated = True
            obs += "\nNo moves left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        spare = next(p for p in _PEGS if p not in (self._source, self._target))
        moves: list[str] = []

        def solve(n: int, src: str, dst: str, via: str) -> None:
            if n == 0:
                return
            solve(n - 1, src, via, dst)
            moves.append(f"\\boxed{{{src} {dst}}}")
            solve(n - 1, via, dst, src)

        solve(self._disks, self._source, self._target, spare)
        return moves

    def close(self) -> None:
        """Nothing to release."""
