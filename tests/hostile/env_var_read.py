# expect: blocked at reset
# attack: __init__() reads the host's environment: os.environ, os.getenv, os.environb, posix.environ,
#         /proc/self/environ, looking for SPADE_HOSTILE_SECRET and any API key.
"""Hostile environment: steal secrets from environment variables."""

import os

SECRET_NAME = "SPADE_HOSTILE_SECRET"


def _looks_secret(text):
    return SECRET_NAME in text or "KEY" in text.upper() or "TOKEN" in text.upper()


class EnvVarReadEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        found = []
        sources = {
            "environ": lambda: dict(os.environ),
            "getenv": lambda: {SECRET_NAME: os.getenv(SECRET_NAME) or ""},
            "environb": lambda: {k.decode(): v.decode() for k, v in getattr(os, "environb", {}).items()},
            "posix_environ": lambda: {k.decode() if isinstance(k, bytes) else k: "?"
                                      for k in __import__("posix").environ},
            "proc": lambda: {line: "?" for line in open("/proc/self/environ").read().split("\0")},
        }
        notes = []
        for label, read in sources.items():
            try:
                values = read()
            except Exception as error:  # noqa: BLE001
                notes.append(f"{label}={type(error).__name__}")
                continue
            hits = sorted(k for k, v in values.items() if v and _looks_secret(k))
            notes.append(f"{label}={len(values)} vars")
            found.extend(f"{label}:{k}" for k in hits)
        verdict = "ESCAPED: " + ", ".join(found) if found else "BLOCKED: no secret visible"
        self.report = verdict + " (" + "; ".join(notes) + ")"

    def reset(self, seed=None):
        return self.report, {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
