"""NumberLadderEnv: climb from a start number to a target exactly using "+3" and "x2" moves.

The player's score starts at 1.0 and drops by 0.2 each time they overshoot the target (the value then
falls back to the start). Reaching the target pays the current score; when the moves run out the
episode ends and the score so far is paid out.
"""

from __future__ import annotations

import collections
import random
import re
from typing import Any

_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


class NumberLadderEnv:
    """Reach the target with +3 / x2."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 10, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._start = self._value = 1
        self._target = 8
        self._score = 1.0
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        self._start = rng.randint(2, 9)
        value = self._start
        for _ in range(rng.randint(3, 6)):
            value = value + 3 if rng.random() < 0.6 else value * 2
        self._target = value
        self._value, self._score = self._start, 1.0
        self._turn, self._status = 0, (False, False)
        text = (f"Start at {self._start} and reach exactly {self._target}. Each move is \\boxed{{+3}} or \\boxed{{x2}}. "
                f"Going past {self._target} costs 0.2 of your score and sends you back to {self._start}. "
                f"You have {self.max_turns} moves.")
        return text, {"value": self._value, "score": self._score}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "Game over; call reset().", 0.0, *self._status, {}
        self._turn += 1
        boxes = _BOX.findall(action if isinstance(action, str) else "")
        move = re.sub(r"\s+", "", boxes[-1]).lower().replace("*", "x") if boxes else ""
        reward, terminated = 0.0, False
        if move not in ("+3", "x2"):
            obs = "Move with \\boxed{+3} or \\boxed{x2}."
        else:
            self._value = self._value + 3 if move == "+3" else self._value * 2
            if self._value == self._target:
                obs, reward, terminated = f"You reached {self._target}!", self._score, True
            elif self._value > self._target:
                self._score = round(max(0.0, self._score - 0.2), 2)
                self._value = self._start
                obs = f"Overshot! Back to {self._start}; score now {self._score}."
            else:
                obs = f"Now at {self._value}."
        truncated = not terminated and self._turn >= self.max_turns
        if truncated:
            reward = self._score
            obs += f" Out of moves; final score {self._score}."
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"value": self._value, "score": self._score}

    def solution(self) -> list[str]:
        paths = {self._start: []}
        queue = collections.deque([self._start])
        while queue:
            value = queue.popleft()
            if value == self._target:
                return paths[value]
            for move, nxt in (("+3", value + 3), ("x2", value * 2)):
                if nxt <= self._target and nxt not in paths:
                    paths[nxt] = paths[value] + [move]
                    queue.append(nxt)
        return []

    def close(self) -> None:
        """Nothing to release."""
