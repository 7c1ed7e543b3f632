"""League Table: four teams play a round robin; who tops the table?

Each of the six matches is listed with its score. A win is worth 3 points, a draw 1, a loss 0.
Name the team that finishes first.
"""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

_TEAMS = ["Harriers", "Rovers", "Comets", "Wanderers", "Foxes", "Mariners", "Pilgrims", "Saints"]


class LeagueTableEnv:
    """Round-robin standings."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._teams: list[str] = []
        self._results: list[tuple[str, str, int, int]] = []
        self._leader = ""
        self._turn = 0
        self._done = False

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        teams = rng.sample(_TEAMS, 4)
        results = []
        for home, away in itertools.combinations(teams, 2):
            if rng.random() < 0.5:
                home, away = away, home
            results.append((home, away, rng.randint(0, 2), rng.randint(0, 2)))
        rng.shuffle(results)
        points = {t: 0 for t in teams}
        for home, away, hg, ag in results:
            if hg > ag:
                points[home] += 3
            elif hg < ag:
                points[away] += 3
            else:
                points[home] += 1
                points[away] += 1
        self._teams, self._results = teams, results
        self._leader = max(teams, key=lambda t: points[t])
        self._turn, self._done = 0, False
        rows = "\n".join(f"  {h} {hg}-{ag} {a}" for h, a, hg, ag in results)
        obs = (f"League Table. Results:\n{rows}\nWin = 3 points, draw = 1, loss = 0. Which team finishes top? "
               "Answer with the team name, e.g. \\boxed{Rovers}.")
        return obs, {"teams": sorted(teams)}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "Season over.", 0.0, True, False, {}
        self._turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action) if isinstance(action, str) else []
        name = found[-1].strip().title() if found else ""
        reward, terminated = 0.0, False
        if name not in self._teams:
            obs = f"Name one of the teams: {', '.join(sorted(self._teams))}."
        else:
            terminated = True
            reward = 1.0 if name == self._leader else 0.0
            obs = "Correct." if reward else "That team did not finish top."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._leader

    def close(self) -> None:
        pass
