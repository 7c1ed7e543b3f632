"""Weekday finder: exactly one of six listed dates falls on the requested weekday."""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class WeekdayFinderEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 5, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._answer = ""
        self._options: list[str] = []
        self._weekday = 0
        self._turn = 0
        self._done = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        rng = random.Random(seed)
        base = datetime.date(1990, 1, 1)
        self._weekday = rng.randrange(7)
        picked: list[datetime.date] = []
        while len(picked) < 6:
            day = base + datetime.timedelta(days=rng.randrange(0, 365 * 50))
            if day in picked:
                continue
            hit = day.weekday() == self._weekday
            if (not picked and hit) or (picked and not hit):
                picked.append(day)
        self._answer = picked[0].isoformat()
        rng.shuffle(picked)
        self._options = [d.isoformat() for d in picked]
        self._turn, self._done = 0, False
        listing = "\n".join(f"  - {o}" for o in self._options)
        obs = (f"Exactly one of these dates falls on a {_DAYS[self._weekday]}:\n{listing}\n"
               "Which one? Reply with that date as written (YYYY-MM-DD), e.g. \\boxed{2001-02-03}. "
               "You get one attempt.")
        return obs, {"weekday": _DAYS[self._weekday], "options": list(self._options)}

    @staticmethod
    def _last_box(text: str) -> str | None:
        start = text.rfind("\\boxed{")
        if start < 0:
            return None
        depth, i = 1, start + 7
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    return text[start + 7:i]
            i += 1
        return None

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        if self._done:
            return "This round is over.", 0.0, True, False, {}
        self._turn += 1
        content = self._last_box(action if isinstance(action, str) else str(action))
        reward, terminated = 0.0, False
        box = (content or "").strip()
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", box):
            obs = "Please answer with exactly one date in the form \\boxed{YYYY-MM-DD}."
        elif box == self._answer:
            reward, terminated = 1.0, True
            obs = f"Correct, {self._answer} is a {_DAYS[self._weekday]}."
        else:
            terminated = True
            obs = "Incorrect."
        truncated = not terminated and self._turn >= self.max_turns
        self._done = terminated or truncated
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def close(self) -> None:
        pass
