# expect: EnvCrashError at step
# attack: step() raises the recursion limit to 10**6 and then recurses: must end in a sandbox trap, never a host crash.
"""Hostile environment: lift the recursion guard and overflow the native (wasm) stack."""

import sys


def _descend(n):
    return _descend(n + 1) + 1


class DeepRecursionEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Go much deeper.", {}

    def step(self, action):
        sys.setrecursionlimit(10**6)
        return str(_descend(0)), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
