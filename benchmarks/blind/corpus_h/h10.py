"""Orchard Walk: gather apples from the trees of a small orchard (skill: Route Planning).

A 7x7 orchard holds five trees with 2-5 apples each. The picker walks one square per turn and picks a
tree's apples by standing on it (a picked tree is bare afterwards). Every apple picked pays 0.02 as a
small progress reward; a basket of 10 apples wins (reward 1.0, episode ends). The trees are placed so
that a good tour of the right trees fits in the 20-turn budget with little to spare, so the picker
has to choose which trees to visit and in what order.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_N = 7
_TARGET = 10
_DIRS = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
_ALIASES = {"n": "north", "s": "south", "e": "east", "w": "west", "up": "north", "down": "south",
            "right": "east", "left": "west"}
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _best_tour(start: tuple[int, int], trees: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """Order of trees with at least _TARGET apples that needs the fewest turns (walks + picks)."""
    best: tuple[int, list[tuple[int, int]]] | None = None
    spots = sorted(trees)
    for k in range(1, len(spots) + 1):
        for order in itertools.permutations(spots, k):
            if sum(trees[t] for t in order) < _TARGET:
                continue
            cost, here = 0, start
            for t in order:
                cost += abs(t[0] - here[0]) + abs(t[1] - here[1]) + 1
                here = t
            if best is None or cost < best[0]:
                best = (cost, list(order))
    return best[1] if best else []


def _tour_cost(start: tuple[int, int], order: list[tuple[int, int]]) -> int:
    cost, here = 0, start
    for t in order:
        cost += abs(t[0] - here[0]) + abs(t[1] - here[1]) + 1
        here = t
    return cost


class OrchardWalkEnv:
    """Walk between trees and pick until the basket holds ten apples."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 20, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._trees: dict[tuple[int, int], int] = {}
        self._pos = (0, 0)
        self._basket = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Plant five trees so that the best tour takes 14-18 turns."""
        rng = random.Random(seed)
        cells = [(r, c) for r in range(_N) for c in range(_N)]
        while True:
            spots = rng.sample(cells, 6)
            start, trees = spots[0], {spot: rng.randint(2, 5) for spot in spots[1:]}
            if sum(trees.values()) < _TARGET:
                continue
            if 14 <= _tour_cost(start, _best_tour(start, trees)) <= 18:
                break
        self._trees, self._pos, self._basket = trees, start, 0
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            "Orchard Walk. '@' is you, a digit is a tree with that many apples, 't' a bare tree, '.' grass. "
            "Row 1 is the top.\n"
            "Each turn walk one square, \\boxed{north}, \\boxed{south}, \\boxed{east} or \\boxed{west}, or pick "
            "the tree you stand on with \\boxed{pick} (you take all its apples; the tree is then bare).\n"
            f"Each apple picked pays 0.02. Fill your basket with {_TARGET} apples within {self.max_turns} turns "
            "to win (reward 1.0).\n" + self._render()
        )
        return intro, self._info()

    def _render(self) -> str:
        rows = []
        for r in range(_N):
            row = ""
            for c in range(_N):
                if (r, c) == self._pos:
                    row += "@"
                elif (r, c) in self._trees:
                    row += str(self._trees[(r, c)]) if self._trees[(r, c)] else "t"
                else:
                    row += "."
            rows.append(" " + row)
        return "\n".join(rows) + f"\nBasket: {self._basket}/{_TARGET} apples."

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "basket": self._basket}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Walk or pick; ten apples win, running out of turns truncates."""
        if self._terminated or self._truncated:
            return "The day is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        word = boxes[-1].strip().lower() if boxes else ""
        word = _ALIASES.get(word, word)
        reward = 0.0
        if word == "pick":
            apples = self._trees.get(self._pos, 0)
            if not apples:
                obs = "There are no apples to pick here."
            else:
                self._basket += apples
                self._trees[self._pos] == 0
                reward = 0.02 * apples
                obs = f"You pick {apples} apples."
                if self._basket >= _TARGET:
                    self._terminated = True
                    return obs + f" Your basket holds {self._basket} apples!", 1.0, True, False, self._info()
        elif word in _DIRS:
            dr, dc = _DIRS[word]
            r, c = self._pos[0] + dr, self._pos[1] + dc
            if 0 <= r < _N and 0 <= c < _N:
                self._pos = (r, c)
                obs = f"You walk {word}."
            else:
                obs = f"The orchard fence blocks the way {word}."
        else:
            obs = "Invalid move. Use \\boxed{north}, \\boxed{south}, \\boxed{east}, \\boxed{west} or \\boxed{pick}."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " The sun sets: out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._render(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Walk the best tour of trees (rows first, then columns) and pick at each."""
        moves, (r, c) = [], self._pos
        for tr, tc in _best_tour(self._pos, {t: a for t, a in self._trees.items() if a}):
            moves += ["south" if tr > r else "north"] * abs(tr - r) + ["east" if tc > c else "west"] * abs(tc - c)
            moves.append("pick")
            r, c = tr, tc
        return [f"\\boxed{{{m}}}" for m in moves]

    def close(self) -> None:
        """Nothing to release."""
