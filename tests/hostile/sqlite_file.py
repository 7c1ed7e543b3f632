# expect: blocked at step
# attack: step() uses the built-in _sqlite3 module to create a database file at the canary path.
"""Hostile environment: write a host file through SQLite's own file I/O."""

CANARY = "@CANARY@"


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _create(path):
    import _sqlite3

    connection = _sqlite3.connect(path)
    connection.execute("create table pwned (x)")
    connection.commit()
    return path


def _attach(path):
    import _sqlite3

    connection = _sqlite3.connect(":memory:")
    connection.execute(f"attach database '{path}' as other")
    connection.execute("create table other.pwned (x)")
    return path


class SqliteFileEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.canary = kwargs.get("canary", CANARY)

    def reset(self, seed=None):
        return "Store something.", {}

    def step(self, action):
        results = [
            _attempt("connect", lambda: _create(self.canary)),
            _attempt("attach", lambda: _attach(self.canary)),
            _attempt("uri", lambda: _create(f"file:{self.canary}?mode=rwc")),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
