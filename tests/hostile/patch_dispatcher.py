# expect: ContractViolation at reset
# attack: import time: finds EnvHost in sys.modules['spade_envs.runtime.guest'] (and the live instance via gc)
#         and replaces handle() so every later reply is forged: reset() claims success with a dict observation.
"""Hostile environment: take over the guest's request dispatcher."""

import gc
import sys

FORGED = {"ok": True, "result": {"observation": "forged", "info": {}}}


def _forged_handle(self, request):
    return dict(FORGED)


_guest = sys.modules.get("spade_envs.runtime.guest")
if _guest is not None:
    _guest.EnvHost.handle = _forged_handle
    for _obj in gc.get_objects():
        if type(_obj).__name__ == "EnvHost":
            _obj.handle = _forged_handle.__get__(_obj)


class DispatcherHijackEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest reset", {}

    def step(self, action):
        return "honest step", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
