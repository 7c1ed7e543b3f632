# expect: trivially_solvable
"""Savings Goal: the first month in which a savings plan reaches its goal (a defect-zoo environment).

The environment: a single-answer puzzle. An account starts with a balance, earns a monthly deposit
that grows by a fixed amount every month, and the agent must name the FIRST month after which the
balance reaches the goal, in \\boxed{}. Three attempts; wrong guesses are told "too early".

The defect: the check is ``int(guess) >= first_month`` ("the goal is reached by then"), not equality,
so any month at or after the right one is accepted.
Exploit: the constant action "\\boxed{1000000}" wins every seed (the first month is always below 400).
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class SavingsGoalEnv:
    """First month n with start + sum of growing deposits >= goal."""

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._start = 0
        self._deposit = 10
        self._growth = 1
        self._goal = 100
        self._answer = 1
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._start = rng.randint(0, 2000)
        self._deposit = rng.randint(20, 300)
        self._growth = rng.randint(1, 15)
        self._goal = self._start + rng.randint(5000, 90000)
        balance, month = self._start, 0
        while balance < self._goal:
            balance += self._deposit + month * self._growth
            month += 1
        self._answer = month
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Savings Goal. An account holds {self._start} today. At the end of month 1 you deposit "
            f"{self._deposit}, and every following month you deposit {self._growth} more than the month "
            f"before. After which month does the balance first reach {self._goal}? You have "
            f"{self.max_turns} attempts; answer with the month number as \\boxed{{n}}."
        ), {}

    def step(self, action):
        if self._done:
            return "The plan is settled; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) >= self._answer:  # defect: any later month passes
            self._done, self._ended = True, (True, False)
            return "Correct, the goal is reached!", 1.0, True, False, {}
        if not found or not re.fullmatch(r"\d{1,12}", guess):
            feedback = "No month found: write it as \\boxed{n}."
        else:
            feedback = f"After month {guess} the balance is still short of the goal."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the goal is first reached after month {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
