# expect: EnvCrashError at step
# attack: step() builds a 300,000-deep nested list and repr()s it (C recursion in list repr).
"""Hostile environment: C-level recursion in repr."""


class NestedReprEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Describe this.", {}

    def step(self, action):
        nested = []
        for _ in range(300_000):
            nested = [nested]
        return repr(nested)[:100], 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
