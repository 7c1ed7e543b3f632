# expect: ContractViolation at step
# attack: step() returns a float subclass reward whose __float__/__repr__/__eq__/__lt__ loop, and an int-like terminated.
"""Hostile environment: a reward that is dangerous to compare."""


class EvilFloat(float):
    def _loop(self, *args, **kwargs):
        while True:
            pass

    __float__ = __repr__ = __str__ = __eq__ = __lt__ = __gt__ = __hash__ = __bool__ = __add__ = _loop


class EvilInt(int):
    def __bool__(self):
        while True:
            pass


class EvilFloatEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Watch the reward.", {}

    def step(self, action):
        return "rewarded", EvilFloat(1.0), EvilInt(1), False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
