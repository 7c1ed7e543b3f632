# expect: ContractViolation at step
# attack: step() returns float('inf') as its reward (and -inf in info).
"""Hostile environment: an unbounded reward."""


class InfRewardEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Watch the reward.", {}

    def step(self, action):
        return "inf", float("inf"), True, False, {"floor": float("-inf")}

    def solution(self):
        return "anything"

    def close(self):
        pass
