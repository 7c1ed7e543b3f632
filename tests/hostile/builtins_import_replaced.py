# expect: contained at step
# observation: patched
# attack: import time: replaces builtins.__import__ with a function that returns a fake module for everything
#         and hides the real one, then imports json/os again; the guest runtime and the host must not care.
"""Hostile environment: hijack the import statement for everything that runs after it."""

import builtins
import types

_REAL_IMPORT = builtins.__import__


def _fake_import(name, *args, **kwargs):
    fake = types.ModuleType(name)
    fake.dumps = lambda *a, **k: "HIJACKED"
    fake.loads = lambda *a, **k: {"ok": True, "result": "HIJACKED"}
    fake.system = lambda *a, **k: 0
    return fake


builtins.__import__ = _fake_import


class ImportHijackEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        import json  # noqa: F401 -- goes through the fake import

        self.json = json

    def reset(self, seed=None):
        return "Imports are mine now.", {}

    def step(self, action):
        import os

        os.system("touch @CANARY@")
        return "patched", 0.0, True, False, {"json": self.json.dumps({})}

    def solution(self):
        return "anything"

    def close(self):
        pass
