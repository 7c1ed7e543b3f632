"""ShelfSwapEnv: put six labelled jars back in alphabetical order by swapping neighbours.

The shelf starts only slightly out of order: a uniformly drawn arrangement that one to four swaps of
neighbouring jars would fix (97 such arrangements), so some episodes start a single move from the goal.
Each move swaps the jars at positions k and k+1 (k = 1..5); eight moves are allowed. Moves are read
leniently: "\\boxed{2}", "\\boxed{swap 2}", "\\boxed{ SWAP 2 }" are the same move.
"""

from __future__ import annotations

import itertools
import random
import re
import string
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_MOVE = re.compile(r"^(?:swap)?\s*([1-5])$")
_NEAR = tuple(p for p in itertools.permutations(range(6))
              if 1 <= sum(p[i] > p[j] for i in range(6) for j in range(i + 1, 6)) <= 4)


class ShelfSwapEnv:
    """Sort six letters with adjacent swaps."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._shelf: list[str] = []
        self._goal: list[str] = []
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._goal = sorted(rng.sample(string.ascii_uppercase, 6))
        self._shelf = [self._goal[i] for i in rng.choice(_NEAR)]
        self._turn, self._status = 0, (False, False)
        text = (
            f"Shelf (positions 1-6): {' '.join(self._shelf)}\n"
            f"Goal: alphabetical order, {' '.join(self._goal)}.\n"
            "Each reply makes one move: swap the jars at positions k and k+1, written \\boxed{swap k} or "
            f"just \\boxed{{k}} with k from 1 to 5. You have {self.max_turns} moves. Box one move per reply."
        )
        return text, {"turns_left": self.max_turns}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "The game is over; call reset().", 0.0, *self._status, {"turns_left": 0}
        self._turn += 1
        moves = set()
        for content in _BOX.findall(action if isinstance(action, str) else ""):
            match = _MOVE.match(re.sub(r"\s+", " ", content).strip().lower())
            if match:
                moves.add(int(match.group(1)))
        reward, terminated = 0.0, False
        if len(moves) != 1:
            obs = "Box exactly one move: \\boxed{swap k} with k from 1 to 5."
        else:
            k = moves.pop() - 1
            self._shelf[k], self._shelf[k + 1] = self._shelf[k + 1], self._shelf[k]
            if self._shelf == self._goal:
                obs, reward, terminated = f"Sorted: {' '.join(self._shelf)}. Well done!", 1.0, True
            else:
                obs = f"Shelf: {' '.join(self._shelf)}"
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            obs += " Out of moves."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turns_left": self.max_turns - self._turn}

    def solution(self) -> list[str]:
        shelf, moves = list(self._shelf), []
        changed = True
        while changed:
            changed = False
            for k in range(5):
                if shelf[k] > shelf[k + 1]:
                    shelf[k], shelf[k + 1] = shelf[k + 1], shelf[k]
                    moves.append(f"swap {k + 1}")
                    changed = True
        return moves

    def close(self) -> None:
        """Nothing to release."""
