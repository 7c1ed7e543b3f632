# expect: ContractViolation at step
# attack: step() returns float('nan') as its reward.
"""Hostile environment: a reward that poisons every average it enters."""


class NanRewardEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Watch the reward.", {}

    def step(self, action):
        return "nan", float("nan"), True, False, {"score": float("nan")}

    def solution(self):
        return "anything"

    def close(self):
        pass
