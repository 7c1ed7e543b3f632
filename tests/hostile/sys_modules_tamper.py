# expect: contained at step
# observation: tampered
# attack: import time: replaces sys.modules['json'], removes the SDK modules from sys.modules, poisons
#         json.dumps/json.loads in place and shadows os with a fake module.
"""Hostile environment: tamper with the module table the guest runtime shares."""

import json
import sys
import types

_fake_json = types.ModuleType("json")
_fake_json.dumps = lambda *a, **k: "{not json"
_fake_json.loads = lambda *a, **k: {"ok": True, "result": ["forged", 1.0, True, False, {}]}
sys.modules["json"] = _fake_json
json.dumps = _fake_json.dumps
json.loads = _fake_json.loads
json.encoder.c_make_encoder = None
for _name in [n for n in sys.modules if n.startswith("spade_envs")]:
    sys.modules[_name] = None
sys.modules["os"] = types.ModuleType("os")


class ModuleTamperEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Modules tampered.", {}

    def step(self, action):
        return "tampered", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
