# expect: EnvCrashError|EnvMemoryError at step
# attack: step() lifts the guest's captured-output limit and prints 16 MB, so the reply carries it all.
"""Hostile environment: smuggle a huge reply through captured print output."""

import sys


class OutputLimitBypassEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Say a lot.", {}

    def step(self, action):
        app = sys.modules.get("guest_app")
        if app is not None:
            app._output.limit = 1 << 40
            app._max_reply_chars = 1 << 40
        stream = sys.stdout
        if hasattr(stream, "limit"):
            stream.limit = 1 << 40
        for _ in range(16):
            print("p" * (1 << 20))
        return "printed", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
