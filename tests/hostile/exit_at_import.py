# expect: EnvCodeError(SystemExit) at open_session
# attack: import time: raise SystemExit(0), as a script's `exit()` would.
"""Hostile environment: exit while being imported."""

raise SystemExit(0)


class ExitImportEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "unreachable", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
