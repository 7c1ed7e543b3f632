# expect: EnvTimeoutError at open_session
# attack: import time: an infinite loop at module level (also catches every exception it can).
"""Hostile environment: never finish being imported."""

while True:
    try:
        while True:
            pass
    except BaseException:  # noqa: BLE001 -- tries to swallow the interrupt
        continue


class LoopImportEnv:
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
