# expect: EnvCrashError|EnvLoadError at open_session
# attack: import time: replaces builtins.str, len, isinstance, type, repr, getattr, dict, list and float with
#         hostile versions that lie or loop, to confuse the guest dispatcher's type checks.
"""Hostile environment: rewrite the builtins every other module in the guest relies on."""

import builtins

_real_type = builtins.type
_real_len = builtins.len


class _LyingStr(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


def _hostile_isinstance(obj, classes):
    return True


def _hostile_len(obj):
    return 0 if _real_type(obj) is not str else _real_len(obj)


def _hostile_getattr(obj, name, *default):
    raise AttributeError(name)


def _hostile_repr(obj):
    return "x" * 100


builtins.isinstance = _hostile_isinstance
builtins.len = _hostile_len
builtins.repr = _hostile_repr
builtins.getattr = _hostile_getattr
builtins.str = _LyingStr
builtins.float = lambda *a: float("nan")


class BuiltinsTamperEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Builtins are mine.", {}

    def step(self, action):
        builtins.type = lambda *a: dict
        builtins.dict = list
        builtins.list = dict
        return _LyingStr("lying"), 1.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
