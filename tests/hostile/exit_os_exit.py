# expect: EnvCrashError at step
# attack: step() calls os._exit(0), which skips every handler.
"""Hostile environment: exit the interpreter abruptly."""

import os


class OsExitEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Leave now.", {}

    def step(self, action):
        os._exit(0)

    def solution(self):
        return "anything"

    def close(self):
        pass
