# expect: EnvCrashError at step
# attack: step() makes the guest runtime's json.dumps return a prebuilt 12 MB string (no copy in the guest).
# note: the host converts the whole reply to a Python str before its size check: measured with memory_mb=256,
#       a forged 100 MB reply raised the host's peak RSS by about 400 MB before it was rejected.
"""Hostile environment: a huge forged reply that skips every guest-side size check."""

import sys



class JsonHugeEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        big = "".join(['{"ok": true, "result": ["', "h" * (12 << 20), '", 0.0, true, false, {}]}'])
        sys.modules["guest_app"]._dumps = lambda *a, **k: big
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
