# expect: blocked at step
# attack: step() opens a TCP connection to the test's own listener on 127.0.0.1 (raw _socket and socket).
"""Hostile environment: phone home over TCP."""

PORT = int("@PORT@")


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _connect_socket_module(port):
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
        connection.sendall(b"exfiltrated secret\n")
    return "sent"


def _connect_raw(port):
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    sock.settimeout(2)
    sock.connect(("127.0.0.1", port))
    sock.send(b"exfiltrated secret\n")
    sock.close()
    return "sent"


def _connect_ipv6_mapped(port):
    import _socket

    sock = _socket.socket(_socket.AF_INET6, _socket.SOCK_STREAM)
    sock.settimeout(2)
    sock.connect(("::ffff:127.0.0.1", port, 0, 0))
    sock.close()
    return "connected"


class TcpConnectEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.port = int(kwargs.get("port", PORT))

    def reset(self, seed=None):
        return "Send me a message.", {}

    def step(self, action):
        results = [
            _attempt("socket", lambda: _connect_socket_module(self.port)),
            _attempt("_socket", lambda: _connect_raw(self.port)),
            _attempt("ipv6_mapped", lambda: _connect_ipv6_mapped(self.port)),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
