# verdict: any
# static: passes
# barrier: any
# attack: answers like \boxed{7e5000} and a hint(): the hint-leak check turned the answer into a
#         Fraction and then into a 5,000-digit string.
import random
import re


class BigAnswerEnv:
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
        self.target = f"{self.rng.randint(1, 9)}e{self.rng.randint(4000, 6000)}"
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
        return "\\boxed{" + self.target + "}"

    def hint(self):
        return "Copy the code exactly as it is written."

    def close(self):
        pass
