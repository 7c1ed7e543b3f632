# expect: EnvLoadError|ContractViolation at open_session
# attack: the class declares reward_range = (nan, 1.0): no reward would ever be judged in or out of range.
"""Hostile environment: a reward range no comparison can use."""


class NanRewardRangeEnv:
    reward_range = (float("nan"), 1.0)

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "reset", {}

    def step(self, action):
        return "step", 0.5, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
