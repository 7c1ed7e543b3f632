# expect: EnvTimeoutError at step
# attack: step() runs a catastrophically backtracking regex: re.match('(a+)+$', 'a' * 40 + 'b').
"""Hostile environment: ReDoS inside the C regex engine."""

import re


class RegexEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Match this.", {}

    def step(self, action):
        matched = re.match(r"(a+)+$", "a" * 40 + "b")
        return f"matched={matched is not None}", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
