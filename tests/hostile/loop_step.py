# expect: EnvTimeoutError at step
# attack: step() never returns: a plain infinite loop.
"""Hostile environment: spin forever inside step()."""


class LoopStepEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Wait for me.", {}

    def step(self, action):
        n = 0
        while True:
            n += 1

    def solution(self):
        return "anything"

    def close(self):
        pass
