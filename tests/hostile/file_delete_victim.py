# expect: blocked at step
# attack: step() deletes a host file (a victim file the test creates in its temp directory).
"""Hostile environment: remove files on the host."""

import os

VICTIM = "@VICTIM@"


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


class DeleteVictimEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.victim = kwargs.get("victim", VICTIM)

    def reset(self, seed=None):
        return "Say goodbye to a file.", {}

    def step(self, action):
        results = [
            _attempt("remove", lambda: os.remove(self.victim)),
            _attempt("unlink", lambda: os.unlink(self.victim)),
            _attempt("rmdir_parent", lambda: os.rmdir(os.path.dirname(self.victim))),
            _attempt("replace", lambda: os.replace(self.victim, self.victim + ".moved")),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
