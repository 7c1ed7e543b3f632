"""Loading Bay: pack rectangular crates onto a 6x6 truck floor with no gaps (skill: Spatial Reasoning).

The floor is cut into six to nine rectangles by random straight cuts; the player gets the rectangles
as numbered crates (width x depth, no rotation) and must place every crate so that none overlap and
none stick out over the edge. Columns are A-F from left to right and rows 1-6 from the cab backwards;
a crate is placed by naming the square of its top-left corner. Crates may be moved again.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 6
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _cut(rng: random.Random, rect: tuple[int, int, int, int], out: list[tuple[int, int, int, int]]) -> None:
    """Split (col, row, w, h) recursively; pieces of area 4 or less (and some of area 6 or less) stay whole."""
    c, r, w, h = rect
    if w * h <= 4 or (w * h <= 6 and rng.random() < 0.5) or (w == 1 and h == 1):
        out.append(rect)
        return
    vertical = w > 1 and (h == 1 or rng.random() < w / (w + h))
    if vertical:
        k = rng.randint(1, w - 1)
        _cut(rng, (c, r, k, h), out)
        _cut(rng, (c + k, r, w - k, h), out)
    else:
        k = rng.randint(1, h - 1)
        _cut(rng, (c, r, w, k), out)
        _cut(rng, (c, r + k, w, h - k), out)


class LoadingBayEnv:
    """Place every crate on the floor without overlaps to finish loading."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._crates: list[tuple[int, int]] = []
        self._answer: list[tuple[int, int]] = []
        self._placed: dict[int, tuple[int, int]] = {}
        self._turn = 0
        self._gone = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Cut the floor into 6-9 crates and hand them over in shuffled order."""
        rng = random.Random(seed)
        while True:
            pieces: list[tuple[int, int, int, int]] = []
            _cut(rng, (0, 0, _SIZE, _SIZE), pieces)
            if 6 <= len(pieces) <= 9:
                break
        rng.shuffle(pieces)
        self._crates = [(w, h) for _, _, w, h in pieces]
        self._answer = [(c, r) for c, r, _, _ in pieces]
        self._placed = {}
        self._turn, self._gone, self._won = 0, False, False
        listing = "\n".join(f"  crate {i + 1}: {w} wide x {h} deep" for i, (w, h) in enumerate(self._crates))
        text = (
            f"Loading Bay. Pack all {len(self._crates)} crates onto the {_SIZE}x{_SIZE} floor: no overlaps, nothing "
            "over the edge, no turning crates.\n"
            "Columns A-F run left to right, rows 1-6 from the cab backwards. Place a crate by naming its "
            "number and the square of its top-left corner, e.g. \\boxed{2 C4}. A placed crate can be moved.\n"
            f"Crates:\n{listing}\nYou have {self.max_turns} turns.\n" + self._floor()
        )
        return text, self._info()

    def _cells(self, i: int, at: tuple[int, int]) -> set[tuple[int, int]]:
        w, h = self._crates[i]
        return {(at[0] + dc, at[1] + dr) for dc in range(w) for dr in range(h)}

    def _floor(self) -> str:
        grid = [["."] * _SIZE for _ in range(_SIZE)]
        for i, at in self._placed.items():
            for c, r in self._cells(i, at):
                if 0 <= c < _SIZE and 0 <= r < _SIZE:
                    grid[r][c] = str(i + 1)
        return "  " + " ".join(_LETTERS[:_SIZE]) + "\n" + "\n".join(f"{r + 1} " + " ".join(row) for r, row in enumerate(grid))

    def _info(self) -> dict:
        return {"turn": self._turn, "placed": len(self._placed), "crates": len(self._crates)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Place or move one crate; all crates placed wins."""
        if self._gone:
            return "The truck has left. Call reset() to load another.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip() if found else ""
        m = re.fullmatch(r"(?:crate\s*)?(\d{1,2})\s*(?:at|to|@)?\s*([A-Za-z])\s*(\d{1,3})", text, re.I)
        if not m or not 1 <= int(m.group(1)) <= len(self._crates):
            obs = f"Name a crate (1-{len(self._crates)}) and a square, e.g. \\boxed{{1 A1}}."
        else:
            i = int(m.group(1)) - 1
            col, row = _LETTERS.index(m.group(2).upper()), int(m.group(3)) - 1
            w, h = self._crates[i]
            if row < 0 or col + w > _SIZE or row + h > _SIZE:
                obs = f"Crate {i + 1} ({w}x{h}) would stick out over the edge from {m.group(2).upper()}{row + 1}."
            else:
                mine = self._cells(i, (col, row))
                clash = sorted(j + 1 for j, at in self._placed.items() if j != i and mine & self._cells(j, at))
                if clash:
                    obs = f"Crate {i + 1} would overlap crate {clash[0]}."
                else:
                    self._placed[i] = (col, row)
                    obs = f"Crate {i + 1} set down at {m.group(2).upper()}{row + 1}."
                    if len(self._placed) == len(self._crates):
                        self._gone, self._won = True, True
                        return obs + " Every crate is aboard. Loaded!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._gone = True
            return obs + " The driver will not wait any longer.", 0.0, False, True, self._info()
        return f"{obs} {len(self._placed)}/{len(self._crates)} placed, {self.max_turns - self._turn} turns left.\n{self._floor()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Put every crate back where the floor was cut."""
        return [f"\\boxed{{{i + 1} {_LETTERS[c]}{r + 1}}}" for i, (c, r) in enumerate(self._answer)]

    def close(self) -> None:
        """Nothing to release."""
