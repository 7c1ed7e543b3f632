# expect: EnvTimeoutError|EnvMemoryError at reset
# attack: reset() calls pow(3, 10**9) and math.factorial(10**7).
"""Hostile environment: pow with a huge exponent."""

import math


class HugePowEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        value = pow(3, 10**9) + math.factorial(10**7)
        return f"digits: {value.bit_length()}", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
