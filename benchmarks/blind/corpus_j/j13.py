"""Rook Run: steer a rook through a field of pawns to the flag (skill: Spatial Planning).

An 8x8 board holds a rook, a flag and fourteen pawns. The rook moves like a chess rook: any number
of empty squares along its row or column, never through or onto a pawn. Boards are drawn so that the
flag is three to five rook moves away; the budget is eight moves, so a player who does not plan
around the pawns runs out.
"""

from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

_FILES = "abcdefgh"
_N = 8
Square = tuple[int, int]  # (file index 0-7, rank index 0-7)


def _name(sq: Square) -> str:
    return f"{_FILES[sq[0]]}{sq[1] + 1}"


def _line(a: Square, b: Square) -> list[Square]:
    """The squares strictly between a and b on one row or column."""
    df = (b[0] > a[0]) - (b[0] < a[0])
    dr = (b[1] > a[1]) - (b[1] < a[1])
    n = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    return [(a[0] + k * df, a[1] + k * dr) for k in range(1, n)]


class RookRunEnv:
    """Slide the rook to the flag without passing through pawns."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rook: Square = (0, 0)
        self._flag: Square = (7, 7)
        self._pawns: set[Square] = set()
        self._turn = 0
        self._over = False
        self._won = False
        self.reset()

    def _legal(self, a: Square, b: Square) -> bool:
        if a == b or (a[0] != b[0] and a[1] != b[1]) or b in self._pawns:
            return False
        return not any(sq in self._pawns for sq in _line(a, b))

    def _route(self, start: Square) -> list[Square] | None:
        paths: dict[Square, list[Square]] = {start: []}
        queue = deque([start])
        while queue:
            sq = queue.popleft()
            if sq == self._flag:
                return paths[sq]
            for f in range(_N):
                for r in range(_N):
                    nxt = (f, r)
                    if nxt not in paths and (f == sq[0] or r == sq[1]) and self._legal(sq, nxt):
                        paths[nxt] = paths[sq] + [nxt]
                        queue.append(nxt)
        return None

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place rook, flag and pawns so that the flag is 3-5 moves away."""
        rng = random.Random(seed)
        cells = [(f, r) for f in range(_N) for r in range(_N)]
        while True:
            picks = rng.sample(cells, 16)
            self._rook, self._flag, self._pawns = picks[0], picks[1], set(picks[2:])
            route = self._route(self._rook)
            if route is not None and 3 <= len(route) <= 5:
                break
        self._turn, self._over, self._won = 0, False, False
        text = (
            "Rook Run. 'R' is your rook, 'F' the flag, 'p' a pawn, '.' an empty square.\n"
            "The rook slides any distance along its row or column but may not pass over or land on a pawn.\n"
            f"Name the destination square each turn, e.g. \\boxed{{{_name(self._rook)[0]}{(self._rook[1] + 1) % 8 + 1}}}. "
            f"Reach the flag within {self.max_turns} moves.\n" + self._board()
        )
        return text, self._info()

    def _board(self) -> str:
        lines = ["  " + " ".join(_FILES)]
        for r in range(_N - 1, -1, -1):
            row = []
            for f in range(_N):
                sq = (f, r)
                row.append("R" if sq == self._rook else "F" if sq == self._flag else "p" if sq in self._pawns else ".")
            lines.append(f"{r + 1} " + " ".join(row))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "rook": _name(self._rook), "flag": _name(self._flag)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Slide the rook; landing on the flag wins."""
        if self._over:
            return "The run is over. Call reset() for a new board.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip().lower() if found else ""
        m = re.fullmatch(r"r?\s*([a-h])\s*([1-8])", text)
        if not m:
            obs = "Give a destination square from a1 to h8, e.g. \\boxed{d4}."
        else:
            dest = (_FILES.index(m.group(1)), int(m.group(2)) - 1)
            if dest == self._rook:
                obs = "The rook is already there."
            elif dest[0] != self._rook[0] and dest[1] != self._rook[1]:
                obs = f"{_name(dest)} is not on the rook's row or column."
            elif dest in self._pawns:
                obs = f"A pawn stands on {_name(dest)}."
            elif any(sq in self._pawns for sq in _line(self._rook, dest)):
                obs = f"A pawn blocks the way to {_name(dest)}."
            else:
                self._rook = dest
                obs = f"Rook to {_name(dest)}."
                if dest == self._flag:
                    self._over, self._won = True, True
                    return obs + " The flag is yours!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._over = True
            return obs + " No moves left.", 0.0, False, True, self._info()
        return f"{obs} Moves left: {self.max_turns - self._turn}.\n{self._board()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """A shortest legal route by breadth-first search."""
        return [f"\\boxed{{{_name(sq)}}}" for sq in (self._route(self._rook) or [])]

    def close(self) -> None:
        """Nothing to release."""
