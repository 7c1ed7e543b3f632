"""Rain gauge log: on which day did the most rain fall?"""

from __future__ import annotations

import random
import re
from typing import Any


class RainPeakEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._rain: list[float] = []
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        while True:
            rain = [round(rng.uniform(0, 40), 1) for _ in range(rng.randint(8, 14))]
            if rain.count(max(rain)) == 1:
                break
        self._rain = rain
        self._turn, self._done = 0, False
        obs = ("Daily rainfall (mm), in order starting with day 1:\n  " + "  ".join(f"{r:.1f}" for r in rain)
               + "\nOn which day number (1 = the first day listed) was rainfall highest? Reply like \\boxed{4}. "
               "One attempt.")
        return obs, {"days": len(rain)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Log closed.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        raw = boxes[-1].strip() if boxes else ""
        reward, terminated = 0.0, False
        if not re.fullmatch(r"\d{1,3}", raw):
            obs = "Reply with a day number such as \\boxed{4}."
        else:
            terminated = True
            reward = 1.0 if int(raw) == self._rain.index(max(self._rain)) else 0.0
            obs = "Correct." if reward else "Wrong day."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> int:
        return self._rain.index(max(self._rain))

    def close(self) -> None:
        pass
