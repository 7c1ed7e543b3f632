"""Treasure Dig: find buried treasure with a distance detector (skill: Deduction).

An 8x8 field has columns A-H and rows 1-8. The treasure lies under one square, never under the camp,
whose square is drawn per episode. Each dig either finds it or reports the detector reading: the number of steps, rows plus
columns, from the dug square to the treasure. Two well-chosen digs pin the treasure down exactly, so
a player who reasons wins in three; four digs are allowed, and random digging rarely succeeds.
"""

from __future__ import annotations

import random
import re
from typing import Any

_COLS = "ABCDEFGH"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_DIG = re.compile(r"^(?:dig\s+)?(?:at\s+)?([a-h])\s*([0-9]{1,2})$")


def _label(spot: tuple[int, int]) -> str:
    return f"{_COLS[spot[1]]}{spot[0] + 1}"


class TreasureDigEnv:
    """Dig squares until the treasure turns up."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 4, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._spot = (0, 0)
        self._camp = (0, 0)
        self._dug: dict[tuple[int, int], int] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Bury the treasure under any square except the camp."""
        rng = random.Random(seed)
        self._camp = (rng.randrange(8), rng.randrange(8))
        self._spot = rng.choice([(r, c) for r in range(8) for c in range(8) if (r, c) != self._camp])
        self._dug = {}
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Treasure Dig. The field has columns A-H and rows 1-8; your camp is at {_label(self._camp)} and the "
            "treasure is never buried there.\n"
            "Each turn dig one square, e.g. \\boxed{dig C4}. If the treasure is not there, the detector "
            "reads the number of steps from that square to the treasure (rows apart + columns apart).\n"
            f"Find the treasure within {self.max_turns} digs to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "digs": len(self._dug)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Dig one square; finding the treasure wins, running out of digs truncates."""
        if self._terminated or self._truncated:
            return "The dig is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _DIG.match(boxes[-1].strip().lower()) if boxes else None
        if match is None:
            obs = "Invalid move. Write \\boxed{dig C4}: a column A-H and a row 1-8."
        elif not 1 <= int(match.group(2)) <= 8:
            obs = "Rows run from 1 to 8."
        else:
            spot = (int(match.group(2)) - 1, _COLS.index(match.group(1).upper()))
            if spot in self._dug:
                obs = f"You already dug at {_label(self._spot)} (reading {self._dug[spot]}); try somewhere new."
            elif spot == self._spot:
                self._terminated = True
                return f"You dig at {_label(spot)} and strike the treasure chest!", 1.0, True, False, self._info()
            else:
                reading = abs(spot[0] - self._spot[0]) + abs(spot[1] - self._spot[1])
                self._dug[spot] = reading
                obs = f"Nothing at {_label(spot)}. The detector reads {reading}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of digs."
        else:
            obs += f" Digs left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Dig the treasure square."""
        return [f"\\boxed{{dig {_label(self._spot)}}}"]

    def close(self) -> None:
        """Nothing to release."""
