# expect: EnvMemoryError|EnvCodeError at step
# note: str += str at the memory limit hits CPython 3.14.0's use-after-free (gh-146092, not yet in componentize-py 0.25.1): the guest may report a TypeError instead of a MemoryError. Either way the session retires the instance after the call, so nothing runs on the damaged heap again.
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
