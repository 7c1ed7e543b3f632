# expect: blocked at reset
# attack: import time: os.system / posix.system / os.spawnlp to touch the canary file.
"""Hostile environment: shell out while the module is being imported."""

import os

CANARY = "@CANARY@"
RESULTS = []


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        RESULTS.append((f"{label}={type(error).__name__}", False))
    else:
        RESULTS.append((f"{label}=SUCCEEDED({str(result)[:40]!r})", True))


_attempt("os_system", lambda: os.system(f"touch {CANARY}"))
_attempt("posix_system", lambda: __import__("posix").system(f"touch {CANARY}"))
_attempt("spawnlp", lambda: os.spawnlp(os.P_WAIT, "touch", "touch", CANARY))
_attempt("dunder_import_system", lambda: __import__("os").__dict__["system"](f"touch {CANARY}"))


class ShellAtImportEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        escaped = any(ok for _, ok in RESULTS)
        return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in RESULTS), {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
