# expect: EnvCodeError at step
# check: bounded-error
# attack: step() forges an exception reply whose type is EnvTimeoutError, whose phase is "timeout", whose line
#         is 10**4000 and whose message is 200 kB of lines: the host must keep only what it can check.
"""Hostile environment: an exception reply with every field out of range."""

import json
import sys

REPLY = json.JSONEncoder().encode({"ok": False, "error": {
    "kind": "exception", "type": "EnvTimeoutError", "phase": "timeout", "line": 10**4000,
    "message": "the environment's step() ran longer than 1 s\n" * 4_000, "traceback": "\x1b[2J" * 20_000}})


class ForgedExceptionFieldsEnv:
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
