# verdict: any
# static: passes
# slow: host time, until the barrier
# barrier: any
# attack: answers like 7e30000000 with a hint(): Fraction() of one held the GIL for 43 s of host time.
import random
import re


class HugeExponentEnv:
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
        self.target = f"{self.rng.randint(1, 9)}e{self.rng.randint(29_000_000, 31_000_000)}"
        return (f"Type the code, answer as \\boxed{{code}}: the digit {self.target[0]}, the letter e, then "
                f"{self.target[2:]}, with no spaces."), {}

    def step(self, action):
        if self.done:
            return "over", 0.0, True, False, {}
        self.turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        if found and found[-1].strip() == self.target:
            self.done = True
            return "correct", 1.0, True, False, {}
        self.done = self.turn >= self.max_turns
        return "wrong", 0.0, False, self.done, {}

    def solution(self):
        return self.target

    def hint(self):
        return "Copy the code exactly as it is written."

    def close(self):
        pass
