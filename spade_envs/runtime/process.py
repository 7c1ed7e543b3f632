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

import ast
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections import OrderedDict
from typing import Any

from spade_envs.runtime.errors import EnvCrashError, EnvTimeoutError
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.replies import decode_wire_reply
from spade_envs.runtime.session import EnvSession, TransportBackend
from spade_envs.syntax import parse

_CHILD_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
"""The child sees none of the host's environment variables (API keys stay on the host)."""
STARTUP_TIMEOUT_S = 60.0
"""How long a child may take to start its interpreter: that time is the host's, not the environment's,
so the per-call limit starts only once the child has said it is ready."""
READY_LINE = b'{"ready": true}'



class _Spawned:
    """A session's child started as a new interpreter (no template)."""

    def __init__(self, config: str, workdir: str) -> None:
        self._popen = subprocess.Popen(
            [sys.executable, "-I", "-m", "spade_envs.runtime.process_child", config],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workdir,
            env=_child_env(),
            start_new_session=True,  # its own process group, so a kill takes its children too
        )
        assert self._popen.stdin is not None and self._popen.stdout is not None
        self.pid = self._popen.pid
        self.stdin = self._popen.stdin
        self.stdout_fd = self._popen.stdout.fileno()

    def exit_status(self) -> str:
        code = self._popen.poll()
        return "unknown" if code is None else str(code)

    def close(self) -> None:
        _kill_group(self.pid)
        self._popen.wait()
        for stream in (self._popen.stdin, self._popen.stdout):
            if stream is not None:
                stream.close()


class _Forked:
    """A session's child forked from a template (``process_zygote.py``); the kernel reaps it."""

    def __init__(self, pid: int, stdin_fd: int, stdout_fd: int) -> None:
        self.pid = pid
        self.stdin = os.fdopen(stdin_fd, "wb")
        self.stdout_fd = stdout_fd

    def exit_status(self) -> str:
        return "unknown"  # not this process's child: its status goes to the template, which discards it

    def close(self) -> None:
        _kill_group(self.pid)
        self.stdin.close()
        os.close(self.stdout_fd)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _child_env() -> dict[str, str]:
    return {**_CHILD_ENV, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


class Template:
    """A template process (``process_zygote.py``) that has imported ``preload`` and forks sessions.

    Thread-safe: forks are asked for one at a time. A template that fails (it died, it answered
    nonsense) is marked broken, and sessions start as new interpreters instead.
    """

    def __init__(self, preload: tuple[str, ...]) -> None:
        self.preload = preload
        self.broken = False
        self._lock = threading.Lock()
        self._socket, theirs = socket.socketpair()
        config = json.dumps({"preload": list(preload), "parent": os.getpid(), "control_fd": theirs.fileno()})
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-m", "spade_envs.runtime.process_zygote", config],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=_child_env(), pass_fds=(theirs.fileno(),), start_new_session=True)
        theirs.close()
        self._socket.settimeout(STARTUP_TIMEOUT_S)  # the first fork waits for the imports
        self._finalizer = weakref.finalize(self, _stop_template, self._process, self._socket)

    def fork(self, limits: dict[str, Any], workdir: str) -> _Forked | None:
        """A new session's child, or None when the template cannot give one (then start one anew)."""
        with self._lock:
            if self.broken:
                return None
            requests_read, requests_write = os.pipe()
            replies_read, replies_write = os.pipe()
            try:
                message = json.dumps({"limits": limits, "workdir": workdir}).encode()
                socket.send_fds(self._socket, [message], [requests_read, replies_write])
                line = b""
                while not line.endswith(b"\n"):
                    chunk = self._socket.recv(4096)
                    if not chunk:
                        raise OSError("the template process closed its socket")
                    line += chunk
                pid = json.loads(line)["pid"]
                if type(pid) is not int or pid <= 0:
                    raise ValueError(f"the template answered {line[:80]!r}")
            except (OSError, ValueError, KeyError, TypeError):
                self.broken = True
                for fd in (requests_write, replies_read):
                    os.close(fd)
                return None
            finally:
                os.close(requests_read)
                os.close(replies_write)
            return _Forked(pid, requests_write, replies_read)

    def close(self) -> None:
        self._finalizer()


def _stop_template(process: subprocess.Popen[bytes], control: socket.socket) -> None:
    control.close()  # the template returns once its socket closes; its children watch it and follow
    _kill_group(process.pid)
    process.wait()


class ProcessTransport:
    """A child process speaking JSON lines; killed on timeout or protocol violation."""

    def __init__(self, limits: ExecutionLimits, template: Template | None = None) -> None:
        self.limits = limits
        self.last_output = ""
        self._workdir = tempfile.TemporaryDirectory(prefix="spade-env-")
        child_limits = {"memory_mb": limits.memory_mb, "max_output_bytes": limits.max_output_bytes}
        forked = template.fork(child_limits, self._workdir.name) if template is not None else None
        self._child: _Spawned | _Forked | None = forked or _Spawned(
            json.dumps({**child_limits, "parent": os.getpid()}), self._workdir.name)
        self._buffer = b""
        self._ready = False

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        child = self._child
        if child is None:
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
        assert self._child is not None
        fd = self._child.stdout_fd
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
                    code = self._child.exit_status()
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
            child.close()
        self._workdir.cleanup()


class ProcessBackend(TransportBackend):
    """Runs each environment in its own child process (trusted code that needs extra modules).

    Sessions are forked from a template process that has imported the libraries the environment's file
    imports at its top level (``process_zygote.py``), one template per set of libraries, at most
    ``MAX_TEMPLATES`` of them (the least recently used is stopped). ``templates=False`` starts every
    session as a new interpreter instead.
    """

    name = "process"
    isolated = False

    def __init__(self, limits: ExecutionLimits | None = None, *, templates: bool = True) -> None:
        super().__init__(limits)
        self.templates = templates
        self._templates: OrderedDict[tuple[str, ...], Template] = OrderedDict()
        self._lock = threading.Lock()

    def open_transport(self) -> ProcessTransport:
        return ProcessTransport(self.limits)

    def open_session(self, source: str, **options: Any) -> EnvSession:
        template = self._template(libraries_imported(source)) if self.templates else None
        return EnvSession(lambda: ProcessTransport(self.limits, template), source, **options)

    def _template(self, preload: tuple[str, ...]) -> Template:
        with self._lock:
            template = self._templates.pop(preload, None)
            if template is None or template.broken:
                template = Template(preload)
            self._templates[preload] = template  # now the most recently used
            while len(self._templates) > MAX_TEMPLATES:
                _, oldest = self._templates.popitem(last=False)
                oldest.close()
            return template

    def close(self) -> None:
        """Stop the templates (they also stop by themselves when this process ends)."""
        with self._lock:
            for template in self._templates.values():
                template.close()
            self._templates.clear()

    def __getstate__(self) -> dict[str, Any]:
        """A backend sent to another process takes its settings, not its templates."""
        return {"limits": self.limits, "templates": self.templates}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["limits"], templates=state["templates"])  # type: ignore[misc]


MAX_TEMPLATES = 4
"""Template processes one backend keeps (each holds its libraries' memory)."""


def libraries_imported(source: str) -> tuple[str, ...]:
    """The modules outside the standard library that ``source`` imports at module level, sorted: what its
    template preloads. Submodules are named whole (``textarena.envs.registration``), since a package may
    load its parts only when they are asked for (verifiers loads its stack from ``verifiers.legacy``).
    Read, not run; a file that does not parse preloads nothing (its session reports the syntax error)."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return tuple(sorted(name for name in names if name.split(".")[0] not in sys.stdlib_module_names))
