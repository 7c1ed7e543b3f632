# expect: blocked at step
# attack: step() sleeps 100 s with time.sleep (and asyncio-free variants); the sandbox must not wait.
"""Hostile environment: stall the host's worker by sleeping."""

import time


class SleepEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Take a nap.", {}

    def step(self, action):
        start = time.monotonic()
        time.sleep(100)
        time.sleep(1e9)
        elapsed = time.monotonic() - start
        if elapsed < 5:
            return f"BLOCKED: time.sleep returned after {elapsed:.3f} s", 0.0, True, False, {}
        return f"ESCAPED: slept {elapsed:.1f} s", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
