# expect: blocked at reset
# attack: reset() lists directories: os.listdir('/'), os.scandir, os.walk, glob-like probing of the cwd.
"""Hostile environment: enumerate the host filesystem."""

import os


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    if not result:  # os.walk swallows errors and yields nothing: an empty listing reveals nothing
        return f"{label}=empty", False
    return f"{label}=SUCCEEDED({str(result)[:60]!r})", True


class ListDirectoriesEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        results = [
            _attempt("listdir_root", lambda: os.listdir("/")),
            _attempt("listdir_cwd", lambda: os.listdir(".")),
            _attempt("listdir_default", lambda: os.listdir()),
            _attempt("scandir_root", lambda: [e.name for e in os.scandir("/")]),
            _attempt("scandir_home", lambda: [e.name for e in os.scandir(os.path.expanduser("~"))]),
            _attempt("walk_root", lambda: next(os.walk("/"), None)),
            _attempt("stat_passwd", lambda: os.stat("/etc/passwd")),
            _attempt("exists_passwd", lambda: os.path.exists("/etc/passwd") or None),
        ]
        escaped = any(ok for _, ok in results)
        return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results), {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
