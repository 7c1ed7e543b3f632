# expect: EnvCodeError(HostileError) at step
# attack: step() raises an exception whose __str__/__repr__ loop forever, whose args is a looping property and
#         whose class name comes from a metaclass: describing the error must never run environment code.
"""Hostile environment: an exception that is dangerous to print."""


class HostileError(Exception):
    def __str__(self):
        while True:
            pass

    def __repr__(self):
        while True:
            pass

    def __getattribute__(self, name):
        if name in ("__str__", "__repr__", "__traceback__", "args", "__class__"):
            return object.__getattribute__(self, name)
        while True:
            pass


class _LoopingStr(str):
    def __str__(self):
        while True:
            pass

    def __repr__(self):
        while True:
            pass


class EvilExceptionEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Don't look at the error.", {}

    def step(self, action):
        raise HostileError(_LoopingStr("hostile"), object())

    def solution(self):
        return "anything"

    def close(self):
        pass
