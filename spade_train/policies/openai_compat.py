"""A client for any OpenAI-compatible chat endpoint (``vllm serve``, SGLang, llama.cpp, hosted APIs).

Why the standard library and not httpx or the openai SDK: the SDK installs light on purpose, and
``urllib`` in worker threads needs no dependency and is independent of any event loop, so one policy
object can serve several ``asyncio.run`` calls (an async httpx client is bound to the loop that
created its connection pool). Each request is one blocking ``urlopen`` in a thread of this policy's
own pool: ``max_concurrency`` bounds how many requests are in flight, which matters because a vLLM
server only batches what it receives at once (the shared default executor would cap that at
``cpu_count + 4``). The price is a new TCP connection per request, negligible against a generation.

Failures never raise (see ``base.Policy``): connection errors, HTTP 429 and 5xx are retried with
exponential backoff (and jitter, so many rollouts that hit a limit together do not retry together);
a read timeout, another 4xx or a malformed body ends the call with ``Generation.error`` set.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from spade_train.policies.base import Generation, GenerationRequest

_RETRIABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_LOOPBACK_HOSTS = frozenset({"localhost", "::1"})
_ERROR_BODY_CHARS = 300


@dataclass(frozen=True)
class _Attempt:
    """What one HTTP attempt produced: a response, or a transport failure."""

    status: int | None = None
    body: bytes = b""
    retry_after_s: float | None = None
    transport_error: str | None = None
    retriable: bool = False


class _EndpointError(Exception):
    """A failure to report in ``Generation.error`` (never escapes ``generate``)."""


class OpenAICompatiblePolicy:
    """``POST {base_url}/chat/completions`` with the request's messages, sampling and tools.

    ``base_url`` includes the version prefix, as in the openai SDK: ``http://127.0.0.1:8000/v1``.
    ``api_key`` comes only from this argument; reading it from the environment is the CLI's job.

    Request fields: ``temperature``, ``top_p``, ``max_tokens``, ``stop`` and ``seed`` as in the
    OpenAI API; ``top_k`` as a top-level extra field, which is where vLLM (and SGLang) read it;
    ``logprobs`` when ``logprobs=True``; ``return_token_ids`` (vLLM >= 0.10.2) when
    ``return_token_ids=True``, so trainers get the exact prompt and completion token ids;
    anything in ``extra_body`` is merged in last (e.g. ``{"chat_template_kwargs": {...}}``).

    Tool calls that a server parsed out of the reply (``message.tool_calls``) are written back into
    ``Generation.text`` after any text content, one block per call, with a newline after the opening
    tag and one before the closing tag: ``<tool_call>``, newline, ``{"name": ..., "arguments": ...}``,
    newline, ``</tool_call>``. That is how Qwen's chat template writes a call. SPADE environments parse
    it (they also take a block on one line), and so do bfcl-eval's function-calling handlers, which
    require those newlines.

    ``timeout_s`` is the socket timeout: the longest the server may stay silent while connecting or
    answering. A read timeout is not retried: the server is likely still generating, and a retry
    would double its load. ``max_retries`` counts retries after the first attempt.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        name: str | None = None,
        timeout_s: float = 300.0,
        max_retries: int = 3,
        backoff_s: float = 0.5,
        max_backoff_s: float = 16.0,
        logprobs: bool = False,
        return_token_ids: bool = False,
        extra_body: Mapping[str, Any] | None = None,
        max_concurrency: int = 64,
    ) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f"base_url must be an http(s) URL such as http://127.0.0.1:8000/v1, got {base_url!r}")
        if not model:
            raise ValueError("model must name the served model")
        if timeout_s <= 0 or max_retries < 0 or backoff_s < 0 or max_concurrency < 1:
            raise ValueError("need timeout_s > 0, max_retries >= 0, backoff_s >= 0 and max_concurrency >= 1")
        self.name = name or model
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/chat/completions"
        self.model = model
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.logprobs = logprobs
        self.return_token_ids = return_token_ids
        self.extra_body = dict(extra_body or {})
        self._api_key = api_key
        self._opener = _opener_for(parsed.hostname)
        self._executor = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="openai-policy")
        self._jitter = random.Random()

    def __repr__(self) -> str:  # never show the API key
        return f"OpenAICompatiblePolicy(url={self.url!r}, model={self.model!r})"

    # ------------------------------------------------------------------ public API
    def build_body(self, request: GenerationRequest) -> dict[str, Any]:
        """The JSON body for one request (public so tests and logs can show what is sent)."""
        sampling = request.sampling
        body: dict[str, Any] = {
            "model": self.model,
            "messages": list(request.messages),
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
        }
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if sampling.top_k is not None:
            body["top_k"] = sampling.top_k
        if request.tools:
            body["tools"] = list(request.tools)
        if self.logprobs:
            body["logprobs"] = True
        if self.return_token_ids:
            body["return_token_ids"] = True
        body.update(self.extra_body)
        return body

    async def generate(self, request: GenerationRequest) -> Generation:
        start = time.monotonic()
        try:
            payload = await self._post_with_retries(json.dumps(self.build_body(request)).encode())
            generation = _parse_completion(payload)
        except _EndpointError as error:
            return Generation(text="", finish_reason="error", error=str(error),
                              latency_s=time.monotonic() - start)
        except Exception as error:  # noqa: BLE001 - a policy reports failures, it never raises them
            return Generation(text="", finish_reason="error", latency_s=time.monotonic() - start,
                              error=f"unexpected {type(error).__name__}: {error}")
        return replace(generation, latency_s=time.monotonic() - start)

    def close(self) -> None:
        """Stop the worker threads once in-flight requests finish (optional: they also end at exit)."""
        self._executor.shutdown(wait=True)

    # ------------------------------------------------------------------ transport
    async def _post_with_retries(self, body: bytes) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        last_error = ""
        retry_after_s: float | None = None
        for attempt_index in range(self.max_retries + 1):
            if attempt_index:
                await asyncio.sleep(self._delay(attempt_index, retry_after_s))
            attempt = await loop.run_in_executor(self._executor, self._post_once, body)
            retry_after_s = attempt.retry_after_s
            if attempt.transport_error is not None:
                last_error = attempt.transport_error
                if not attempt.retriable:
                    raise _EndpointError(last_error)
                continue
            if attempt.status is not None and 200 <= attempt.status < 300:
                try:
                    payload = json.loads(attempt.body)
                except (json.JSONDecodeError, UnicodeDecodeError) as error:
                    raise _EndpointError(f"malformed JSON from {self.url}: {error}") from None
                if not isinstance(payload, dict):
                    raise _EndpointError(f"malformed response from {self.url}: not a JSON object")
                return payload
            last_error = f"HTTP {attempt.status} from {self.url}: {_snippet(attempt.body)}"
            if attempt.status not in _RETRIABLE_STATUS:
                raise _EndpointError(last_error)
        raise _EndpointError(f"{last_error} (gave up after {self.max_retries + 1} attempts)")

    def _delay(self, attempt_index: int, retry_after_s: float | None) -> float:
        """Exponential backoff with equal jitter; a server's Retry-After wins when it asks for longer."""
        base = min(self.max_backoff_s, self.backoff_s * 2 ** (attempt_index - 1))
        delay = base / 2 + self._jitter.uniform(0, base / 2)
        if retry_after_s is not None:
            delay = max(delay, min(retry_after_s, self.max_backoff_s))
        return delay

    def _post_once(self, body: bytes) -> _Attempt:
        """One blocking POST (runs in a worker thread). Never raises."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        http_request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with self._opener.open(http_request, timeout=self.timeout_s) as response:
                return _Attempt(status=response.status, body=response.read())
        except urllib.error.HTTPError as error:
            try:
                error_body = error.read()
            except Exception:  # noqa: BLE001 - the status alone is enough to report
                error_body = b""
            return _Attempt(status=error.code, body=error_body,
                            retry_after_s=_retry_after(error.headers.get("Retry-After") if error.headers else None))
        except urllib.error.URLError as error:
            # Raised while connecting or sending: refused, unreachable, DNS, connect timeout. Retriable.
            return _Attempt(transport_error=f"cannot reach {self.url}: {error.reason}", retriable=True)
        except TimeoutError:
            return _Attempt(transport_error=f"timed out after {self.timeout_s:g}s waiting for {self.url}")
        except OSError as error:
            # The connection dropped mid-answer (e.g. a server restart): worth another try.
            return _Attempt(transport_error=f"connection to {self.url} failed: {error}", retriable=True)
        except Exception as error:  # noqa: BLE001 - e.g. http.client.BadStatusLine from a broken server
            return _Attempt(transport_error=f"bad answer from {self.url}: {type(error).__name__}: {error}")


# ---------------------------------------------------------------------- response parsing
def _parse_completion(payload: dict[str, Any]) -> Generation:
    """Turn a chat-completions JSON object into a Generation; a missing field is an error."""
    if "error" in payload and "choices" not in payload:
        raise _EndpointError(f"endpoint error: {_snippet(json.dumps(payload['error']).encode())}")
    try:
        choice = payload["choices"][0]
        message = choice["message"]
    except (KeyError, IndexError, TypeError):
        raise _EndpointError("malformed response: no choices[0].message") from None
    if not isinstance(message, dict):
        raise _EndpointError("malformed response: choices[0].message is not an object")
    text = message.get("content") or ""
    if not isinstance(text, str):
        raise _EndpointError("malformed response: message.content is not a string")
    text += "".join(_tool_call_text(call) for call in message.get("tool_calls") or [])
    return Generation(
        text=text,
        finish_reason=str(choice.get("finish_reason") or "stop"),
        prompt_token_ids=_int_list(payload.get("prompt_token_ids")),
        completion_token_ids=_int_list(choice.get("token_ids")),
        completion_logprobs=_logprobs(choice.get("logprobs")),
    )


def _tool_call_text(call: Any) -> str:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        raise _EndpointError("malformed response: a tool call has no function")
    name = str(function.get("name", ""))
    raw_arguments = function.get("arguments", "{}")
    try:
        arguments = json.loads(raw_arguments) if isinstance(raw_arguments, str) else raw_arguments
    except json.JSONDecodeError:
        arguments = raw_arguments
    # Arguments that are not a JSON object are passed on as they came, so the environment rejects the
    # call, not the client.
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def _logprobs(block: Any) -> list[float] | None:
    """``choices[0].logprobs.content[*].logprob``, or None when the server sent none."""
    if not isinstance(block, dict) or not isinstance(block.get("content"), list):
        return None
    try:
        return [float(entry["logprob"]) for entry in block["content"]]
    except (KeyError, TypeError, ValueError):
        raise _EndpointError("malformed response: logprobs.content entries need a logprob") from None


def _int_list(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise _EndpointError("malformed response: token ids are not a list of integers")
    return list(value)


def _snippet(body: bytes) -> str:
    text = body.decode("utf-8", errors="replace").strip()
    return text[:_ERROR_BODY_CHARS] + ("..." if len(text) > _ERROR_BODY_CHARS else "")


def _retry_after(value: str | None) -> float | None:
    """Seconds from a numeric Retry-After header (the HTTP-date form is ignored)."""
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _opener_for(host: str) -> urllib.request.OpenerDirector:
    """An opener that honours proxy variables, except for loopback hosts no proxy could reach."""
    if host in _LOOPBACK_HOSTS or host.startswith("127."):
        return urllib.request.build_opener(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener()
