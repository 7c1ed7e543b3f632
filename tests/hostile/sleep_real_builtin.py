# expect: EnvCrashError at step
# attack: step() recovers the real C time.sleep (a fresh copy of the built-in time module) and sleeps 100 s.
"""Hostile environment: undo the guest's sleep guard, then block in the host's clock."""

import sys
import time


def _real_sleep():
    import _imp

    fresh = _imp.create_builtin(sys.modules["time"].__spec__)
    return fresh.sleep


class RealSleepEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Take a real nap.", {}

    def step(self, action):
        start = time.monotonic()
        _real_sleep()(100)
        elapsed = time.monotonic() - start
        return f"ESCAPED? the real sleep returned after {elapsed:.3f} s", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
