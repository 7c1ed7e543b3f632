# expect: EnvCrashError at step
# attack: step() makes the guest return a reply string holding a lone surrogate (not encodable as UTF-8),
#         which the component boundary must lower as a string.
"""Hostile environment: an unencodable string across the component boundary."""

import sys


class SurrogateReplyEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        sys.modules["guest_app"]._dumps = lambda *a, **k: '{"ok": true, "result": ["\ud800", 0.0, true, false, {}]}'
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
