# expect: EnvMemoryError at step
# attack: step() returns a 60 MB observation (the session's memory cap is 64 MB).
"""Hostile environment: a huge return value."""


class HugeObservationEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Read this carefully.", {}

    def step(self, action):
        return "x" * (60 << 20), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
