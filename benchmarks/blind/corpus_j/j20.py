"""Fleet Hunt: find and sink a hidden fleet on an 8x8 sea (skill: Search).

Three ships (lengths 4, 3 and 2) lie hidden, horizontally or vertically, without touching each
other. Each turn the player fires at one square (A1-H8) and learns whether it was a hit, a miss or a
sinking. All nine hull squares must be hit within 36 shots; a methodical hunt does it, random fire
almost never does.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COLS = "ABCDEFGH"
_SHIPS = (("carrier", 4), ("cruiser", 3), ("patrol boat", 2))


def _sq(c: int, r: int) -> str:
    return f"{_COLS[c]}{r + 1}"


class FleetHuntEnv:
    """Fire at squares until every ship is sunk."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 36, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._ships: list[tuple[str, list[tuple[int, int]]]] = []
        self._shots: dict[tuple[int, int], str] = {}
        self._turn = 0
        self._over = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place the fleet so that no two ships touch, even at a corner."""
        rng = random.Random(seed)
        while True:
            ships, taken = [], set()
            for name, n in _SHIPS:
                for _ in range(100):
                    horizontal = rng.random() < 0.5
                    c = rng.randint(0, 8 - (n if horizontal else 1))
                    r = rng.randint(0, 8 - (1 if horizontal else n))
                    cells = [(c + k, r) if horizontal else (c, r + k) for k in range(n)]
                    halo = {(x + dx, y + dy) for x, y in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
                    if not halo & taken:
                        ships.append((name, cells))
                        taken |= set(cells)
                        break
            if len(ships) == len(_SHIPS):
                break
        self._ships = ships
        self._shots = {}
        self._turn, self._over, self._won = 0, False, False
        text = (
            "Fleet Hunt. A carrier (4), a cruiser (3) and a patrol boat (2) hide on an 8x8 sea, columns A-H and "
            "rows 1-8. Ships lie straight and never touch each other.\n"
            f"Fire at one square per turn, e.g. \\boxed{{{_sq(rng.randint(0, 7), rng.randint(0, 7))}}}. "
            f"Sink all three within {self.max_turns} shots."
        )
        return text, self._info()

    def _hull(self) -> list[tuple[int, int]]:
        return [cell for _, cells in self._ships for cell in cells]

    def _nearest(self, at: tuple[int, int], hit: set[tuple[int, int]]) -> str:
        """The closest hull square not yet hit (Manhattan distance, then board order)."""
        left = [cell for cell in self._hull() if cell not in hit]
        best = min(left, key=lambda cell: (abs(cell[0] - at[0]) + abs(cell[1] - at[1]), cell[1], cell[0]))
        return _sq(*best)

    def _info(self) -> dict:
        hit = sum(1 for cell in self._hull() if self._shots.get(cell) == "hit")
        return {"turn": self._turn, "shots": len(self._shots), "hull_hit": hit}

    def _chart(self) -> str:
        rows = ["  " + " ".join(_COLS)]
        for r in range(8):
            rows.append(f"{r + 1} " + " ".join({"hit": "X", "miss": "o"}.get(self._shots.get((c, r), ""), ".") for c in range(8)))
        return "\n".join(rows)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """One shot."""
        if self._over:
            return "The battle is over; reset() for a new sea.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        m = re.fullmatch(r"([A-Ha-h])\s*([1-8])", found[-1].strip()) if found else None
        if not m:
            obs = "Fire at a square from A1 to H8, e.g. \\boxed{D5}."
        else:
            sq = (_COLS.index(m.group(1).upper()), int(m.group(2)) - 1)
            name = _sq(*sq)
            if sq in self._shots:
                obs = f"{name} was already shot at: {self._shots[sq]}."
            elif sq in self._hull():
                self._shots[sq] = "hit"
                ship, cells = next((n, cs) for n, cs in self._ships if sq in cs)
                if all(self._shots.get(cell) == "hit" for cell in cells):
                    obs = f"{name}: hit, and the {ship} goes down!"
                else:
                    obs = f"{name}: hit!"
                if all(self._shots.get(cell) == "hit" for cell in self._hull()):
                    self._over, self._won = True, True
                    return obs + " The whole fleet is sunk. Victory!", 1.0, True, False, self._info()
            else:
                self._shots[sq] = "miss"
                obs = f"{name}: splash, nothing there."
        if self._turn >= self.max_turns:
            self._over = True
            return obs + " Out of ammunition.\n" + self._chart(), 0.0, False, True, self._info()
        return f"{obs} Shots left: {self.max_turns - self._turn}.\n{self._chart()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """From A1, keep firing at the nearest hull square not yet hit."""
        hit: set[tuple[int, int]] = set()
        moves = []
        at = (0, 0)
        for _ in range(len(self._hull())):
            name = self._nearest(at, hit)
            at = (_COLS.index(name[0]), int(name[1:]) - 1)
            hit.add(at)
            moves.append(f"\\boxed{{{name}}}")
        return moves

    def close(self) -> None:
        """Nothing to release."""
