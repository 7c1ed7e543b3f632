# expect: EnvTimeoutError|EnvMemoryError at step
# attack: step() computes 10**10**8 (a 100-million-digit integer).
"""Hostile environment: huge integer arithmetic."""


class HugeIntEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Count high.", {}

    def step(self, action):
        exponent = 10**8
        value = 10**exponent
        return str(value % 7), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
