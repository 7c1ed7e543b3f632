"""River Crossing: ferry a predator, its prey and the prey's food across a river (skill: Planning).

A farmer's boat holds the farmer and at most one passenger. Left alone together, the predator eats
the prey and the prey eats the food; the farmer refuses any crossing that would leave such a pair
alone (the move is refused and the turn is spent). The animals, the farmer's name and the starting
bank vary by seed. Seven crossings are needed and nine are allowed; the move space is tiny (four
moves), so random play does win sometimes, a known property stated here.
"""

from __future__ import annotations

import random
import re
from typing import Any

_TRIOS = (("wolf", "goat", "cabbage"), ("fox", "hen", "grain"), ("cat", "mouse", "cheese"),
          ("dog", "rabbit", "carrots"), ("hawk", "snake", "eggs"), ("bear", "sheep", "clover"))
_FARMERS = ("Ada", "Bram", "Cleo", "Dov", "Edda", "Finn", "Greta", "Hugo", "Iris", "Jonas")
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_CROSS = re.compile(r"^cross(?:\s+(?:with\s+)?(?:the\s+)?([a-z]+))?$")


class RiverCrossingEnv:
    """Ferry everything to the far bank without leaving a hungry pair alone."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 9, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._items: tuple[str, str, str] = _TRIOS[0]
        self._farmer = ""
        self._banks = ("west", "east")
        self._side: dict[str, int] = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the trio, the farmer and the starting bank."""
        rng = random.Random(seed)
        self._items = rng.choice(_TRIOS)
        self._farmer = rng.choice(_FARMERS)
        self._banks = ("west", "east") if rng.random() < 0.5 else ("east", "west")
        self._side = {name: 0 for name in ("farmer",) + self._items}
        self._turn, self._terminated, self._truncated = 0, False, False
        predator, prey, food = self._items
        intro = (
            f"River Crossing. {self._farmer} stands on the {self._banks[0]} bank with a {predator}, a {prey} and "
            f"some {food}, and must bring all three to the {self._banks[1]} bank.\n"
            f"The boat carries {self._farmer} and at most one passenger. Left alone, the {predator} eats the "
            f"{prey} and the {prey} eats the {food}; {self._farmer} refuses any crossing that would allow it.\n"
            f"Each turn cross once: \\boxed{{cross {prey}}} takes the {prey} along, \\boxed{{cross alone}} "
            "crosses empty.\n"
            f"Get everything across within {self.max_turns} crossings to win.\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        near = [n for n, s in self._side.items() if s == 0]
        far = [n for n, s in self._side.items() if s == 1]
        near = [self._farmer if n == "farmer" else n for n in near]
        far = [self._farmer if n == "farmer" else n for n in far]
        return (f"{self._banks[0].capitalize()} bank: {', '.join(near) or 'nobody'}. "
                f"{self._banks[1].capitalize()} bank: {', '.join(far) or 'nobody'}.")

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def _unsafe(self, side: dict[str, int]) -> str:
        predator, prey, food = self._items
        for a, b in ((predator, prey), (prey, food)):
            if side[a] == side[b] != side["farmer"]:
                return f"the {a} would eat the {b}"
        return ""

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Cross once; everything on the far bank wins, running out of crossings truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _CROSS.match(" ".join(boxes[-1].lower().split())) if boxes else None
        passenger = match.group(1) if match else None
        if match is None:
            obs = f"Invalid move. Write \\boxed{{cross alone}} or \\boxed{{cross {self._items[1]}}}."
        elif passenger not in (None, "alone") and passenger not in self._items:
            obs = f"There is no {passenger[:20]} here. Passengers: {', '.join(self._items)}."
        elif passenger not in (None, "alone") and self._side[passenger] != self._side["farmer"]:
            obs = f"The {passenger} is on the other bank."
        else:
            after = dict(self._side)
            after["farmer"] = 1 - after["farmer"]
            if passenger not in (None, "alone"):
                after[passenger] = after["farmer"]
            problem = self._unsafe(after)
            if problem:
                obs = f"{self._farmer} refuses: {problem}."
            else:
                self._side = after
                obs = f"{self._farmer} crosses" + (f" with the {passenger}." if passenger not in (None, "alone") else " alone.")
                if all(self._side.values()):
                    self._terminated = True
                    return obs + " Everyone is safely across!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of crossings."
        else:
            obs += f" Crossings left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The classic seven crossings: prey over, back alone, predator over, prey back, food over,
        back alone, prey over."""
        predator, prey, food = self._items
        return [f"\\boxed{{cross {m}}}" for m in (prey, "alone", predator, prey, food, "alone", prey)]

    def close(self) -> None:
        """Nothing to release."""
