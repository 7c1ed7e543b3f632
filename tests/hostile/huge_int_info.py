# expect: EnvCrashError at step
# attack: step() lifts the int-to-str digit limit and returns a 100,000-digit integer in info.
"""Hostile environment: an integer too long for the host's JSON decoder."""

import sys


class HugeIntInfoEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Count.", {}

    def step(self, action):
        sys.set_int_max_str_digits(0)
        return "counted", 0.0, True, False, {"n": 10**100_000}

    def solution(self):
        return "anything"

    def close(self):
        pass
