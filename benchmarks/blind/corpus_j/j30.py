"""Price Check: name the price of a catalogue item from higher/lower calls (skill: Binary Search).

An item from a small catalogue carries a hidden whole-dollar price between 1 and 999. Each turn the
player names a price and hears whether the real one is higher or lower. Ten calls are enough for a
player who halves the range every time (2^10 > 999); scattered guesses are not.
"""

from __future__ import annotations

import random
import re
from typing import Any

_ITEMS = ("a second-hand cello", "a cast-iron kettle", "a signed football", "a vintage typewriter",
          "a folding kayak", "a brass telescope", "a box of rare stamps", "a garden gnome army",
          "a retro arcade cabinet", "a hand-knitted rug", "a mountain bike", "a grandfather clock")


class PriceCheckEnv:
    """Guess the hidden price; each call is answered with higher or lower."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._item = ""
        self._price = 1
        self._calls: dict[int, str] = {}
        self._turn = 0
        self._shut = False
        self._won = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Pick an item and its price."""
        rng = random.Random(seed)
        self._item = rng.choice(_ITEMS)
        self._price = rng.randint(1, 999)
        self._calls = {}
        self._turn, self._shut, self._won = 0, False, False
        text = (
            f"Price Check! Today's item is {self._item}. Its price is a whole number of dollars from 1 to 999.\n"
            "Call a price each turn, e.g. \\boxed{500}; the host says whether the real price is higher or lower.\n"
            f"Hit the exact price within {self.max_turns} calls to take it home."
        )
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "calls": len(self._calls)}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """One call."""
        if self._shut:
            return "The show has ended. reset() for the next item.", 0.0, self._won, not self._won, self._info()
        self._turn += 1
        found = [b for b in re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "") if b.strip()]
        m = re.fullmatch(r"\$?\s*(\d{1,4})(?:\.00)?", found[-1].strip()) if found else None
        if not m or not 1 <= int(m.group(1)) <= 999:
            obs = "Call a whole-dollar price from 1 to 999, e.g. \\boxed{250}."
        else:
            bid = int(m.group(1))
            gap = self._price - bid
            word = "higher" if gap > 0 else "lower"
            if gap == 0:
                self._shut, self._won = True, True
                return f"${bid} is exactly right! {self._item.capitalize()} is yours.", 1.0, True, False, self._info()
            if bid in self._calls:
                obs = f"You called ${bid} before, and the answer has not changed: {word}."
            else:
                self._calls[bid] = word
                obs = f"${bid}? The host shakes her head: {word}."
        if self._turn >= self.max_turns:
            self._shut = True
            return obs + " That was your last call.", 0.0, False, True, self._info()
        return f"{obs} Calls left: {self.max_turns - self._turn}.", 0.0, False, False, self._info()

    def solution(self) -> list[str]:
        """Binary search on 1-999."""
        lo, hi, moves = 1, 999, []
        while True:
            mid = (lo + hi) // 2
            moves.append(f"\\boxed{{{mid}}}")
            if mid == self._price:
                return moves
            lo, hi = (mid + 1, hi) if mid < self._price else (lo, mid - 1)

    def close(self) -> None:
        """Nothing to release."""
