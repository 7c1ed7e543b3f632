# expect: wall_clock
"""Countdown: days from today until a deadline (a defect-zoo environment).

The environment: a single-answer puzzle. The observation states today's date and a project deadline;
the agent answers with the number of days left in \\boxed{}. Three attempts; the answer is revealed
when they run out.

The defect: "today" is ``datetime.date.today()``, the machine's real date, so the observation and
the answer change from one day to the next for the same seed; nothing recorded for a seed (solution,
regret, evaluation results) stays valid.
Exploit: with the date patched to two different days, reset(seed) shows different dates and
solution() gives different answers for the same seed (every seed).
"""

import datetime
import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class CountdownEnv:
    """(deadline - today).days."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._today = datetime.date(2024, 1, 1)
        self._deadline = datetime.date(2024, 2, 1)
        self._answer = 31
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._today = datetime.date.today()  # defect: the real date
        self._deadline = self._today + datetime.timedelta(days=rng.randint(40, 900))
        self._deadline = self._deadline.replace(day=rng.choice([1, 10, 15, 20, 28]))
        self._answer = (self._deadline - self._today).days
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Countdown. Today is {self._today.strftime('%A %d %B %Y')}. The project is due on "
            f"{self._deadline.strftime('%A %d %B %Y')}. How many days are left? You have {self.max_turns} "
            "attempts; answer as \\boxed{n}."
        ), {}

    def step(self, action):
        if self._done:
            return "The project is delivered; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"-?\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the days as \\boxed{n}." if not found else "That is not the number of days."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: {self._answer} days are left."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
