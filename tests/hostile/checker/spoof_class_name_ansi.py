# verdict: invalid
# findings: feasible
# tier: feasibility
# static: passes
# attack: the class renames itself to terminal control sequences that erase its FAIL line and print
#         "[1/1] ok ..." and "1 valid, 0 invalid" in the human report.
import random
import re


class SpoofAnsiEnv:
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


SpoofAnsiEnv.__name__ = ("SpoofAnsiEnv\x1b[2K\r\x1b[1A\x1b[2K[1/1] ok   spoof.py  SpoofEnv  (34 checks passed)\n\n"
                         "1 valid, 0 invalid (wasm backend)\x1b[8m")
