"""Lever Room: set four levers to a hidden pattern using a correct-count dial (skill: Deduction).

Four levers are each up or down; a hidden pattern opens the door. The starting position is shown and
is never the pattern. Each turn the player flips one lever and a dial shows how many levers now match
the pattern. Flipping each lever once and flipping back the ones that lowered the dial opens the door
within seven flips; the budget is eight. The move space is tiny (four moves), so luck alone opens the
door fairly often: this is a warm-up room.
"""

from __future__ import annotations

import random
import re
from typing import Any

_LEVERS = 4
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class LeverRoomEnv:
    """Flip levers one at a time until the dial reads four."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._levers: list[bool] = []
        self._pattern: list[bool] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a pattern and a different starting position."""
        rng = random.Random(seed)
        self._pattern = [rng.random() < 0.5 for _ in range(_LEVERS)]
        while True:
            self._levers = [rng.random() < 0.5 for _ in range(_LEVERS)]
            if self._levers != self._pattern:
                break
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Lever Room. {_LEVERS} levers, numbered 1 to {_LEVERS}, are each up or down; a hidden pattern opens the door.\n"
            "Each turn flip one lever, e.g. \\boxed{2}. The dial then shows how many levers match the pattern.\n"
            f"Open the door within {self.max_turns} flips to win.\n" + self._render()
        )
        return intro, self._info()

    def _matches(self) -> int:
        return sum(a == b for a, b in zip(self._levers, self._pattern))

    def _render(self) -> str:
        levers = " ".join(f"{i + 1}:{'up' if up else 'down'}" for i, up in enumerate(self._levers))
        return f"Levers: {levers}. Dial: {self._matches()} of {_LEVERS}."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "dial": self._matches()}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Flip one lever; a full match opens the door."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        text = _move_text(action)
        if not re.fullmatch(r"\d{1,3}", text):
            obs = f"Invalid move. Write the number of a lever, 1 to {_LEVERS}, e.g. \\boxed{{2}}."
        elif not 1 <= int(text) <= _LEVERS:
            obs = f"There is no lever {int(text)}: the levers are numbered 1 to {_LEVERS}."
        else:
            i = int(text) - 1
            self._levers[i] = not self._levers[i]
            obs = f"You flip lever {i + 1} {'up' if self._levers[i] else 'down'}."
            if self._levers == self._pattern:
                self._terminated, reward = True, 1.0
                return obs + " The dial reads 4 and the door opens. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of flips."
        else:
            obs += f" Flips left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Flip exactly the levers that differ from the pattern."""
        return [f"\\boxed{{{i + 1}}}" for i in range(_LEVERS) if self._levers[i] != self._pattern[i]]

    def close(self) -> None:
        """Nothing to release."""
