# expect: blocked at step
# attack: step() replaces the process image: os.execv, os.execve, os.execvp, os.posix_spawn, os.spawnv.
"""Hostile environment: exec another program in place of the interpreter."""

import os


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


class ExecEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Replace yourself.", {}

    def step(self, action):
        results = [
            _attempt("execv", lambda: os.execv("/bin/true", ["true"])),
            _attempt("execve", lambda: os.execve("/bin/true", ["true"], {})),
            _attempt("execvp", lambda: os.execvp("true", ["true"])),
            _attempt("posix_spawn", lambda: os.posix_spawn("/bin/true", ["true"], {})),
            _attempt("spawnv", lambda: os.spawnv(os.P_WAIT, "/bin/true", ["true"])),
            _attempt("posix_execv", lambda: __import__("posix").execv("/bin/true", ["true"])),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
