"""A policy that answers from a script: for tests, and to measure the loop's own overhead.

No model runs, so a benchmark with ``ScriptedPolicy`` times everything except generation; latency
and failures can be injected to exercise the paths that real endpoints take (slow answers, HTTP
errors, timeouts) without a server.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from spade_train.policies.base import Generation, GenerationRequest

Reply = str | Generation
Responder = Callable[[GenerationRequest], Reply | Awaitable[Reply]]


class ScriptedPolicy:
    """Replies from ``responses``: a list (cycled) or a callable (sync or async) of the request.

    A reply is a string or a ready ``Generation`` (returned as given, latency filled in). String
    replies are cut at the first of the request's stop strings, as a server would. Failures:

    - ``fail_every=k``: every k-th call returns ``Generation(error=failure_message)``;
    - ``hang_every=k``: every k-th call hangs until the policy's own ``timeout_s`` deadline, and the
      resulting ``TimeoutError`` is caught and returned as an error, as a client with a timeout does;
    - a responder that raises becomes an error ``Generation`` too (a policy never raises).

    Calls are numbered from 1 in arrival order (failed calls do not use up a list reply); ``requests`` records every request seen, including
    failed ones. The counter is guarded by a lock, so one instance may serve several event loops.
    """

    def __init__(
        self,
        responses: Sequence[Reply] | Responder = ("",),
        *,
        name: str = "scripted",
        latency_s: float = 0.0,
        fail_every: int = 0,
        failure_message: str = "injected failure",
        hang_every: int = 0,
        timeout_s: float = 0.05,
    ) -> None:
        if not callable(responses):
            responses = list(responses)
            if not responses:
                raise ValueError("responses must not be empty")
        if latency_s < 0 or fail_every < 0 or hang_every < 0 or timeout_s <= 0:
            raise ValueError("latency_s, fail_every and hang_every must be >= 0, timeout_s > 0")
        self.name = name
        self.latency_s = latency_s
        self.fail_every = fail_every
        self.failure_message = failure_message
        self.hang_every = hang_every
        self.timeout_s = timeout_s
        self.requests: list[GenerationRequest] = []
        self._responses = responses
        self._replies_given = 0
        self._lock = threading.Lock()

    @property
    def calls(self) -> int:
        return len(self.requests)

    async def generate(self, request: GenerationRequest) -> Generation:
        start = time.monotonic()
        with self._lock:
            self.requests.append(request)
            number = len(self.requests)
        try:
            if self.hang_every and number % self.hang_every == 0:
                await asyncio.wait_for(asyncio.Event().wait(), timeout=self.timeout_s)
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
            if self.fail_every and number % self.fail_every == 0:
                return Generation(text="", finish_reason="error", error=self.failure_message,
                                  latency_s=time.monotonic() - start)
            reply = await self._reply(request)
        except asyncio.TimeoutError:
            return Generation(text="", finish_reason="error", latency_s=time.monotonic() - start,
                              error=f"timed out after {self.timeout_s:g}s")
        except Exception as error:  # noqa: BLE001 - a policy reports failures, it never raises them
            return Generation(text="", finish_reason="error", latency_s=time.monotonic() - start,
                              error=f"scripted responder raised {type(error).__name__}: {error}")
        if isinstance(reply, Generation):
            return replace(reply, latency_s=time.monotonic() - start)
        return Generation(text=_cut_at_stop(str(reply), request.sampling.stop),
                          latency_s=time.monotonic() - start)

    async def _reply(self, request: GenerationRequest) -> Reply:
        if callable(self._responses):
            reply = self._responses(request)
            return await reply if inspect.isawaitable(reply) else reply
        with self._lock:  # failed calls do not use up a scripted reply
            index = self._replies_given % len(self._responses)
            self._replies_given += 1
        return self._responses[index]


def _cut_at_stop(text: str, stop: Sequence[str]) -> str:
    """Text up to the earliest stop string (excluded), as OpenAI-compatible servers return it."""
    cuts = [index for index in (text.find(s) for s in stop if s) if index != -1]
    return text[: min(cuts)] if cuts else text
