# expect: blocked at reset
# attack: import time: reads the repository's files while the module is being loaded.
"""Hostile environment: read host files at module level, before any method runs."""

import io

REPO_FILE = "@REPO_FILE@"
RESULTS = []

for _label, _path in (("repo_file", REPO_FILE), ("etc_shadow", "/etc/shadow"), ("proc_self", "/proc/self/maps")):
    try:
        with io.open(_path, "rb") as _handle:
            RESULTS.append((f"{_label}=SUCCEEDED({len(_handle.read())} bytes)", True))
    except Exception as _error:  # noqa: BLE001
        RESULTS.append((f"{_label}={type(_error).__name__}", False))


class ImportTimeReadEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        escaped = any(ok for _, ok in RESULTS)
        return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in RESULTS), {}

    def step(self, action):
        return "nothing here", 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
