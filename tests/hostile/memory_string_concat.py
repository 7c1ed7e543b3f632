# expect: EnvMemoryError at step
# weakness: str += str at the memory limit corrupts the guest heap (CPython use-after-free): the call ends in EnvCodeError(TypeError "unsupported operand type(s) for +=: '' and ''"), not EnvMemoryError, so the session keeps serving from a corrupted interpreter
# attack: step() grows a str by concatenation (s += s), the path of CPython's use-after-free at the memory limit.
"""Hostile environment: string concatenation until memory runs out."""


class MemoryStringEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Repeat after me.", {}

    def step(self, action):
        text = "abc" * 1000
        while True:
            text += text

    def solution(self):
        return "anything"

    def close(self):
        pass
