"""Race Results: reconstruct the finishing order of a six-runner race (skill: Deduction).

Six runners finished a race in a hidden order. Each turn the player submits a complete finishing
order (all six names) and the steward marks which places are right. Keeping every runner away from
places already marked wrong finds the order in a handful of submissions; a random order is right
once in 720 tries.
"""

from __future__ import annotations

import random
import re
from typing import Any

_NAMES = ("Ada", "Bruno", "Celia", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kiri", "Luca",
          "Mara", "Nils", "Oona", "Pavel")
_PLACE = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def _consistent(roster: list[str], fixed: dict[int, str], banned: dict[int, set[str]]) -> list[str]:
    """The first order (in roster order) that keeps known places and avoids places marked wrong."""
    order: list[str] = []

    def place(i: int) -> bool:
        if i == 6:
            return True
        options = [fixed[i]] if i in fixed else [n for n in roster if n not in fixed.values()]
        for name in options:
            if name not in order and name not in banned[i]:
                order.append(name)
                if place(i + 1):
                    return True
                order.pop()
        return False

    place(0)
    return order


class RaceResultsEnv:
    """Submit finishing orders; right places are marked."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._roster: list[str] = []
        self._order: list[str] = []
        self._turn = 0
        self._closed = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pick six runners and a finishing order that is not the roster order or close to it."""
        rng = random.Random(seed)
        self._roster = sorted(rng.sample(_NAMES, 6))
        near = [[x] + [n for n in self._roster if n != x] for x in self._roster]
        while True:
            self._order = rng.sample(self._roster, 6)
            if self._order not in near:
                break
        self._turn, self._closed, self._won = 0, False, False
        text = (
            f"Race Results. Six runners finished a race: {', '.join(self._roster)}.\n"
            "Each turn submit a full finishing order, first to last, e.g. \\boxed{" + ", ".join(self._roster) + "}.\n"
            "The steward marks each place right or wrong. A list that leaves runners out is completed from the roster.\n"
            f"Find the exact order within {self.max_turns} submissions."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Score one submitted order."""
        if self._closed:
            return "The results are final. reset() for another race.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        raw = [w.capitalize() for w in re.split(r"[\s,;>]+", found[-1].strip()) if w] if found else []
        picked = list(dict.fromkeys(raw))
        if not picked or len(picked) > 6 or any(n not in self._roster for n in picked):
            obs = "List the runners by name, first to last, e.g. \\boxed{" + ", ".join(self._roster) + "}."
        else:
            rest = [n for n in self._roster if n not in picked]
            guess = picked + rest
            marks = [f"{_PLACE[i]} {n} {'right' if n == self._order[i] else 'wrong'}" for i, n in enumerate(guess)]
            obs = ("Read as: " + ", ".join(guess) + ". " if rest else "") + "Steward: " + "; ".join(marks) + "."
            if guess == self._order:
                self._closed, self._won = True, True
                return obs + " That is the official result!", 1.0, True, False, self._info()
        if self._turn >= self.max_turns:
            self._closed = True
            return obs + " No submissions left.", 0.0, False, True, self._info()
        return f"{obs} Submissions left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Submit the first order consistent with all marks so far, until it is right."""
        fixed: dict[int, str] = {}
        banned: dict[int, set[str]] = {i: set() for i in range(6)}
        moves = []
        while True:
            guess = _consistent(self._roster, fixed, banned)
            moves.append("\\boxed{" + ", ".join(guess) + "}")
            if guess == self._order:
                return moves
            for i, n in enumerate(guess):
                if n == self._order[i]:
                    fixed[i] = n
                else:
                    banned[i].add(n)

    def close(self) -> None:
        """Nothing to release."""
