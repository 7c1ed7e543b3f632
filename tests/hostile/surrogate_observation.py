# expect: ContractViolation|contained at step
# attack: step() returns an observation holding a lone surrogate and a NUL byte.
"""Hostile environment: text that is not valid Unicode."""


class SurrogateObservationEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Read this.", {}

    def step(self, action):
        return "broken \ud800 text \x00 end", 0.0, True, False, {"k\udfff": "v"}

    def solution(self):
        return "anything"

    def close(self):
        pass
