"""Dinner seating: four guests in a row of chairs, placed from a handful of clues."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_GUESTS = ["Amara", "Bruno", "Chloe", "Dario", "Elsa", "Farid", "Greta", "Hugo", "Iris", "Jonas"]


class DinnerSeatingEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._order: list[str] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        guests = sorted(rng.sample(_GUESTS, 4))
        order = guests[:]
        rng.shuffle(order)
        pos = {g: i for i, g in enumerate(order)}
        clues = []
        while len(clues) < 3:
            a, b = rng.sample(guests, 2)
            kind = rng.randrange(4)
            if kind == 0 and pos[a] < pos[b]:
                text = f"{a} sits somewhere to the left of {b}."
            elif kind == 1 and abs(pos[a] - pos[b]) == 1:
                text = f"{a} and {b} sit next to each other."
            elif kind == 2 and abs(pos[a] - pos[b]) > 1:
                text = f"{a} and {b} do not sit next to each other."
            elif kind == 3 and pos[a] in (0, 3):
                text = f"{a} sits at one end of the row."
            else:
                continue
            if text not in clues:
                clues.append(text)
        self._order, self._guests, self._clues = order, guests, clues
        self._turn, self._done = 0, False
        obs = (f"Four guests ({', '.join(guests)}) sit in chairs 1-4 from left to right.\nClues:\n"
               + "\n".join(f"  - {c}" for c in clues)
               + "\nGive the seating from chair 1 to chair 4, e.g. \\boxed{Amara, Bruno, Chloe, Dario}. "
               "One attempt.")
        return obs, {"guests": guests}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Seating already submitted.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        names = [n.strip().capitalize() for n in re.split(r"[,\s]+", boxes[-1]) if n.strip()] if boxes else []
        reward, terminated = 0.0, False
        if sorted(names) != self._guests:
            obs = "List each of the four guests exactly once, e.g. \\boxed{Amara, Bruno, Chloe, Dario}."
        else:
            terminated = True
            reward = 1.0 if names == self._order else 0.0
            obs = "That is the seating plan." if reward else "That is not the seating plan."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return ", ".join(self._order)

    def close(self) -> None:
        pass
