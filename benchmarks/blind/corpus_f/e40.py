"""CupGameEnv: find the ball under one of ten cups in three lifts, with "left"/"right" hints.

Cups are numbered 1-10 from left to right. After a wrong lift the host says whether the ball is to
the left or the right. If a player dislikes a deal they may ask for a fresh one with \\boxed{new},
which reshuffles the cups.
"""

from __future__ import annotations

import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class CupGameEnv:
    """Three lifts over ten cups; a new deal is available on request."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 6, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._ball = 1
        self._lifts = 0
        self._turn = 0
        self._rng = random.Random(0)
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        self._rng = random.Random(seed)
        self._deal()
        self._status = (False, False)
        text = ("Ten cups stand in a row, numbered 1 (left) to 10 (right); a ball is under one of them. Lift a cup "
                "by boxing its number, e.g. \\boxed{4}. After a wrong lift I tell you whether the ball is further "
                "left or right. You have 3 lifts. Box \\boxed{new} at any time for a fresh deal.")
        return text, {"lifts_left": 3}

    def _deal(self) -> None:
        self._ball = self._rng.randint(1, 10)
        self._lifts = 0
        self._turn = 0

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Game over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        move = boxes[-1].strip().lower() if boxes else ""
        reward, terminated = 0.0, False
        if move == "new":
            self._deal()
            obs = "The cups are reshuffled. You have 3 lifts."
        elif not re.fullmatch(r"\d{1,2}", move) or not 1 <= int(move) <= 10:
            obs = "Box a cup number from 1 to 10, or \\boxed{new}."
        else:
            cup = int(move)
            self._lifts += 1
            if cup == self._ball:
                obs, reward, terminated = f"The ball is under cup {cup}!", 1.0, True
            elif self._lifts >= 3:
                obs, terminated = f"No lifts left; the ball was under cup {self._ball}.", True
            else:
                side = "right" if self._ball > cup else "left"
                obs = f"Empty. The ball is further {side}. Lifts left: {3 - self._lifts}."
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"lifts_left": 3 - self._lifts}

    def solution(self) -> int:
        return self._ball

    def close(self) -> None:
        """Nothing to release."""
