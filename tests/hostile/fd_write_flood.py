# expect: contained at step
# observation: flooded
# attack: step() writes 100 MB straight to file descriptors 1 and 2 with os.write, below Python's streams.
"""Hostile environment: an output flood below sys.stdout."""

import os

CHUNK = b"HOSTILE-FD-FLOOD " * 62_000  # about 1 MB


class FdFloodEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Say a lot, quietly.", {}

    def step(self, action):
        written = 0
        for fd in (1, 2):
            for _ in range(50):
                try:
                    written += os.write(fd, CHUNK)
                except OSError:
                    break
        return "flooded", 0.0, True, False, {"written": written}

    def solution(self):
        return "anything"

    def close(self):
        pass
