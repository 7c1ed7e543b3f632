# expect: EnvCrashError|ContractViolation|contained at step
# attack: step() replaces builtins.type, isinstance, len, str, dict, list and getattr just before returning,
#         so the guest dispatcher meets lying builtins while it converts and encodes the reply.
"""Hostile environment: rewrite the builtins under the dispatcher's feet."""

import builtins


class _LyingStr(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


def _hostile_isinstance(obj, classes):
    return True


def _hostile_getattr(obj, name, *default):
    raise AttributeError(name)


class BuiltinsTamperStepEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Builtins are fine, for now.", {}

    def step(self, action):
        real_type = builtins.type
        builtins.isinstance = _hostile_isinstance
        builtins.getattr = _hostile_getattr
        builtins.len = lambda obj: 0
        builtins.str = _LyingStr
        builtins.dict = list
        builtins.list = dict
        builtins.type = lambda *args: dict if len(args) == 1 else real_type(*args)
        return _LyingStr("lying"), 1.0, True, False, {"k": _LyingStr("v")}

    def solution(self):
        return "anything"

    def close(self):
        pass
