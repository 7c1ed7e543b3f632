# expect: EnvCrashError at step
# attack: step() returns a 4 MB observation and a 1 MB info string: over the 1 MiB reply limit, within memory.
"""Hostile environment: a reply larger than the host accepts."""


class BigObservationEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Read this carefully.", {}

    def step(self, action):
        return "y" * (4 << 20), 0.0, True, False, {"also": "z" * (1 << 20)}

    def solution(self):
        return "anything"

    def close(self):
        pass
