# expect: EnvMemoryError at reset
# attack: reset() doubles a bytes object until it cannot (then tries one 2 GiB bytearray).
"""Hostile environment: exponential bytes growth."""


class MemoryBytesEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        blob = b"x" * 1024
        while True:
            blob = blob + blob
            if len(blob) > (1 << 30):
                bytearray(1 << 31)

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
