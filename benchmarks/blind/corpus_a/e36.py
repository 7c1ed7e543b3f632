"""Lights Out: switch off every light on a 3 x 3 panel (skill: linear reasoning over GF(2)).

Pressing a button toggles it and its horizontal and vertical neighbours. The panel was scrambled by
pressing some buttons, each at most once, starting from all lights off. The player presses buttons one
per turn, e.g. \\boxed{B2} (columns A-C, rows 1-3), and wins when every light is off. Pressing a button
twice cancels out, so a good player never repeats a button; seven presses are allowed.
"""

from __future__ import annotations

import random
import re
from typing import Any

_CELLS = [f"{c}{r}" for r in "123" for c in "ABC"]


def _toggle(lights: list[int], index: int) -> None:
    row, col = divmod(index, 3)
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = row + dr, col + dc
        if 0 <= r < 3 and 0 <= c < 3:
            lights[r * 3 + c] ^= 1


class LightsOutEnv:
    """3x3 Lights Out with a limited number of presses."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 7, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._lights = [0] * 9
        self._pressed: list[int] = []
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._lights = [0] * 9
        self._pressed = sorted(rng.sample(range(9), rng.randint(3, 8)))
        for index in self._pressed:
            _toggle(self._lights, index)
        self._turn, self._terminated, self._truncated = 0, False, False
        text = ("Lights Out. Pressing a button toggles it and the buttons directly above, below, left and "
                "right of it. Switch every light off. Press one button per turn, e.g. \\boxed{B2}. "
                f"You have {self.max_turns} presses.\n" + self._render())
        return text, self._info()

    def _render(self) -> str:
        rows = ["    A B C"]
        for r in range(3):
            rows.append(f"  {r + 1} " + " ".join("#" if self._lights[r * 3 + c] else "." for c in range(3)))
        return "\n".join(rows) + "\n  (# = on, . = off)"

    def _info(self) -> dict:
        return {"turn": self._turn, "lights_on": sum(self._lights)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The panel is locked.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        cell = boxes[-1].strip().upper().replace(" ", "") if boxes else ""
        reward = 0.0
        if cell not in _CELLS:
            obs = "Press a button by its name, A1 to C3, e.g. \\boxed{B2}."
        else:
            _toggle(self._lights, _CELLS.index(cell))
            obs = f"Pressed {cell}.\n" + self._render()
            if not any(self._lights):
                self._terminated, reward = True, 1.0
                obs += "\nAll lights are off!"
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += "\nNo presses left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> list[str]:
        return [f"\\boxed{{{_CELLS[i]}}}" for i in self._pressed]

    def close(self) -> None:
        """Nothing to release."""
