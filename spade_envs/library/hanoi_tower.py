"""Hanoi Tower: rearrange disks between three pegs under the Hanoi rules (skill: Strategic Planning).

Four disks (three with ``num_disks=3``) sit on pegs A, B and C in a random legal arrangement, and the
goal is another random legal arrangement. One move takes the top disk of a peg and places it on
another peg whose top disk is larger (or which is empty). Start and goal are drawn so that the
shortest solution, found by breadth-first search over all 3^n arrangements, takes 10-15 moves (5-7
with three disks) against a 20-turn budget: the player must plan recursively, clearing the largest
misplaced disk's path first, because greedy or random moves wander and illegal moves waste turns.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import deque
from typing import Any

_PEGS = "ABC"

# A state is a tuple: state[d] is the peg index (0-2) of disk d + 1; disk 1 is the smallest.
_State = tuple[int, ...]


def _top(state: _State, peg: int) -> int | None:
    """Index of the smallest disk on a peg, or None when it is empty."""
    return next((disk for disk, where in enumerate(state) if where == peg), None)


def _legal_moves(state: _State) -> list[tuple[int, int, _State]]:
    """All (from, to, next_state) moves allowed by the Hanoi rules, in a fixed order."""
    moves = []
    for src, dst in itertools.permutations(range(3), 2):
        disk, blocker = _top(state, src), _top(state, dst)
        if disk is not None and (blocker is None or blocker > disk):
            moves.append((src, dst, state[:disk] + (dst,) + state[disk + 1 :]))
    return moves


def _shortest(start: _State, goal: _State) -> list[tuple[int, int]]:
    """Breadth-first search for a shortest move list from start to goal."""
    parent: dict[_State, tuple[_State, int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == goal:
            break
        for src, dst, nxt in _legal_moves(state):
            if nxt not in parent:
                parent[nxt] = (state, src, dst)
                queue.append(nxt)
    path: list[tuple[int, int]] = []
    while parent[goal] is not None:
        goal, src, dst = parent[goal]
        path.append((src, dst))
    return path[::-1]


class HanoiTowerEnv:
    """Move disks between pegs A, B, C until the arrangement matches the goal."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._disks = 3 if kwargs.get("num_disks") == 3 else 4
        self._state: _State = ()
        self._goal: _State = ()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw start and goal arrangements whose distance is near the maximum for the disk count."""
        rng = random.Random(seed)
        low = 10 if self._disks == 4 else 5
        while True:
            start = tuple(rng.randrange(3) for _ in range(self._disks))
            goal = tuple(rng.randrange(3) for _ in range(self._disks))
            if len(_shortest(start, goal)) >= low:
                break
        self._state, self._goal = start, goal
        self._turn, self._terminated, self._truncated = 0, False, False
        rules = (
            f"Hanoi Tower. Disks 1 (smallest) to {self._disks} (largest) sit on pegs A, B, C.\n"
            "Move the top disk of one peg onto another with \\boxed{FROM TO}, e.g. \\boxed{A C}. A disk may "
            "only go onto an empty peg or a larger disk.\n"
            f"Reach the goal arrangement within {self.max_turns} turns; illegal moves waste a turn.\n"
            "Goal:\n" + self._render(goal) + "\nNow:\n"
        )
        return rules + self._render(start), self._info()

    def _render(self, state: _State) -> str:
        lines = ["  (disks listed bottom to top)"]
        for peg, name in enumerate(_PEGS):
            disks = [str(d + 1) for d in range(self._disks - 1, -1, -1) if state[d] == peg]
            lines.append(f"  {name}: {' '.join(disks) if disks else '(empty)'}")
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Apply one move if legal; matching the goal wins, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        # The last box that holds something: an empty box after the move is no move.
        found = [box for box in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
                 if box.strip()]
        pegs = re.fullmatch(r"\s*([ABC])\s*(?:,|->|TO|-)?\s*([ABC])\s*", found[-1].upper()) if found else None
        move = (_PEGS.index(pegs.group(1)), _PEGS.index(pegs.group(2))) if pegs else None
        legal = {(src, dst): nxt for src, dst, nxt in _legal_moves(self._state)}
        reward = 0.0
        if move is None:
            obs = "Invalid action. Write two peg letters, e.g. \\boxed{A C} moves A's top disk onto C."
        elif move not in legal:
            obs = f"Illegal move {_PEGS[move[0]]} -> {_PEGS[move[1]]}: the source is empty, the pegs are the same, or the disk would land on a smaller one."
        else:
            self._state = legal[move]
            obs = f"Moved the top disk from {_PEGS[move[0]]} to {_PEGS[move[1]]}."
            if self._state == self._goal:
                self._terminated, reward = True, 1.0
                return obs + " Goal reached. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\nNow:\n" + self._render(self._state), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """A shortest move sequence from the current arrangement to the goal, by BFS."""
        return [f"\\boxed{{{_PEGS[src]} {_PEGS[dst]}}}" for src, dst in _shortest(self._state, self._goal)]

    def close(self) -> None:
        """Nothing to release."""
