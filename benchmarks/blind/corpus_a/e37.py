"""Vault Code: open a vault whose code is six glyphs long (skill: systematic code breaking).

The vault's code is six symbols, each one of eight glyphs (A-H, repeats allowed): 262,144 codes. After
each attempt the keypad lights up each position that is correct ('*') and leaves the others dark
('.'). Ten attempts are allowed before the vault locks.
"""

from __future__ import annotations

import random
import re
from typing import Any

_GLYPHS = "ABCDEFGH"
_LENGTH = 6


class VaultCodeEnv:
    """Guess a 6-glyph code with per-position correctness feedback."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._code = "AAAAAA"
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        self._code = "".join(rng.choice(_GLYPHS) for _ in range(_LENGTH))
        self._turn, self._terminated, self._truncated = 0, False, False
        text = (f"Vault Code. The code is {_LENGTH} glyphs, each one of {', '.join(_GLYPHS)} (repeats allowed). "
                "Enter an attempt in a box, e.g. \\boxed{ABCDEF}. The keypad shows * under each correct "
                f"position and . under each wrong one. You have {self.max_turns} attempts.")
        return text, {"turn": 0, "attempts_left": self.max_turns}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        info = {"turn": self._turn, "attempts_left": self.max_turns - self._turn}
        if self._terminated or self._truncated:
            return "The vault is closed to further attempts.", 0.0, self._terminated, self._truncated, info
        self._turn += 1
        info = {"turn": self._turn, "attempts_left": self.max_turns - self._turn}
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        attempt = re.sub(r"[\s,-]", "", boxes[-1]).upper() if boxes else ""
        reward = 0.0
        if len(attempt) != _LENGTH or any(ch not in _GLYPHS for ch in attempt):
            obs = f"An attempt is {_LENGTH} glyphs from {_GLYPHS}, e.g. \\boxed{{ABCDEF}}."
        else:
            lights = "".join("*" if a == c else "." for a, c in zip(attempt, self._code))
            if attempt == self._code:
                self._terminated, reward = True, 1.0
                obs = f"{attempt}\n{lights}\nThe vault swings open!"
            else:
                obs = f"{attempt}\n{lights}"
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += "\nThe vault is locked."
        return obs, reward, self._terminated, self._truncated, info

    def solution(self) -> list[str]:
        return [f"\\boxed{{{self._code}}}"]

    def close(self) -> None:
        """Nothing to release."""
