"""The ``process`` backend: each environment in a persistent child Python process.

For environments that need modules the WebAssembly guest lacks (numpy, ...). Isolation is a process
boundary, no inherited environment variables, kernel resource limits (address space; RLIMIT_FSIZE=0,
so no file *contents* can be written, although files can still be created, listed, read or deleted)
and a wall-clock deadline per call enforced by killing the child. It does not block the network or
the host filesystem: use it for code you trust, and the ``wasm`` backend for code a model wrote.
tests/test_sandbox_hostile.py pins down exactly what it does and does not contain.

Thread safety: the backend may be shared; each session (one child) must be used by one thread at a time.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

from spade_envs.runtime.errors import EnvCrashError, EnvTimeoutError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.replies import decode_wire_reply
from spade_envs.runtime.session import TransportBackend

_CHILD_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
"""The child sees none of the host's environment variables (API keys stay on the host)."""
STARTUP_TIMEOUT_S = 60.0
"""How long a child may take to start its interpreter: that time is the host's, not the environment's,
so the per-call limit starts only once the child has said it is ready."""
READY_LINE = b'{"ready": true}'



class ProcessTransport:
    """A child process speaking JSON lines; killed on timeout or protocol violation."""

    def __init__(self, limits: ExecutionLimits) -> None:
        self.limits = limits
        self.last_output = ""
        self._workdir = tempfile.TemporaryDirectory(prefix="spade-env-")
        config = json.dumps({"memory_mb": limits.memory_mb, "max_output_bytes": limits.max_output_bytes,
                             "parent": os.getpid()})
        self._child: subprocess.Popen[bytes] | None = subprocess.Popen(
            [sys.executable, "-I", "-m", "spade_envs.runtime.process_child", config],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self._workdir.name,
            env={**_CHILD_ENV, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
            start_new_session=True,  # its own process group, so a kill takes its children too
        )
        self._buffer = b""
        self._ready = False

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        child = self._child
        if child is None or child.stdin is None:
            raise EnvCrashError("the environment process is closed")
        op = str(request.get("op"))
        if not self._ready:
            if self._read_line("start", STARTUP_TIMEOUT_S) != READY_LINE:
                self.close()
                raise EnvCrashError("the environment process did not start properly")
            self._ready = True
        try:
            child.stdin.write(json.dumps(request).encode() + b"\n")
            child.stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise EnvCrashError(f"the environment process died before {op}()") from None
        line = self._read_line(op, self.limits.call_timeout_s)
        try:
            reply, self.last_output = decode_wire_reply(line, "the environment process", op,
                                                          self.limits.max_output_bytes)
        except EnvCrashError:
            self.close()
            raise
        return reply

    def _read_line(self, op: str, timeout_s: float) -> bytes:
        """The child's next line, within ``timeout_s`` (0: no limit); a child that overruns is killed."""
        assert self._child is not None and self._child.stdout is not None
        fd = self._child.stdout.fileno()
        timeout = timeout_s if timeout_s > 0 else None
        deadline = time.monotonic() + timeout if timeout else None
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self.close()
                    if op == "start":
                        raise EnvCrashError(f"the environment process did not start within {timeout_s:g} s")
                    raise EnvTimeoutError(
                        f"the environment's {op}() ran longer than {timeout_s:g} s; "
                        "remove unbounded loops or make the work smaller"
                    )
                if not selector.select(remaining):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self._child.poll()
                    self.close()
                    raise EnvCrashError(f"the environment process died during {op}() (exit status {code})")
                self._buffer += chunk
                if len(self._buffer) > self.limits.max_reply_bytes + 4096:
                    self.close()
                    raise EnvCrashError(f"the environment's reply to {op}() exceeded the size limit")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            child.wait()
            for stream in (child.stdin, child.stdout):
                if stream is not None:
                    stream.close()
        self._workdir.cleanup()


class ProcessBackend(TransportBackend):
    """Runs each environment in its own child process (trusted code that needs extra modules)."""

    name = "process"
    isolated = False

    def open_transport(self) -> ProcessTransport:
        return ProcessTransport(self.limits)
