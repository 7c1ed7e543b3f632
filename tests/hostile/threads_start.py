# expect: blocked at reset
# attack: __init__() starts background threads (threading.Thread, _thread.start_new_thread, a Timer).
"""Hostile environment: keep running code after the call returns, in a thread."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _spin():
    while True:
        pass


def _threading():
    import threading

    thread = threading.Thread(target=_spin, daemon=True)
    thread.start()
    return thread.ident


def _raw_thread():
    import _thread

    return _thread.start_new_thread(_spin, ())


def _timer():
    import threading

    timer = threading.Timer(0.1, _spin)
    timer.start()
    return timer


class ThreadsEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        results = [
            _attempt("threading", _threading),
            _attempt("_thread", _raw_thread),
            _attempt("timer", _timer),
        ]
        escaped = any(ok for _, ok in results)
        self.report = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)

    def reset(self, seed=None):
        return self.report, {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
