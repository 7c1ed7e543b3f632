# expect: blocked at step
# attack: step() sends UDP datagrams to the test's own UDP socket on 127.0.0.1.
"""Hostile environment: exfiltrate over UDP (no handshake needed)."""

UDP_PORT = int("@UDP_PORT@")


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _send(port):
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    sent = sock.sendto(b"exfiltrated secret", ("127.0.0.1", port))
    sock.close()
    return sent


def _connected_send(port):
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    sock.connect(("127.0.0.1", port))
    sent = sock.send(b"exfiltrated secret")
    sock.close()
    return sent


class UdpSendEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.port = int(kwargs.get("udp_port", UDP_PORT))

    def reset(self, seed=None):
        return "Shout something.", {}

    def step(self, action):
        results = [_attempt("sendto", lambda: _send(self.port)), _attempt("send", lambda: _connected_send(self.port))]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
