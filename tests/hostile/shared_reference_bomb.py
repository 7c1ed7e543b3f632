# expect: EnvTimeoutError|EnvMemoryError|EnvCrashError at step
# attack: step() returns an info list whose one leaf is shared 2**30 times through a chain of doubling lists
#         (a "billion laughs" made of references): tiny in memory, astronomically large once copied out.
"""Hostile environment: exponentially shared info."""


class SharedReferenceBombEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Laugh.", {}

    def step(self, action):
        laugh = ["lol"]
        for _ in range(30):
            laugh = [laugh, laugh]
        return "laughing", 0.0, True, False, {"laughs": laugh}

    def solution(self):
        return "anything"

    def close(self):
        pass
