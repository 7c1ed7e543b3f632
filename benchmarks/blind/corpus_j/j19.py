"""Hand Sorter: put a hand of seven cards in order with as few swaps as possible (skill: Planning).

Seven distinct playing cards are dealt in a row. Order is by rank (2 low, A high) and, within a rank,
by suit (clubs < diamonds < hearts < spades). A move swaps the cards at two positions. Hands are dealt
so that at least four swaps are needed, and the budget is the minimum plus one: every swap must put
at least one card home. A player may also concede, which ends the hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

_RANKS = "23456789TJQKA"
_SUITS = "CDHS"


def _key(card: str) -> tuple[int, int]:
    return _RANKS.index(card[0]), _SUITS.index(card[1])


def _swaps_needed(hand: list[str]) -> int:
    target = sorted(hand, key=_key)
    seen, cycles = set(), 0
    for i in range(len(hand)):
        if i not in seen:
            cycles += 1
            j = i
            while j not in seen:
                seen.add(j)
                j = target.index(hand[j])
    return len(hand) - cycles


class HandSorterEnv:
    """Swap cards until the hand is sorted."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._hand: list[str] = []
        self._budget = 0
        self._swaps = 0
        self._turn = 0
        self._done = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Deal seven cards needing four to six swaps."""
        rng = random.Random(seed)
        deck = [r + s for r in _RANKS for s in _SUITS]
        while True:
            hand = rng.sample(deck, 7)
            need = _swaps_needed(hand)
            if 4 <= need <= 6:
                break
        self._hand, self._budget = hand, min(need + 1, self.max_turns)
        self._swaps, self._turn, self._done, self._won = 0, 0, False, False
        text = (
            "Hand Sorter. Sort the hand low to high: ranks 2 3 4 5 6 7 8 9 T J Q K A, and within a rank "
            "C < D < H < S.\n"
            "Swap the cards at two positions (1-7) with \\boxed{swap 2 5}. "
            f"You may make {self._budget} swaps. \\boxed{{concede}} gives up the hand.\n" + self._show()
        )
        return text, self._info()

    def _show(self) -> str:
        return "Hand: " + "  ".join(f"{i + 1}:{c}" for i, c in enumerate(self._hand))

    def _info(self) -> dict:
        return {"turn": self._turn, "swaps": self._swaps, "budget": self._budget}

    def _finish(self, text: str, won: bool) -> tuple[str, float, bool, bool, dict]:
        self._done, self._won = True, won
        return text, (1.0 if won else 0.0), True, False, self._info()

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """One swap, or concede."""
        if self._done:
            return "This hand is finished. reset() deals another.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        text = found[-1].strip().lower() if found else ""
        m = re.fullmatch(r"(?:swap\s+)?([1-7])\s*(?:,|and|with|\s)\s*([1-7])", text)
        if text in ("concede", "fold", "give up"):
            return self._finish("You put the cards down. The hand is conceded.", True)
        if not m or m.group(1) == m.group(2):
            obs = "Swap two different positions, e.g. \\boxed{swap 1 4}, or \\boxed{concede}."
        else:
            i, j = int(m.group(1)) - 1, int(m.group(2)) - 1
            self._hand[i], self._hand[j] = self._hand[j], self._hand[i]
            self._swaps += 1
            obs = f"Swapped positions {i + 1} and {j + 1}."
            if self._hand == sorted(self._hand, key=_key):
                return self._finish(obs + " The hand is in order!\n" + self._show(), True)
            if self._swaps >= self._budget:
                return self._finish(obs + " No swaps left; the hand is still out of order.\n" + self._show(), False)
        if self._turn >= self.max_turns:
            self._done = True
            return obs + " Out of turns.", 0.0, False, True, self._info()
        return f"{obs} Swaps left: {self._budget - self._swaps}.\n{self._show()}", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Selection by cycles: put the card that belongs at each wrong position there."""
        hand, moves = list(self._hand), []
        target = sorted(hand, key=_key)
        for i in range(len(hand)):
            if hand[i] != target[i]:
                j = hand.index(target[i])
                hand[i], hand[j] = hand[j], hand[i]
                moves.append(f"\\boxed{{swap {i + 1} {j + 1}}}")
        return moves

    def close(self) -> None:
        """Nothing to release."""
