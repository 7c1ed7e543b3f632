# expect: contained at step
# attack: step() returns an info dict keyed by an object whose __hash__ is constant and whose __eq__/__str__/
#         __repr__ loop, plus a key that is a str subclass, a tuple key and an int key.
"""Hostile environment: info keys that are dangerous to hash or print."""


class EvilKey:
    def __hash__(self):
        return 1

    def __eq__(self, other):
        return True

    def __str__(self):
        while True:
            pass

    __repr__ = __str__


class EvilKeyStr(str):
    def __str__(self):
        while True:
            pass

    __repr__ = __str__

    def __hash__(self):
        return 7


class EvilInfoKeyEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Watch the info.", {}

    def step(self, action):
        info = {EvilKey(): 1, EvilKeyStr("k"): 2, ("t", 1): 3, 10**30: 4, None: 5}
        return "keys", 0.0, True, False, info

    def solution(self):
        return "anything"

    def close(self):
        pass
