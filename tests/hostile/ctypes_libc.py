# expect: blocked at step
# attack: step() loads native code: ctypes.CDLL(None).system, _ctypes, ctypes.pythonapi memory pokes.
"""Hostile environment: call libc and poke interpreter memory through ctypes."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _libc_getpid():
    import ctypes

    return ctypes.CDLL(None).getpid()


def _raw_ctypes():
    import _ctypes

    return _ctypes.dlopen(None)


def _pythonapi():
    import ctypes

    return ctypes.pythonapi.Py_GetVersion


def _cffi():
    import cffi

    return cffi.FFI().dlopen(None)


class CtypesEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Go native.", {}

    def step(self, action):
        results = [
            _attempt("ctypes_libc", _libc_getpid),
            _attempt("_ctypes", _raw_ctypes),
            _attempt("pythonapi", _pythonapi),
            _attempt("cffi", _cffi),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
