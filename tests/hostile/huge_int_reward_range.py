# expect: EnvLoadError|ContractViolation|EnvCrashError|contained at open_session
# attack: the class declares reward_range with a 400-digit bound and max_turns = 10**100.
"""Hostile environment: load metadata no float can hold."""


class HugeRewardRangeEnv:
    reward_range = (10**400, 1)

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = 10**100

    def reset(self, seed=None):
        return "Win big.", {}

    def step(self, action):
        return "you win", 1.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
