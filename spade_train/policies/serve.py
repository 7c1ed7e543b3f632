"""Serve any ``Policy`` as a small OpenAI-compatible HTTP endpoint on loopback.

Why it exists: tools that only speak the OpenAI chat API (lm-eval's ``local-chat-completions``, the
tool-use suites, ``spade-train generate-pool``, other people's scripts) can then talk to a local
transformers checkpoint, and tests can exercise the real HTTP client path against a real model without
vLLM. It is not a production server: no batching, no authentication, so it binds loopback only.

Endpoints: ``POST /v1/chat/completions`` (one choice; ``messages``, ``temperature``, ``top_p``,
``top_k``, ``max_tokens`` / ``max_completion_tokens``, ``stop``, ``seed``, ``tools``; with
``return_token_ids`` or ``logprobs`` set, the token ids and log-probabilities the policy reports),
``GET /v1/models`` and ``GET /health``. A failed generation is HTTP 500 with an OpenAI-style error
object; a malformed request is 400; a model name other than the served one is 404, as vLLM answers.

Threading: the standard library's ``ThreadingHTTPServer`` answers each request on its own thread, and
every generation runs on one private asyncio loop thread (``run_coroutine_threadsafe``), so policies
bound to a loop (and ``TransformersPolicy``'s own lock) see one well-defined loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from spade_train.policies.base import GenerationRequest, Message, Policy, SamplingParams

LOOPBACK = "127.0.0.1"
MAX_BODY_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_TOKENS = 1024


class RequestError(ValueError):
    """A request the server cannot answer; ``status`` is the HTTP status to send."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class ParsedRequest:
    generation: GenerationRequest
    return_token_ids: bool
    logprobs: bool


def parse_chat_request(body: Mapping[str, Any], served_model: str) -> ParsedRequest:
    """Check an OpenAI chat-completions body and turn it into a ``GenerationRequest``."""
    model = body.get("model")
    if model is not None and model != served_model:
        raise RequestError(f"the model {model!r} does not exist; this server serves {served_model!r}", 404)
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RequestError("messages must be a non-empty list")
    if body.get("n", 1) != 1:
        raise RequestError("only n=1 is supported")
    stop = body.get("stop") or ()
    if isinstance(stop, str):
        stop = (stop,)
    if not isinstance(stop, (list, tuple)) or not all(isinstance(s, str) for s in stop):
        raise RequestError("stop must be a string or a list of strings")
    tools = body.get("tools")
    if tools is not None and not (isinstance(tools, list) and all(isinstance(t, dict) for t in tools)):
        raise RequestError("tools must be a list of objects")
    try:
        sampling = SamplingParams(
            temperature=float(body.get("temperature", 1.0)),
            top_p=float(body.get("top_p", 1.0)),
            top_k=_optional_top_k(body.get("top_k")),
            max_tokens=int(body.get("max_completion_tokens") or body.get("max_tokens") or DEFAULT_MAX_TOKENS),
            stop=tuple(stop),
            seed=None if body.get("seed") is None else int(body["seed"]),
        )
    except (TypeError, ValueError) as error:
        raise RequestError(f"bad sampling parameter: {error}") from None
    if sampling.max_tokens < 1 or not 0 < sampling.top_p <= 1 or sampling.temperature < 0:
        raise RequestError("need max_tokens >= 1, 0 < top_p <= 1 and temperature >= 0")
    request = GenerationRequest(messages=[_message(m) for m in messages], sampling=sampling, tools=tools)
    return ParsedRequest(request, bool(body.get("return_token_ids")), bool(body.get("logprobs")))


def _optional_top_k(value: Any) -> int | None:
    """vLLM's convention: top_k of 0 or -1 (or absent) means no top-k filter."""
    if value is None:
        return None
    top_k = int(value)
    return top_k if top_k > 0 else None


def _message(raw: Any) -> Message:
    if not isinstance(raw, dict) or not isinstance(raw.get("role"), str):
        raise RequestError("each message needs a role")
    content = raw.get("content")
    if isinstance(content, list):  # content parts: keep the text ones, as a text-only model must
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise RequestError("message content must be a string or a list of text parts")
    return {"role": raw["role"], "content": content}


class PolicyServer:
    """An OpenAI-compatible endpoint for ``policy`` on ``127.0.0.1:port`` (0 picks a free port).

    Use as a context manager, or ``start()`` / ``close()``; ``url`` is the base URL with ``/v1``, ready
    for ``create_policy(f"openai:{server.url}#{server.model_name}")``.
    """

    def __init__(
        self,
        policy: Policy,
        *,
        port: int = 0,
        model_name: str | None = None,
        request_timeout_s: float = 600.0,
    ) -> None:
        self.policy = policy
        self.model_name = model_name or policy.name
        self.request_timeout_s = request_timeout_s
        self._loop = asyncio.new_event_loop()
        self._loop_thread = threading.Thread(
            target=self._loop.run_forever, name="policy-server-loop", daemon=True
        )
        self._httpd = ThreadingHTTPServer((LOOPBACK, port), _handler_class(self))
        self._httpd.daemon_threads = True
        self._http_thread = threading.Thread(
            target=self._httpd.serve_forever, name="policy-server-http", daemon=True
        )
        self._started = False

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/v1"

    @property
    def spec(self) -> str:
        """The ``create_policy`` spec that reaches this server."""
        return f"openai:{self.url}#{self.model_name}"

    def start(self) -> PolicyServer:
        if not self._started:
            self._loop_thread.start()
            self._http_thread.start()
            self._started = True
        return self

    def serve_forever(self) -> None:
        """Serve on the calling thread until interrupted (the CLI's ``spade-eval serve``)."""
        self._loop_thread.start()
        self._started = True
        try:
            self._httpd.serve_forever()
        finally:
            self._shutdown_loop()
            self._httpd.server_close()

    def close(self) -> None:
        if self._started and self._http_thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()
        self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        if self._loop_thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._loop_thread.join(timeout=5)

    def __enter__(self) -> PolicyServer:  # noqa: PYI034 - the class is not meant to be subclassed
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ request handling
    def complete(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one chat-completions body (raises ``RequestError`` for an HTTP error reply)."""
        parsed = parse_chat_request(body, self.model_name)
        future = asyncio.run_coroutine_threadsafe(self.policy.generate(parsed.generation), self._loop)
        generation = future.result(timeout=self.request_timeout_s)
        if not generation.ok:
            raise RequestError(f"generation failed: {generation.error}", 500)
        prompt_tokens = len(generation.prompt_token_ids or [])
        completion_tokens = len(generation.completion_token_ids or [])
        choice: dict[str, Any] = {
            "index": 0,
            "message": {"role": "assistant", "content": generation.text},
            "finish_reason": generation.finish_reason,
        }
        payload: dict[str, Any] = {
            "id": f"chatcmpl-{uuid.uuid4().hex}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model_name,
            "choices": [choice],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        if parsed.return_token_ids:
            payload["prompt_token_ids"] = generation.prompt_token_ids
            choice["token_ids"] = generation.completion_token_ids
        if parsed.logprobs and generation.completion_logprobs is not None:
            choice["logprobs"] = {"content": [{"logprob": lp} for lp in generation.completion_logprobs]}
        return payload

    def models(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": self.model_name, "object": "model", "owned_by": "spade"}]}


def _handler_class(server: PolicyServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].rstrip("/")
            if path in ("/v1/models", "/models"):
                self._send(200, server.models())
            elif path == "/health":
                self._send(200, {"status": "ok"})
            else:
                self._send_error(404, f"no route {self.path}")

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0].rstrip("/")
            if path not in ("/v1/chat/completions", "/chat/completions"):
                self._send_error(404, f"no route {self.path}")
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
                if not 0 < length <= MAX_BODY_BYTES:
                    raise RequestError(f"the body must be 1 to {MAX_BODY_BYTES} bytes")
                body = json.loads(self.rfile.read(length))
                if not isinstance(body, dict):
                    raise RequestError("the body must be a JSON object")
                self._send(200, server.complete(body))
            except RequestError as error:
                self._send_error(error.status, str(error))
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                self._send_error(400, f"the body is not JSON: {error}")
            except TimeoutError:
                self._send_error(504, f"no answer within {server.request_timeout_s:g}s")

        def _send_error(self, status: int, message: str) -> None:
            kind = "invalid_request_error" if status < 500 else "server_error"
            self._send(status, {"error": {"message": message, "type": kind, "code": status}})

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client went away (killed, timed out): nobody to answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
