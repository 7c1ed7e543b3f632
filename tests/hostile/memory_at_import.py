# expect: EnvMemoryError at open_session
# attack: import time: allocates a 512 MB bytearray at module level.
"""Hostile environment: a memory bomb while loading."""

BIG = bytearray(512 << 20)


class MemoryImportEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "unreachable", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
