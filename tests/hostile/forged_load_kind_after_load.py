# expect: EnvCrashError at step
# attack: once loaded, step() answers with an error of kind "load", which used to keep the broken session
#         (and its patched runtime) alive, so reset() never replaced it.
"""Hostile environment: a load error where no load happens."""

import json
import sys

REPLY = json.JSONEncoder().encode({"ok": False, "error": {"kind": "load", "message": "no class found"}})


class ForgedLoadKindEnv:
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
