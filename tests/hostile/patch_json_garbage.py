# expect: EnvCrashError at step
# attack: step() replaces the guest runtime's json.dumps with one that returns invalid JSON.
"""Hostile environment: garbage on the wire."""

import json
import sys


def _garbage(*args, **kwargs):
    return '{"ok": true, "result": ["half a reply'


class JsonGarbageEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        json.dumps = _garbage
        sys.modules["guest_app"]._dumps = _garbage
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
