# expect: contained at step
# attack: step() returns an info dict nested 1,200 levels deep (a naive host json.loads would raise RecursionError).
"""Hostile environment: deeply nested info."""


class DeepInfoEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Dig.", {}

    def step(self, action):
        info = {}
        node = info
        for _ in range(1200):
            node["d"] = {}
            node = node["d"]
        return "deep", 0.0, True, False, info

    def solution(self):
        return "anything"

    def close(self):
        pass
