# expect: EnvCodeError(RecursionError) at step
# attack: step() recurses without bound in Python code.
"""Hostile environment: Python-level deep recursion."""


def _descend(n):
    return _descend(n + 1) + 1


class RecursionEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Go deeper.", {}

    def step(self, action):
        return str(_descend(0)), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
