"""Capital budgeting: pick the project with the highest net present value."""

from __future__ import annotations

import random
import re
from typing import Any


class ProjectNpvEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = "A"
        self._turn = 0
        self._done = False
        self.reset()

    @staticmethod
    def _npv(rate: float, flows: list[int]) -> float:
        return sum(f / (1 + rate) ** t for t, f in enumerate(flows))

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        rate = rng.choice([4, 5, 6, 7, 8, 9, 10, 12])
        while True:
            projects = []
            for _ in range(5):
                years = rng.randint(3, 5)
                cost = rng.randrange(20, 200) * 100
                flows = [-cost] + [rng.randrange(5, 90) * 100 for _ in range(years)]
                projects.append(flows)
            values = sorted((self._npv(rate / 100, f), i) for i, f in enumerate(projects))
            if values[-1][0] - values[-2][0] > 150:
                break
        best = values[-1][1]
        self._answer = "ABCDE"[best]
        self._turn, self._done = 0, False
        lines = []
        for i, flows in enumerate(projects):
            sep = ":\u00a0" if i == best else ": "
            lines.append(f"  {'ABCDE'[i]}{sep}" + ", ".join(f"{f:+d}" for f in flows))
        obs = (f"Five candidate projects; cash flows in USD for year 0, 1, 2, ... Discount rate {rate}% per "
               "year.\n" + "\n".join(lines)
               + "\nWhich project has the highest net present value? Reply with its letter, e.g. \\boxed{C}. "
               "One attempt.")
        return obs, {"rate_percent": rate}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Decision already recorded.", 0.0, True, False, {}
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        pick = boxes[-1].strip().upper() if boxes else ""
        reward, terminated = 0.0, False
        if pick not in ("A", "B", "C", "D", "E"):
            obs = "Reply with one letter A-E, e.g. \\boxed{C}."
        else:
            terminated = True
            reward = 1.0 if pick == self._answer else 0.0
            obs = "Correct." if reward else "Not the best project."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
