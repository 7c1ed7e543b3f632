"""Darts Checkout: throw a score down to exactly zero, finishing on a double (skill: Arithmetic).

The player starts on a score between 121 and 301 and throws one dart per turn. A dart names a
segment 1-20 with S (single), D (double) or T (treble), or the bull: 25 for the outer bull and D25
for the bullseye (50). The score must reach exactly zero and the last dart must be a double; a dart
that would leave 1, go below zero or reach zero on a non-double is a bust and does not count. The
fewest darts for these scores is 3 to 6 against a budget of 10 darts.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _move_text(action: Any) -> str:
    """The last non-empty \\boxed{...} of a reply, stripped; '' when there is none."""
    if not isinstance(action, str):
        return ""
    found = [box.strip() for box in _BOX.findall(action) if box.strip()]
    return found[-1] if found else ""


def _throws() -> list[tuple[str, int, bool]]:
    """Every dart on the board: (name, points, is_double), highest scores first."""
    darts = [(f"{m}{seg}", seg * k, m == "D") for seg in range(1, 21) for m, k in (("S", 1), ("D", 2), ("T", 3))]
    darts += [("25", 25, False), ("D25", 50, True)]
    return sorted(darts, key=lambda d: (-d[1], d[0]))


def _checkout(score: int) -> list[str]:
    """Fewest darts from score to a double-out, by dynamic programming over remaining scores."""
    best: dict[int, list[str]] = {0: []}
    for left in range(2, score + 1):
        options = []
        for name, points, double in _throws():
            rest = left - points
            if rest == 0 and double:
                options.append([name])
            elif rest >= 2 and rest in best:
                options.append([name] + best[rest])
        if options:
            best[left] = min(options, key=len)
    return best.get(score, [])


class DartsCheckoutEnv:
    """Throw one dart per turn; finish exactly on zero with a double."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._score = 0
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Draw a starting score."""
        rng = random.Random(seed)
        self._score = rng.randint(121, 301)
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Darts Checkout. Your score is {self._score}. Throw one dart per turn to bring it to exactly 0 "
            f"within {self.max_turns} darts.\n"
            "A dart is S, D or T (single, double, treble) and a segment from 1 to 20, e.g. \\boxed{T20} scores 60, "
            "or the bull: \\boxed{25} (outer bull, 25) and \\boxed{D25} (bullseye, 50). A bare number is a single.\n"
            "The last dart must be a double. A dart that would leave 1, go below 0, or reach 0 on a non-double "
            "is a bust: it does not count."
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "score": self._score}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict]:
        """Score one dart; a double-out at zero wins."""
        if self._terminated or self._truncated:
            return "The game is over; call reset() to play again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        reward = 0.0
        text = _move_text(action).upper().replace(" ", "")
        text = {"BULL": "D25", "BULLSEYE": "D25", "OUTERBULL": "25", "50": "D25"}.get(text, text)
        dart = re.fullmatch(r"([SDT]?)(\d{1,4})", text)
        if dart is None:
            obs = "Invalid dart. Write e.g. \\boxed{T20}, \\boxed{D16}, \\boxed{S5}, \\boxed{25} or \\boxed{D25}."
        else:
            mult = {"": 1, "S": 1, "D": 2, "T": 3}[dart.group(1)]
            seg = int(dart.group(2))
            if seg < 1 or 20 < seg < 25:
                obs = f"There is no segment {seg}: the board has 1 to 20 and the bull (25)."
            elif seg == 25 and mult == 3:
                obs = "There is no treble bull."
            else:
                points = seg * mult
                left = self._score - points
                if left == 0 and mult == 2:
                    self._score = 0
                    self._terminated, reward = True, 1.0
                    return f"{points} scored: checkout on a double. You win!", reward, True, False, self._info()
                if left < 2:
                    obs = f"{points} would leave {left}: bust! Your score stays at {self._score}."
                else:
                    self._score = left
                    obs = f"{points} scored. {left} left."
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += " Out of darts."
        else:
            obs += f" Darts left: {self.max_turns - self._turn}."
        return obs, reward, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """The fewest darts that check out from the current score."""
        return [f"\\boxed{{{name}}}" for name in _checkout(self._score)]

    def close(self) -> None:
        """Nothing to release."""
