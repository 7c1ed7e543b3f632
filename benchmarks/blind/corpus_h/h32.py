"""Salvo: sink a hidden fleet on a 6x6 grid (skill: Search under Uncertainty).

Three or four ships (seven squares in all, the fleet drawn per episode) lie hidden, horizontally or vertically, on a grid with columns A-F
and rows 1-6. Each turn the player fires at one square and learns miss, hit or sunk; the shot chart
is shown after every turn. Sinking every ship within 20 shots needs a hunt-and-target strategy:
random fire needs far more shots.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COLS = "ABCDEF"
_N = 6
_FLEETS = ((3, 2, 2), (3, 3, 1), (4, 2, 1), (2, 2, 2, 1))
_NAMES = ("Aurora", "Brisk", "Comet", "Dauntless", "Eagle", "Falcon", "Gale", "Heron", "Ibis", "Juno", "Kite",
          "Lark")
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_FIRE = re.compile(r"^(?:fire\s+)?(?:at\s+)?([a-f])\s*([0-9]{1,2})$")


def _label(cell: tuple[int, int]) -> str:
    return f"{_COLS[cell[1]]}{cell[0] + 1}"


class SalvoEnv:
    """Fire at squares until every ship is sunk."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._boats: list[tuple[str, list[tuple[int, int]]]] = []
        self._ships: set[tuple[int, int]] = set()
        self._shots: set[tuple[int, int]] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Place the fleet at random without overlaps."""
        rng = random.Random(seed)
        self._boats, taken = [], set()
        sizes = rng.choice(_FLEETS)
        for name, size in zip(rng.sample(_NAMES, len(sizes)), sizes):
            while True:
                if rng.random() < 0.5:
                    r, c = rng.randrange(_N), rng.randrange(_N - size + 1)
                    cells = [(r, c + k) for k in range(size)]
                else:
                    r, c = rng.randrange(_N - size + 1), rng.randrange(_N)
                    cells = [(r + k, c) for k in range(size)]
                if not taken.intersection(cells):
                    break
            taken.update(cells)
            self._boats.append((name, cells))
        self._ships = taken
        self._shots = set()
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Salvo. These ships hide on a 6x6 grid, each placed horizontally or vertically: "
            + ", ".join(f"the {name} ({len(cells)} squares)" for name, cells in self._boats)
            + ". Columns are A-F, rows 1-6.\n"
            "Each turn fire at one square, e.g. \\boxed{fire C4}. You learn miss, hit or sunk.\n"
            f"Sink the whole fleet within {self.max_turns} shots to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        lines = ["    " + " ".join(_COLS)]
        for r in range(_N):
            row = []
            for c in range(_N):
                cell = (r, c)
                row.append(("x" if cell in self._ships else "o") if cell in self._shots else ".")
            lines.append(f" {r + 1:>2} " + " ".join(row))
        return "\n".join(lines) + "\n(x hit, o miss, . not fired at)"

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "shots": len(self._shots)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Fire one shot; sinking the last ship wins, running out of shots truncates."""
        if self._terminated or self._truncated:
            return "The battle is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _FIRE.match(boxes[-1].strip().lower()) if boxes else None
        if match is None or not 1 <= int(match.group(2)) <= _N:
            obs = "Invalid move. Write \\boxed{fire C4}: a column A-F and a row 1-6."
        else:
            cell = (int(match.group(2)) - 1, _COLS.index(match.group(1).upper()))
            if cell in self._shots:
                so_far = ", ".join(_label(c) for c in sorted(self._shots))
                obs = f"You already fired at {_label(cell)}. Shots so far: {so_far}."
            else:
                self._shots.add(cell)
                if cell not in self._ships:
                    obs = f"{_label(cell)}: miss."
                else:
                    name, cells = next(boat for boat in self._boats if cell in boat[1])
                    obs = f"{_label(cell)}: hit!"
                    if all(c in self._shots for c in cells):
                        obs = f"{_label(cell)}: hit, you sank the {name}!"
                    if self._ships <= self._shots:
                        self._terminated = True
                        return obs + " The whole fleet is sunk!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of shots."
        else:
            obs += f" Shots left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Fire at every ship square not yet hit."""
        return [f"\\boxed{{fire {_label(c)}}}" for c in sorted(self._ships - self._shots)]

    def close(self) -> None:
        """Nothing to release."""
