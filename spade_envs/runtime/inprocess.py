"""The ``inprocess`` backend: environment code runs in this interpreter. Trusted code only.

It is the fastest way to step an environment and the reference the sandboxed backends are measured
against, but it isolates nothing: use it for the bundled library and code you wrote yourself.

Limits: a per-call time limit is enforced with ``SIGALRM`` when calls come from the main thread
(elsewhere there is no safe way to interrupt Python code in-process); the environment's prints are
captured, also only on the main thread, because swapping ``sys.stdout`` is process-wide.

The alarm repeats until the call returns: an exception raised by a signal handler is lost when it lands
in a garbage-collector or weak-reference callback (Python prints "Exception ignored in ..." and goes on),
or when the environment catches it, and a one-shot alarm would then leave the call without a limit.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from spade_envs.runtime.errors import EnvTimeoutError
from spade_envs.runtime.guest import EnvHost
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.output import BoundedWriter
from spade_envs.runtime.session import TransportBackend

ALARM_REPEAT_S = 0.05
"""Once the deadline has passed, the alarm fires again this often until the call has returned."""


class _DeadlinePassed(BaseException):
    """Raised by the alarm handler; a BaseException so ordinary ``except Exception`` does not eat it."""


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    if seconds <= 0 or not _on_main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise _DeadlinePassed()

    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_REPEAT_S)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class InProcessTransport:
    """Calls the dispatcher directly, under the time limit."""

    def __init__(self, limits: ExecutionLimits) -> None:
        self.limits = limits
        self.host = EnvHost(passthrough=(_DeadlinePassed,))
        self.output = BoundedWriter(limits.max_output_bytes)

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        capture = _on_main_thread()
        try:
            with _deadline(self.limits.call_timeout_s):
                if not capture:
                    return self.host.handle(request)
                with contextlib.redirect_stdout(self.output), contextlib.redirect_stderr(self.output):
                    return self.host.handle(request)
        except _DeadlinePassed:
            raise EnvTimeoutError(
                f"the environment's {request.get('op')}() ran longer than "
                f"{self.limits.call_timeout_s:g} s; remove unbounded loops or make the work smaller"
            ) from None

    def close(self) -> None:
        self.host = EnvHost()


class InProcessBackend(TransportBackend):
    """Runs environments in the host interpreter (trusted code only)."""

    name = "inprocess"
    isolated = False

    def open_transport(self) -> InProcessTransport:
        return InProcessTransport(self.limits)
