# expect: blocked at step
# attack: step() uses os-level calls: os.open(O_CREAT), mkdir, symlink, link, rename, truncate, chmod
#         (modifications aim only at the victim file in the test's temp directory).
"""Hostile environment: create, link and modify host files below Python's open()."""

import os

CANARY = "@CANARY@"
VICTIM = "@VICTIM@"  # a file in the test's temp directory: never aim at real host files


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


class OsLevelWriteEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.canary = kwargs.get("canary", CANARY)
        self.victim = kwargs.get("victim", VICTIM)

    def reset(self, seed=None):
        return "Pick a filename.", {}

    def step(self, action):
        c, v = self.canary, self.victim
        results = [
            _attempt("os_open", lambda: os.write(os.open(c, os.O_CREAT | os.O_WRONLY, 0o644), b"x")),
            _attempt("mkdir", lambda: os.mkdir(c)),
            _attempt("makedirs", lambda: os.makedirs(c + "/a/b")),
            _attempt("symlink", lambda: os.symlink("/etc/passwd", c)),
            _attempt("link", lambda: os.link(v, c)),
            _attempt("rename", lambda: os.rename(v, c)),
            _attempt("truncate", lambda: os.truncate(v, 0)),
            # WASI's chmod is a silent no-op, so only a visible effect counts: stat the file afterwards.
            _attempt("chmod", lambda: (os.chmod(v, 0o777), oct(os.stat(v).st_mode))[1]),
            _attempt("utime", lambda: (os.utime(v, (0, 0)), os.stat(v).st_mtime)[1]),
            _attempt("chdir", lambda: os.chdir("/tmp")),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
