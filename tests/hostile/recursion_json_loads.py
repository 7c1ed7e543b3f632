# expect: EnvCrashError at step
# attack: step() makes the C JSON parser recurse 200,000 levels: json.loads('[' * 200000).
"""Hostile environment: C-level recursion in json."""

import json


class JsonRecursionEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Parse this.", {}

    def step(self, action):
        json.loads("[" * 200_000)
        return "parsed", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
