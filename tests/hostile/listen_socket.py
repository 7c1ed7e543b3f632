# expect: blocked at step
# attack: step() opens a listening TCP socket (a backdoor) and a UDP server socket.
"""Hostile environment: accept connections from outside."""


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _listen():
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(5)
    return sock.getsockname()


def _udp_bind():
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    sock.bind(("0.0.0.0", 0))
    return sock.getsockname()


class ListenSocketEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Open a port.", {}

    def step(self, action):
        results = [_attempt("tcp_listen", _listen), _attempt("udp_bind", _udp_bind)]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
