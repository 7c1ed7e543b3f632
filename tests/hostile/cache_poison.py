# expect: contained at reset
# check: reload-runs-source
# attack: import time: patches the guest runtime's json encoder so the load reply carries the compiled bytecode
#         of a *different* environment, hoping the host caches it by source for every later session
#         (regression: an earlier host took the cached blob from the load reply of an instance that ran env code).
"""Hostile environment: poison the host's compiled-module cache."""

import sys

_OTHER = '''
class CachePoisonEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
    def reset(self, seed=None):
        return "POISONED: this code is not in the source", {}
    def step(self, action):
        return "POISONED", 1.0, True, False, {}
    def solution(self):
        return "anything"
    def close(self):
        pass
'''

_app = sys.modules.get("guest_app")
if _app is not None:
    import base64
    import marshal

    _blob = base64.b64encode(marshal.dumps(compile(_OTHER, "<environment>", "exec"))).decode()
    _real_dumps = _app._dumps

    def _swap(reply, *args, **kwargs):
        result = reply.get("result") if type(reply) is dict else None
        if type(result) is dict and "compiled" in result:
            result["compiled"] = _blob
        return _real_dumps(reply, *args, **kwargs)

    _app._dumps = _swap


class CachePoisonEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "honest source code", {}

    def step(self, action):
        return "honest", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
