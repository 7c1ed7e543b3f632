# expect: EnvCrashError at step
# attack: step() forges an error reply with an unknown kind, a non-str message object and a bogus line number.
"""Hostile environment: a forged error reply the host has never heard of."""

import json
import sys

REPLY = json.JSONEncoder().encode(
    {"ok": False, "error": {"kind": "rootkit", "message": {"nested": ["object"]}, "line": "NaN", "type": 42}}
)


class ForgedErrorEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        sys.modules["guest_app"]._dumps = lambda *a, **k: REPLY
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
