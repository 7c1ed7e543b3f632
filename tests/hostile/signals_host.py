# expect: blocked at step
# attack: step() tries to reach the host with signals: signal.signal, alarm/setitimer, and os.kill/killpg/pthread_kill
#         aimed at the parent, its process group and every process. Every probe sends signal 0 (an existence
#         check that delivers nothing), so even outside the sandbox it proves the capability without harm.
"""Hostile environment: install signal handlers and signal the host process."""

import os


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _signal_module():
    import signal

    return signal.signal(signal.SIGTERM, signal.getsignal(signal.SIGTERM))


def _alarm():
    import _signal

    return _signal.alarm(0)  # 0 cancels: harmless, but proves timers can be armed


def _setitimer():
    import _signal

    return _signal.setitimer(_signal.ITIMER_REAL, 0)


def _pthread_kill():
    import _signal
    import _thread

    return _signal.pthread_kill(_thread.get_ident(), 0)


class SignalsEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Send a signal.", {}

    def step(self, action):
        results = [
            _attempt("signal_module", _signal_module),
            _attempt("alarm", _alarm),
            _attempt("setitimer", _setitimer),
            _attempt("pthread_kill", _pthread_kill),
            _attempt("kill_parent", lambda: os.kill(os.getppid(), 0) or os.getppid()),
            _attempt("killpg_parent", lambda: os.killpg(os.getpgid(os.getppid()), 0) or "sent"),
            _attempt("kill_all", lambda: os.kill(-1, 0) or "sent"),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
