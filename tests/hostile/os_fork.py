# expect: blocked at reset
# attack: reset() forks: os.fork, os.forkpty, os.register_at_fork, posix.fork.
"""Hostile environment: fork the interpreter (a fork bomb if it worked)."""

import os


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _fork():
    pid = os.fork()
    if pid == 0:  # pragma: no cover - only if the sandbox failed
        os._exit(0)
    return pid


class ForkEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        results = [
            _attempt("fork", _fork),
            _attempt("forkpty", lambda: os.forkpty()),
            _attempt("posix_fork", lambda: __import__("posix").fork()),
            _attempt("register_at_fork", lambda: os.register_at_fork(before=lambda: None)),
        ]
        escaped = any(ok for _, ok in results)
        return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results), {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
