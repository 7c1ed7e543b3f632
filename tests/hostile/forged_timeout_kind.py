# expect: EnvCrashError at step
# attack: step() forges an error reply of kind "timeout" with the host's own wording: only the host can time a
#         call, so the reply is a protocol violation (EnvCrashError), never an EnvTimeoutError.
"""Hostile environment: claim a timeout the host never saw."""

import json
import sys

REPLY = json.JSONEncoder().encode(
    {"ok": False, "error": {"kind": "timeout", "message": "the environment's step() ran longer than 1 s"}}
)


class ForgedTimeoutKindEnv:
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
