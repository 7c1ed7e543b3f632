# expect: blocked at step
# attack: step() starts host programs: subprocess.run, Popen, os.popen, _posixsubprocess (only /bin/echo).
"""Hostile environment: run commands on the host."""

import os


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _run():
    import subprocess

    return subprocess.run(["/bin/echo", "pwned"], capture_output=True, timeout=5).stdout


def _popen():
    import subprocess

    with subprocess.Popen(["/bin/echo", "pwned"], stdout=subprocess.PIPE) as child:
        return child.stdout.read()


def _os_popen():
    with os.popen("/bin/echo pwned") as pipe:
        return pipe.read()


def _posixsubprocess():
    import _posixsubprocess

    return _posixsubprocess


class SubprocessEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Run a command.", {}

    def step(self, action):
        results = [
            _attempt("subprocess_run", _run),
            _attempt("popen", _popen),
            _attempt("os_popen", _os_popen),
            _attempt("_posixsubprocess", _posixsubprocess),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
