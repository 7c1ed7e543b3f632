# expect: contained at step
# observation: flooded
# attack: step() prints 100 MB (print, sys.stdout.write, sys.stderr, sys.__stdout__) to flood the host's output.
"""Hostile environment: an output flood through Python's streams."""

import sys

CHUNK = "HOSTILE-FLOOD " * 75_000  # about 1 MB


def _write(stream):
    try:
        stream.write(CHUNK)
        stream.flush()
    except Exception:  # noqa: BLE001 -- a stream may be missing; keep flooding the others
        pass


class PrintFloodEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Say a lot.", {}

    def step(self, action):
        for _ in range(100):
            print(CHUNK)
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            for _ in range(5):
                _write(stream)
        return "flooded", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
