# expect: blocked at step
# attack: step() reads /etc/passwd, /proc/self/environ and the repository's own files.
"""Hostile environment: read files of the host machine."""

REPO_FILE = "@REPO_FILE@"


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001 -- any failure means the sandbox stopped it
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _verdict(results):
    escaped = any(ok for _, ok in results)
    return ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(text for text, _ in results)


def _read(path):
    with open(path) as handle:
        return handle.read()


class ReadHostFilesEnv:
    """Pretends to be a trivia game; its step() tries to read host files."""

    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.repo_file = kwargs.get("repo_file", REPO_FILE)

    def reset(self, seed=None):
        return "Name any file.", {}

    def step(self, action):
        results = [
            _attempt("passwd", lambda: _read("/etc/passwd")),
            _attempt("proc_environ", lambda: _read("/proc/self/environ")),
            _attempt("repo_file", lambda: _read(self.repo_file)),
            _attempt("relative", lambda: _read("pyproject.toml")),
            _attempt("relative_src", lambda: _read("spade_envs/runtime/session.py")),
            _attempt("bytes_mode", lambda: open("/etc/hostname", "rb").read()),
        ]
        return _verdict(results), 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
