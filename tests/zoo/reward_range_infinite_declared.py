# expect: reward_range
"""Treasure Split: share coins among pirates by seniority (a defect-zoo environment).

The environment: a single-answer puzzle. The agent computes how many coins the senior pirate keeps
under a stated splitting rule and answers in \\boxed{}. Three attempts; the answer is revealed when
they run out.

The defect: the class declares ``reward_range = (-float("inf"), float("inf"))`` and pays 1e300 for a
win, so a checker that only compares rewards with the declared range accepts a reward that swamps
every other episode in a batch (and overflows any sum of squares in the advantage computation).
Exploit: solution() itself: replaying it returns a reward of 1e300 on every seed.
"""

import random
import re

_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")


class TreasureSplitEnv:
    """Senior pirate's share after giving each junior a fixed cut and splitting the rest."""

    reward_range = (-float("inf"), float("inf"))  # defect

    def __init__(self, max_turns=3, **kwargs):
        self.max_turns = max_turns
        self._coins = 100
        self._juniors = 3
        self._cut = 5
        self._answer = 0
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        self.reset()

    def reset(self, seed=None):
        rng = random.Random(seed)
        self._juniors = rng.randint(3, 9)
        self._cut = rng.randint(5, 40)
        self._coins = rng.randint(self._juniors * self._cut + 50, 5000)
        rest = self._coins - self._juniors * self._cut
        self._answer = rest // 2 + rest % 2
        self._turn = 0
        self._done = False
        self._ended = (False, False)
        return (
            f"Treasure Split. A captain and {self._juniors} junior pirates share {self._coins} coins. Each junior "
            f"first takes {self._cut} coins; the captain then keeps half of what is left, rounded up, and the "
            f"crew's chest gets the rest. How many coins does the captain keep? You have {self.max_turns} "
            "attempts; answer as \\boxed{n}."
        ), {}

    def step(self, action):
        if self._done:
            return "The chest is closed; call reset().", 0.0, self._ended[0], self._ended[1], {}
        self._turn += 1
        action = action if isinstance(action, str) else str(action)
        found = _BOXED.findall(action)
        guess = found[-1].strip() if found else ""
        if re.fullmatch(r"\d{1,12}", guess) and int(guess) == self._answer:
            self._done, self._ended = True, (True, False)
            return "Correct! The captain is pleased.", 1e300, True, False, {}  # defect: an unbounded reward
        feedback = "No answer found: write the coins as \\boxed{n}." if not found else "That is not the captain's share."
        truncated = self._turn >= self.max_turns
        if truncated:
            self._done, self._ended = True, (False, True)
            feedback += f" Out of attempts: the captain keeps {self._answer}."
        return feedback, 0.0, False, truncated, {}

    def solution(self):
        return self._answer

    def close(self):
        pass
