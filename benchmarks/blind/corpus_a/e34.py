"""Treasure Dig: locate buried treasure from distance readings (skill: triangulation).

Treasure is buried under one square of a 10 x 10 field (rows and columns 0-9). Each turn the player
digs one square, e.g. \\boxed{3,7} (row 3, column 7). If the treasure is not there, a metal detector
reports the Manhattan distance |row difference| + |column difference| to it. Two well-chosen digs pin
the treasure down, so four digs are enough for a careful player.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 10


class TreasureDigEnv:
    """Find the treasure square using Manhattan-distance feedback."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._treasure = (0, 0)
        self._dug: list[tuple[int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._treasure = (rng.randrange(_SIZE), rng.randrange(_SIZE))
        self._dug = []
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Treasure Dig. Treasure is buried under one square of a 10 x 10 field (rows and columns "
                "numbered 0-9). Dig a square by writing its row and column in a box, e.g. \\boxed{3,7}. "
                "After a miss you learn the Manhattan distance to the treasure. "
                f"You have {self.max_turns} digs.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "digs_left": max(0, self.max_turns - self._turn), "dug": [list(d) for d in self._dug]}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated:
            return "The treasure has been found already.", 0.0, True, False, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        match = re.fullmatch(r"\(?\s*(\d)\s*[, ]\s*(\d)\s*\)?", boxes[-1].strip()) if boxes else None
        reward = 0.0
        if match is None:
            obs = "Dig by giving a row and a column from 0 to 9 in a box, e.g. \\boxed{3,7}."
        else:
            spot = (int(match.group(1)), int(match.group(2)))
            self._dug.append(spot)
            if spot == self._treasure:
                self._terminated, reward = True, 1.0
                obs = f"You dig at {spot[0]},{spot[1]} and hit a chest. Treasure found!"
            else:
                distance = abs(spot[0] - self._treasure[0]) + abs(spot[1] - self._treasure[1])
                obs = f"Nothing at {spot[0]},{spot[1]}. The detector reads distance {distance}."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += f" You are out of digs. The treasure was at {self._treasure[0]},{self._treasure[1]}."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Dig two corners, intersect the two distance diamonds, then dig the treasure."""
        r, c = self._treasure
        moves = []
        if (r, c) == (0, 0):
            return ["\\boxed{0,0}"]
        moves.append("\\boxed{0,0}")
        if (r, c) == (0, _SIZE - 1):
            return moves + [f"\\boxed{{0,{_SIZE - 1}}}"]
        moves.append(f"\\boxed{{0,{_SIZE - 1}}}")
        return moves + [f"\\boxed{{{r},{c}}}"]

    def close(self) -> None:
        """Nothing to release."""
