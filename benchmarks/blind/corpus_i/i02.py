"""Buried Chest: find a chest on a 10x10 beach from distance readings (skill: Deduction).

The beach has columns A-J and rows 1-10; the chest is buried somewhere away from the water's edge
(never in the outer ring of squares) and never under one of the two palm trees shown. Each dig either finds the chest or reports how many steps
(moving along rows and columns) the chest is from the dug square. Two well-chosen digs pin the chest
down, so a careful player needs three; the budget is five digs.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SIZE = 10
_LETTERS = "ABCDEFGHIJ"
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _name(cell: tuple[int, int]) -> str:
    return f"{_LETTERS[cell[0]]}{cell[1] + 1}"


def _steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class BuriedChestEnv:
    """Dig squares until you hit the chest; misses report the distance to it."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._spot = (0, 0)
        self._palms: list[tuple[int, int]] = []
        self._dug: list[tuple[int, int]] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Bury the chest off the outer ring."""
        rng = random.Random(seed)
        inland = [(c, r) for c in range(1, _SIZE - 1) for r in range(1, _SIZE - 1)]
        self._palms = rng.sample(inland, 2)
        self._spot = rng.choice([cell for cell in inland if cell not in self._palms])
        self._dug = []
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Buried Chest. The beach is a {_SIZE}x{_SIZE} grid: columns A-J, rows 1-10. A chest is buried on a "
            "square that is not on the outer edge of the beach. Palm trees stand at "
            f"{_name(self._palms[0])} and {_name(self._palms[1])}; nothing is buried under a palm.\n"
            "Each turn dig one square, e.g. \\boxed{C7}. If the chest is not there you learn how many steps "
            "(up, down, left, right) it is from that square.\n"
            f"Dig up the chest within {self.max_turns} digs to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "digs": len(self._dug)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Dig one square; the chest's square wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        cell = re.fullmatch(r"([A-Ja-j])\s*(\d{1,2})", _move_text(action))
        if cell is None or not 1 <= int(cell.group(2)) <= _SIZE:
            obs = "Invalid square. Write a column A-J and a row 1-10, e.g. \\boxed{C7}."
        else:
            spot = (_LETTERS.index(cell.group(1).upper()), int(cell.group(2)) - 1)
            if spot in self._palms:
                obs = f"A palm tree grows at {_name(spot)}; you cannot dig there."
            elif spot == self._spot:
                self._terminated, reward = True, 1.0
                return f"You dig at {_name(spot)} and hit the chest. You win!", reward, True, False, self._info()
            elif spot in self._dug:
                obs = f"You already dug at {_name(spot)}; the chest is {_steps(spot, self._spot)} steps from there."
            else:
                self._dug.append(spot)
                obs = f"Nothing at {_name(spot)}. The chest is {_steps(spot, self._spot)} steps away."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of digs."
        else:
            obs += f" Digs left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Dig straight at the chest."""
        return [f"\\boxed{{{_name(self._spot)}}}"]

    def close(self) -> None:
        """Nothing to release."""
