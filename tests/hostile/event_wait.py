# expect: blocked at step
# attack: step() waits 100 s on threading.Event().wait, a Condition, and a raw _thread lock with a timeout.
"""Hostile environment: block on synchronisation primitives with long timeouts."""

import time


def _attempt(label, action):
    start = time.monotonic()
    try:
        action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    elapsed = time.monotonic() - start
    if elapsed < 5:
        return f"{label}=returned after {elapsed:.3f} s", False
    return f"{label}=WAITED {elapsed:.1f} s", True


def _event():
    import threading

    threading.Event().wait(100)


def _condition():
    import threading

    condition = threading.Condition()
    with condition:
        condition.wait(100)


def _lock():
    import _thread

    lock = _thread.allocate_lock()
    lock.acquire()
    lock.acquire(True, 100)


class EventWaitEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Wait for an event.", {}

    def step(self, action):
        results = [_attempt("event", _event), _attempt("condition", _condition), _attempt("lock", _lock)]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
