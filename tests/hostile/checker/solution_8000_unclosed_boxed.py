# verdict: invalid
# static: passes
# slow: host time, until the barrier
# barrier: invalid "solution"
# attack: solution() returns 8,000 unclosed \boxed{ and hint() exists: the host's quadratic extraction of the
#         answer for the leak check took 32 s.
import random
import re


class UnclosedBoxEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.target = self.rng.randint(100, 999)
        self.offset = self.rng.randint(2, 9)
        self.turn = 0
        self.done = False
        return f"Guess the number, answer as \\boxed{{n}}. It is {self.target - self.offset} plus {self.offset}.", {}

    def step(self, action):
        if self.done:
            return "over", 0.0, True, False, {}
        self.turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        if found and found[-1].strip() == str(self.target):
            self.done = True
            return "correct", 1.0, True, False, {}
        self.done = self.turn >= self.max_turns
        return "wrong", 0.0, False, self.done, {}

    def solution(self):
        return "\\boxed{" * 8000

    def hint(self):
        return "Count the digits before you guess."

    def close(self):
        pass
