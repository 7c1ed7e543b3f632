# expect: EnvCrashError at reset
# attack: reset() blocks in select.poll().poll(100_000) on stdin.
"""Hostile environment: block in poll() with a 100 s timeout."""

import select


class PollEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        poller = select.poll()
        poller.register(0, select.POLLIN)
        poller.poll(100_000)
        return "ESCAPED? poll returned", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
