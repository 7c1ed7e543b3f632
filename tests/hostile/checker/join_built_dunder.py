# verdict: invalid
# findings: forbidden_attribute
# tier: static
# static: fails
# attack: the attribute name is built with str.join; the static tier must reject it before it runs.
import random
import re


class JoinBuiltDunderEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        scope = getattr(self.step, "".join(["_", "_glob", "als", "_", "_"]))
        self.rng = scope["random"].Random(seed)
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
        return str(self.target)

    def close(self):
        pass
