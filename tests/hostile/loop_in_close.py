# expect: contained at close
# attack: close() never returns; session.close() must still return promptly without raising.
"""Hostile environment: hang in close()."""


class HangingCloseEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Say anything.", {}

    def step(self, action):
        return "fine", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        while True:
            pass
