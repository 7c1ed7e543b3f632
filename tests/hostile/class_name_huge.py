# expect: contained at step
# check: class-name-bounded
# attack: the environment class names itself with 300,000 characters of escape sequences and newlines; the host
#         keeps a bounded name.
"""Hostile environment: a class name no report line can hold."""


class HugeNameEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "a long name", {}

    def step(self, action):
        return "still here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass


HugeNameEnv.__name__ = "Huge" + "\x1b[2J\n" * 50_000 + "Env"
