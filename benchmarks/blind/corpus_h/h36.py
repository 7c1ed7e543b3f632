"""Safe Digits: open a short-code safe with per-digit higher/lower feedback (skill: Binary Search).

The code has three or four digits from 0 to 9 (drawn per episode; leading zeros count: 047 is a
code). After each try the safe says, for every position, whether the digit is correct, too low or
too high, so searching all positions in parallel opens it within four tries; six are allowed. An
entry with too few digits is not tried: the reply points out the rule and suggests the zero-padded
entry the player may have meant (built only from what the player typed).
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")
_TRY = re.compile(r"^(?:try|open|code)?\s*([0-9]{1,12})$")


class SafeDigitsEnv:
    """Try codes until the safe opens."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "000"
        self._label = 100
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw the code."""
        rng = random.Random(seed)
        self._label = rng.randint(100, 999)
        self._code = "".join(str(rng.randint(0, 9)) for _ in range(rng.choice((3, 4))))
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Safe Digits. Safe #{self._label} has a code of exactly {len(self._code)} digits 0-9 (leading zeros count).\n"
            f"Each turn try a code, e.g. \\boxed{{try {'4729'[:len(self._code)]}}}. For each position the safe says whether the digit is "
            "correct, too low or too high.\n"
            f"Open the safe within {self.max_turns} tries to win."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Try one code; the right code wins, running out of tries truncates."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        match = _TRY.match(boxes[-1].strip().lower()) if boxes else None
        if match is None:
            obs = f"Invalid move. Write \\boxed{{try CODE}} with {len(self._code)} digits."
        elif len(match.group(1)) < len(self._code):
            padded = match.group(1).zfill(len(self._code))
            obs = (f"A code has exactly {len(self._code)} digits; did you mean \\boxed{{try {padded}}}? "
                   "Nothing was tried.")
        elif len(match.group(1)) > len(self._code):
            obs = f"A code has exactly {len(self._code)} digits. Nothing was tried."
        else:
            tried = match.group(1)
            if tried == self._code:
                self._terminated = True
                return f"{tried}: click! The safe opens.", 1.0, True, False, self._info()
            parts = []
            for i, (t, s) in enumerate(zip(tried, self._code)):
                parts.append(f"digit {i + 1} {'correct' if t == s else 'too low' if t < s else 'too high'}")
            obs = f"{tried}: " + ", ".join(parts) + "."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of tries."
        else:
            obs += f" Tries left: {self.max_turns - self._turn}."
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Binary search on all positions at once."""
        lo, hi, moves = [0] * len(self._code), [9] * len(self._code), []
        while True:
            guess = "".join(str((a + b) // 2) for a, b in zip(lo, hi))
            moves.append(f"\\boxed{{try {guess}}}")
            if guess == self._code:
                return moves
            for i, (g, s) in enumerate(zip(guess, self._code)):
                if g < s:
                    lo[i] = int(g) + 1
                elif g > s:
                    hi[i] = int(g) - 1

    def close(self) -> None:
        """Nothing to release."""
