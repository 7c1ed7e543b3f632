# expect: EnvCodeError(SystemExit) at open_session
# attack: __init__() calls the site builtin exit() (or quit(), or raises SystemExit when site is absent).
"""Hostile environment: exit from the constructor."""

import builtins


class ExitInitEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        leave = getattr(builtins, "exit", None) or getattr(builtins, "quit", None)
        if leave is None:
            raise SystemExit(1)
        leave(1)

    def reset(self, seed=None):
        return "unreachable", {}

    def step(self, action):
        return "unreachable", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
