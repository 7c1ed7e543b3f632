"""Pair Up: a memory game of twelve face-down cards (skill: Memory).

Six pairs of picture cards are shuffled face down in positions 1 to 12. Each turn the player turns
over two cards; a matching pair is cleared from the table, a mismatch is shown and turned back. The
table is cleared in 6 turns with perfect knowledge; a player with a good memory needs about 9 to 11,
against a budget of 14.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PICTURES = ["FOX", "OWL", "ELK", "BEE", "CAT", "DOG", "EEL", "YAK", "RAM", "HEN", "BAT", "COW", "APE", "EMU"]
_CARDS = 12
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


class PairUpEnv:
    """Turn over two cards per turn; clear all six pairs."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 14, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._cards: list[str] = []
        self._matched: set[int] = set()
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pick six pictures and shuffle their pairs."""
        rng = random.Random(seed)
        cards = rng.sample(_PICTURES, _CARDS // 2) * 2
        rng.shuffle(cards)
        self._cards, self._matched = cards, set()
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Pair Up. {_CARDS} cards lie face down in positions 1 to {_CARDS}; they form {_CARDS // 2} pairs: "
            f"{', '.join(sorted(set(cards)))}.\n"
            "Each turn turn over two different cards by position, e.g. \\boxed{3 8}. A matching pair is "
            "removed from the table; otherwise both cards are shown to you and turned back.\n"
            f"Clear the whole table within {self.max_turns} turns to win.\n" + self._table()
        )
        return intro, self._info()

    def _table(self) -> str:
        return "Table: " + " ".join(f"{i}:{'--' if i in self._matched else '??'}" for i in range(1, _CARDS + 1))

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "cleared": len(self._matched)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Turn over two cards; clearing every card wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        pick = re.fullmatch(r"(-?\d{1,4})\s*(?:,|and|&|\s)\s*(-?\d{1,4})", _move_text(action))
        a, b = (int(pick.group(1)), int(pick.group(2))) if pick else (0, 0)
        n = len(self._cards)
        if pick is None:
            obs = "Invalid move. Name two positions, e.g. \\boxed{3 8}."
        elif not (1 <= a <= n and 1 <= b <= n):
            obs = f"Positions run from 1 to {n}."
        elif a == b:
            obs = "Turn over two different cards."
        elif a in self._matched or b in self._matched:
            obs = f"Card {a if a in self._matched else b} has already been cleared."
        else:
            x, y = self._cards[a - 1], self._cards[b - 1]
            if x == y:
                self._matched |= {a, b}
                obs = f"Card {a} is {x} and card {b} is {y}: a pair! Both are removed."
            else:
                obs = f"Card {a} is {x} and card {b} is {y}: no match. They are turned back."
        if len(self._matched) == n:
            self._terminated, reward = True, 1.0
            return obs + " The table is clear. You win!", reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of turns."
        else:
            obs += f" Turns left: {self.max_turns - self._turn}."
        return obs + "\n" + self._table(), reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Each remaining pair, by position."""
        moves = []
        for picture in dict.fromkeys(self._cards):
            spots = [i + 1 for i, card in enumerate(self._cards) if card == picture and i + 1 not in self._matched]
            if len(spots) == 2:
                moves.append(f"\\boxed{{{spots[0]} {spots[1]}}}")
        return moves

    def close(self) -> None:
        """Nothing to release."""
