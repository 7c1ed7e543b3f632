# expect: EnvCodeError(SystemExit) at step
# attack: step() calls sys.exit(3).
"""Hostile environment: exit the interpreter politely."""

import sys


class SysExitEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Leave.", {}

    def step(self, action):
        sys.exit(3)

    def solution(self):
        return "anything"

    def close(self):
        pass
