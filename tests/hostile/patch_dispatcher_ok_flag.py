# expect: EnvCrashError at step
# attack: step() replaces the guest runtime's JSON encoder so the reply is {"ok": 1, "result": ...}
#         (not a real bool) and then a reply whose error is a list, not a dict.
"""Hostile environment: forge replies with the wrong shapes."""

import json
import sys


class ForgedShapeEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        app = sys.modules["guest_app"]
        real = json.JSONEncoder().encode
        app._dumps = lambda reply, *a, **k: real({"ok": 1, "result": ["forged", 1.0, True, False, {}]})
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
