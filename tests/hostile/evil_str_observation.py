# expect: ContractViolation|contained at step
# observation: innocent
# attack: step() returns a str subclass whose __eq__/__hash__/__str__/__len__/__repr__/strip loop forever.
"""Hostile environment: an observation that is dangerous to touch."""


class EvilStr(str):
    def _loop(self, *args, **kwargs):
        while True:
            pass

    __eq__ = __ne__ = __hash__ = __str__ = __repr__ = __len__ = __iter__ = __getitem__ = _loop
    strip = encode = lower = startswith = _loop


class EvilStrEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Watch the next observation.", {}

    def step(self, action):
        return EvilStr("innocent"), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
