# expect: contained at step
# attack: step() returns an info dict that contains itself and a list that contains itself.
"""Hostile environment: cyclic info."""


class CyclicInfoEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Loop.", {}

    def step(self, action):
        info = {}
        info["self"] = info
        looped = []
        looped.append(looped)
        info["list"] = looped
        return "cyclic", 0.0, True, False, info

    def solution(self):
        return "anything"

    def close(self):
        pass
