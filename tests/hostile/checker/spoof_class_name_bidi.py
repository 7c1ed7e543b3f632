# verdict: invalid
# findings: feasible
# tier: feasibility
# static: passes
# attack: the class name carries bidirectional overrides and isolates, zero-width characters and a NUL, so
#         the report line reads differently from what it says (type() itself refuses a NUL).
import random
import re


class SpoofBidiEnv:
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
        return str(self.target + 1)  # never wins: the verdict is a feasible failure

    def close(self):
        pass


SpoofBidiEnv.__name__ = "Spoof\u202eLIAF\u202c\u2066ok\u2069\u200b\u200d\x7f\x9bBidiEnv"
