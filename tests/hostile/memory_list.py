# expect: EnvMemoryError at step
# attack: step() appends to a list until memory runs out.
"""Hostile environment: an unbounded list."""


class MemoryListEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Remember everything.", {}

    def step(self, action):
        hoard = []
        while True:
            hoard.append([0] * 100_000)

    def solution(self):
        return "anything"

    def close(self):
        pass
