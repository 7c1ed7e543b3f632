# expect: EnvCrashError at step
# attack: step() blocks in select.select([], [], [], 100), a wait the epoch interrupt cannot reach.
"""Hostile environment: block inside a host call with a long timeout."""

import select


class SelectEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Wait for input.", {}

    def step(self, action):
        select.select([], [], [], 100)
        return "ESCAPED? select returned", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
