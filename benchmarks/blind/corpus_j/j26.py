"""Mine Field: flag all six mines on a 6x6 field (skill: Deduction).

Six mines are buried under a 6x6 field (columns A-F, rows 1-6). The player may `open` a square (a
mine ends the game; a safe square shows how many of its neighbours are mined), `scan` a square to
count the mines in the 3x3 block around it without stepping there, `flag` or `unflag` a square, and
list the flags placed so far with `flags`. The field is cleared when the six flags sit on the six mines.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COLS = "ABCDEF"
_N = 6


def _name(cell: tuple[int, int]) -> str:
    return f"{_COLS[cell[0]]}{cell[1] + 1}"


class MineFieldEnv:
    """Open, scan and flag squares until every mine is flagged."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 30, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._mines: set[tuple[int, int]] = set()
        self._flags: set[tuple[int, int]] = set()
        self._open: dict[tuple[int, int], int] = {}
        self._turn = 0
        self._over = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Bury six mines and open one safe square with no mined neighbour, if there is one."""
        rng = random.Random(seed)
        cells = [(c, r) for c in range(_N) for r in range(_N)]
        self._mines = set(rng.sample(cells, 6))
        self._flags, self._open = set(), {}
        calm = [cell for cell in cells if cell not in self._mines and self._count(cell, False) == 0]
        first = rng.choice(calm or [cell for cell in cells if cell not in self._mines])
        self._open[first] = self._count(first, False)
        self._turn, self._over, self._won = 0, False, False
        text = (
            "Mine Field. Six mines hide under this 6x6 field (columns A-F, rows 1-6).\n"
            "Commands: \\boxed{open C4} (a number tells how many neighbours are mined; a mine ends the game), "
            "\\boxed{scan C4} (mines in the 3x3 block around C4, stepping nowhere), \\boxed{flag C4}, "
            "\\boxed{unflag C4}, \\boxed{flags} (list your flags).\n"
            f"Put the six flags on the six mines within {self.max_turns} turns.\n" + self._show()
        )
        return text, self._info()

    def _count(self, cell: tuple[int, int], include_self: bool) -> int:
        c, r = cell
        return sum((c + dc, r + dr) in self._mines for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                   if include_self or (dc, dr) != (0, 0))

    def _show(self) -> str:
        lines = ["  " + " ".join(_COLS)]
        for r in range(_N):
            row = []
            for c in range(_N):
                cell = (c, r)
                row.append("F" if cell in self._flags else str(self._open[cell]) if cell in self._open else "#")
            lines.append(f"{r + 1} " + " ".join(row))
        return "\n".join(lines)

    def _info(self) -> dict:
        return {"turn": self._turn, "flags": len(self._flags), "opened": len(self._open)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Run one command."""
        if self._over:
            return "The field is closed. reset() for a new one.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip().lower() if found else ""
        m = re.fullmatch(r"(open|scan|flag|unflag)\s+([a-f])\s*([1-6])", text)
        if text == "flags":
            obs = "Your flags: " + (", ".join(sorted(_name(f) for f in self._flags)) or "none") + "."
        elif not m:
            obs = "Commands: open, scan, flag, unflag with a square (e.g. \\boxed{scan B2}), or \\boxed{flags}."
        else:
            verb, cell = m.group(1), (_COLS.index(m.group(2).upper()), int(m.group(3)) - 1)
            if verb == "open":
                if cell in self._mines:
                    self._over = True
                    return f"{_name(cell)} was a mine. BOOM.", 0.0, True, False, self._info()
                self._open[cell] = self._count(cell, False)
                obs = f"{_name(cell)} is safe; {self._open[cell]} of its neighbours are mined."
            elif verb == "scan":
                obs = f"The detector reads {self._count(cell, True)} around {_name(cell)}."
            elif verb == "flag":
                if len(self._flags) >= 6 and cell not in self._flags:
                    obs = "All six flags are already out; unflag one first."
                else:
                    self._flags.add(cell)
                    obs = f"Flag planted on {_name(cell)} ({len(self._flags)}/6)."
                    if self._flags == self._mines:
                        self._over, self._won = True, True
                        return obs + " Every mine is marked. Field cleared!", 1.0, True, False, self._info()
            else:
                self._flags.discard(cell)
                obs = f"{_name(cell)} has no flag now ({len(self._flags)}/6)."
        if self._turn >= self.max_turns:
            self._over = True
            return obs + " Time is up.", 0.0, False, True, self._info()
        return f"{obs} Turns left: {self.max_turns - self._turn}.\n{self._show()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Flag every mine."""
        return [f"\\boxed{{flag {_name(c)}}}" for c in sorted(self._mines)]

    def close(self) -> None:
        """Nothing to release."""
