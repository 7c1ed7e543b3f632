# expect: EnvCrashError at step
# attack: step() delivers SIGTERM to its own interpreter with _signal.raise_signal (default action: die).
"""Hostile environment: make the interpreter terminate itself through a signal."""

import _signal


class RaiseSignalEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Terminate.", {}

    def step(self, action):
        _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
        _signal.raise_signal(_signal.SIGTERM)
        return "ESCAPED: still alive after SIGTERM", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
