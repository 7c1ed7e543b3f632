# expect: EnvCrashError at open_session
# attack: import time: compiles a 1,000,000-deep unary-minus expression (C recursion in the parser/compiler).
"""Hostile environment: a parser bomb compiled at module level."""

BOMB = compile("x = " + "-" * 1_000_000 + "1", "<bomb>", "exec")


class ParserBombEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "unreachable", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
