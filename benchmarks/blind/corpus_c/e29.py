"""Weekday finder: which day of the week fell on a historical date."""

import datetime
import random

_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _last_box(text):
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth = 0
    for i in range(start + 6, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 7:i]
    return None


class WeekdayFinderEnv:
    reward_range = (0.0, 1.0)

    def __init__(self, max_turns=2, **kwargs):
        self.max_turns = max(1, int(max_turns))
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._date = datetime.date(rng.randint(1700, 2199), rng.randint(1, 12), rng.randint(1, 28))
        self._answer = _DAYS[self._date.weekday()]
        self._turn, self._over = 0, False
        obs = (f"On which day of the week did {self._date.day} {self._date.strftime('%B')} {self._date.year} fall "
               "(Gregorian calendar)? Reply with the day's name, e.g. \\boxed{Monday}. One answer only.")
        return obs, {"calendar": "gregorian"}

    def step(self, action):
        if self._over:
            return "Episode over.", 0.0, True, False, {}
        self._turn += 1
        raw = _last_box(action if isinstance(action, str) else str(action))
        word = raw.strip().lower() if raw is not None else ""
        reward, term = 0.0, False
        if word not in [d.lower() for d in _DAYS]:
            obs = "Reply with a day name such as \\boxed{Monday}."
        else:
            term = True
            reward = 1.0 if word == self._answer.lower() else 0.0
            obs = "Correct." if reward else "No, it was another day."
        trunc = not term and self._turn >= self.max_turns
        self._over = term or trunc
        return obs, reward, term, trunc, {"turn": self._turn}

    def solution(self):
        """Zeller's congruence."""
        q, m, y = self._date.day, self._date.month, self._date.year
        if m < 3:
            m += 12
        k, j = y % 100, y // 100
        h = (q + (13 * (m + 1)) // 5 + k + k // 4 + j // 4 + 5 * j) % 7
        return ["Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"][h]

    def close(self):
        pass
