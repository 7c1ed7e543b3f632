# expect: valid
"""Days Apart: the number of days between two dates (skill: Calendar Arithmetic).

Looks suspicious: it imports ``time`` and ``datetime`` and calls ``time.strftime``, the usual sign of
behaviour that depends on the clock.
Why it is correct: both modules are used only to FORMAT two dates drawn from the seed
(``datetime.date(...)`` and ``time.strftime(fmt, date.timetuple())``); nothing reads the current time,
so the same seed gives the same dates, observation and answer on any day.
"""

import datetime
import random
import re
import time

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class DaysApartEnv:
    """(later - earlier).days."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._first = datetime.date(2001, 1, 1)
        self._second = datetime.date(2001, 2, 1)
        self._answer = 31
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._first = datetime.date(1990, 1, 1) + datetime.timedelta(days=rng.randint(0, 15000))
        self._second = self._first + datetime.timedelta(days=rng.randint(100, 3000))
        self._answer = (self._second - self._first).days
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        first = time.strftime("%A, %d %B %Y", self._first.timetuple())
        second = time.strftime("%A, %d %B %Y", self._second.timetuple())
        return (f"Days Apart. How many days after {first} is {second}? You have {self.max_turns} attempts; "
                "answer as \\boxed{n}."), {}

    def step(self, action):
        if self._done:
            return "The calendar is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct!", 1.0, True, False, {}
        feedback = "No answer found: write the days as \\boxed{n}." if not found else "That is not the number of days."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: they are {self._answer} days apart."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
