# expect: EnvCrashError at step
# attack: step() forges a reply nested 100,000 levels deep ("[[[[...]]]]"), valid JSON that a naive decoder
#         recurses into.
"""Hostile environment: a deeply nested forged reply."""

import sys

DEEP = '{"ok": true, "result": ["o", 0.0, false, false, {"x": ' + "[" * 100_000 + "]" * 100_000 + "}]}"


class JsonDeepEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        sys.modules["guest_app"]._dumps = lambda *a, **k: DEEP
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
