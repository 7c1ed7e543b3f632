"""WeekdayPickEnv: which of five dates falls on the asked weekday? (skill: calendar arithmetic)

Five dates of one year are listed as options A-E; exactly one of them falls on the asked weekday.
Models often box intermediate results ("\\boxed{Tuesday}", "\\boxed{?}") next to their choice, so only
boxes that hold a single option letter are read and any other box is ignored. Boxing two different
letters is ambiguous and counts as a wrong answer.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

_LETTERS = "ABCDE"
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]
_OPTION = re.compile(r"^\(?\s*([A-Ea-e])\s*\)?\s*[.:]?$")


def _boxed(text: str) -> list[str]:
    """Contents of the balanced \\boxed{...} groups of ``text``, in order of appearance."""
    spans, stack = [], []
    for match in re.finditer(r"\\boxed\{|[{}]", text):
        token = match.group()
        if token == "}":
            if stack:
                start = stack.pop()
                if start >= 0:
                    spans.append((start, match.start()))
        else:
            stack.append(match.end() if token != "{" else -1)
    return [text[a:b] for a, b in sorted(spans)]


class WeekdayPickEnv:
    """Five-option multiple choice; non-letter boxes beside the answer are ignored."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 3, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._dates: list[datetime.date] = []
        self._weekday = 0
        self._answer = "A"
        self._turn = 0
        self._status = (False, False)
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        year = rng.randint(1990, 2035)
        weekday = rng.randrange(7)
        start = datetime.date(year, 1, 1).toordinal()
        length = datetime.date(year, 12, 31).toordinal() - start + 1
        first = datetime.date(year, 1, 1).weekday()
        right = [d for d in range(length) if (first + d) % 7 == weekday]
        wrong = [d for d in range(length) if (first + d) % 7 != weekday]
        picked = [rng.choice(right)] + rng.sample(wrong, 4)
        order = list(range(5))
        rng.shuffle(order)
        self._dates = [datetime.date.fromordinal(start + picked[i]) for i in order]
        self._answer = _LETTERS[order.index(0)]
        self._weekday = weekday
        self._turn, self._status = 0, (False, False)
        lines = [f"  {letter}) {date.day} {_MONTHS[date.month - 1]} {date.year}"
                 for letter, date in zip(_LETTERS, self._dates)]
        text = (
            f"Which of these dates falls on a {_DAYS[weekday]}? Exactly one does.\n" + "\n".join(lines) + "\n"
            "Reply with the option letter in a box, e.g. \\boxed{C}. You may box working too; only boxes "
            "holding a single letter A-E are read. Boxing two different letters counts as wrong, and you "
            "get one answer."
        )
        return text, {"year": year, "options": 5}

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if any(self._status):
            return "This question is over; call reset().", 0.0, *self._status, {"turn": self._turn}
        self._turn += 1
        letters = []
        for content in _boxed(action if isinstance(action, str) else ""):
            match = _OPTION.match(content.strip())
            if match:
                letters.append(match.group(1).upper())
        reward, terminated = 0.0, False
        if not letters:
            obs = "No option letter found in a box. Reply like \\boxed{C}."
        elif len(set(letters)) > 1:
            obs, terminated = "You boxed two different options; that counts as wrong.", True
        elif letters[-1] == self._answer:
            obs, reward, terminated = "Correct!", 1.0, True
        else:
            date = self._dates[_LETTERS.index(letters[-1])]
            obs, terminated = f"Wrong: that date is a {_DAYS[date.weekday()]}.", True
        truncated = not terminated and self._turn >= self.max_turns
        self._status = (terminated, truncated)
        return obs, reward, terminated, truncated, {"turn": self._turn}

    def solution(self) -> str:
        return self._answer

    def hint(self) -> str:
        return "Find the weekday of 1 January first, then count days modulo 7."

    def close(self) -> None:
        """Nothing to release."""
