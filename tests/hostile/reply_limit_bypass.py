# expect: EnvCrashError at step
# attack: step() walks up its frames to the guest runtime's globals, lifts its reply and output limits,
#         then returns a 12 MB observation: the host must enforce its own limit.
"""Hostile environment: disable the guest-side size guards and send a huge reply."""

import sys


def _lift_guest_limits():
    lifted = []
    frame = sys._getframe(0)
    while frame is not None:
        glb = frame.f_globals
        if "_max_reply_chars" in glb:
            glb["_max_reply_chars"] = 1 << 40
            lifted.append("reply")
        out = glb.get("_output")
        if out is not None and hasattr(out, "limit"):
            out.limit = 1 << 40
            lifted.append("output")
        frame = frame.f_back
    app = sys.modules.get("guest_app")
    if app is not None:
        app._max_reply_chars = 1 << 40
        lifted.append("module")
    return lifted


class ReplyLimitBypassEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Read this carefully.", {}

    def step(self, action):
        lifted = _lift_guest_limits()
        return "w" * (12 << 20), 0.0, True, False, {"lifted": lifted}

    def solution(self):
        return "anything"

    def close(self):
        pass
