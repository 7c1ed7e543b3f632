# expect: EnvCodeError(KeyboardInterrupt) at reset
# attack: reset() raises KeyboardInterrupt: the host must not mistake it for a Ctrl-C of its own.
"""Hostile environment: fake a Ctrl-C."""


class KeyboardInterruptEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        raise KeyboardInterrupt

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
