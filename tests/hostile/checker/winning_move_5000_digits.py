# verdict: any
# static: passes
# slow: the fuzzer needs its full budget of examples to draw a mutation of a winning move
# barrier: any
# attack: each of the ten winning moves holds a 5,000-digit number, which the fuzzer's mutations passed to
#         int() (Python refuses to convert more than 4,300 digits).
import random
import re


class LongNumberEnv:
    """Guess the hidden number; one guess per turn."""

    def __init__(self, max_turns=12, **kwargs):
        self.max_turns = max_turns
        self.reset()

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.target = ''.join(str(self.rng.randint(0, 9)) for _ in range(4999)) + '7'
        self.right = 0
        self.offset = self.rng.randint(2, 9)
        self.turn = 0
        self.done = False
        return f"Say the number ten times, one \\boxed{{n}} a turn. It is {self.target[:-1]}4 plus 3.", {}

    def step(self, action):
        if self.done:
            return "over", 0.0, True, False, {}
        self.turn += 1
        found = re.findall(r"\\boxed\{([^{}]*)\}", action)
        if found and found[-1].strip() == self.target:
            self.right += 1
        if self.right >= 10:
            self.done = True
            return "correct", 1.0, True, False, {}
        self.done = self.turn >= self.max_turns
        return "wrong", 0.0, False, self.done, {}

    def solution(self):
        return ['\\boxed{' + self.target + '}'] * 10

    def close(self):
        pass
