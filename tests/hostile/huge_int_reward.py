# expect: ContractViolation|EnvCrashError at step
# attack: step() returns a 400-digit integer as its reward.
"""Hostile environment: a reward no float can hold."""


class HugeIntRewardEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Win big.", {}

    def step(self, action):
        return "you win", 10**400, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
