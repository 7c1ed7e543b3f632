# expect: EnvCrashError|ContractViolation|contained at step
# attack: step() forges a reply whose info is nested 900 levels: shallow enough for the host's json.loads,
#         deep enough to break ordinary host code that walks it (copy.deepcopy, recursive loggers).
"""Hostile environment: a nesting bomb aimed at the code that consumes info."""

import sys

DEPTH = 900
REPLY = '{"ok": true, "result": ["o", 0.0, false, false, ' + '{"a": ' * DEPTH + "1" + "}" * DEPTH + "]}"


class ForgedDeepInfoEnv:
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
