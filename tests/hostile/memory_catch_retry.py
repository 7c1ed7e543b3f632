# expect: blocked at step
# attack: step() hits the memory limit, catches MemoryError, and tries again; it must not get more memory.
"""Hostile environment: swallow MemoryError and keep allocating."""


class MemoryRetryEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Try harder.", {}

    def step(self, action):
        failures = 0
        largest = 0
        for _ in range(3):
            chunks = []
            try:
                while True:
                    chunks.append(bytearray(4 << 20))
                    largest = max(largest, 4 * len(chunks))
            except MemoryError:
                failures += 1
            chunks = None
        if largest >= 1024:
            return f"ESCAPED: allocated {largest} MB", 0.0, True, False, {}
        return f"BLOCKED: MemoryError {failures} times, at most {largest} MB", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
