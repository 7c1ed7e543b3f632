"""The template process of the ``process`` backend: an environment's libraries imported once, a fresh
child forked from it for every session.

Starting a session of the process backend used to mean starting an interpreter and importing the
environment's libraries anew: about 1.3 s for gem, 2 s for TextArena, 5.5 s for verifiers. One
validation opens a dozen sessions, so a third-party game took half a minute to validate, nearly all of
it imports. A template imports the libraries the environment's file names at its top level, then waits;
each session is a fork of it, which shares the imported modules' memory and starts in milliseconds.

A fork is as fresh as a new interpreter where it matters to the checks: the environment's own module
is loaded in the child, after the fork, so no state of one session reaches another; only the libraries'
import-time state is shared, and it is the same in every child (and as a fresh import would make it).

Protocol (``process.py``'s ``Template`` is the other side): the host sends, over a Unix socket, one JSON
line per session with two file descriptors attached, the read end of the session's request pipe and
the write end of its reply pipe; the template forks, and answers ``{"pid": PID}``. The child starts a
session of its own (so that a kill reaches everything it started), points stdin and stdout at the
pipes and serves the environment as ``process_child.py`` does, applying its own limits. The template
ignores SIGCHLD, so the kernel reaps the children; it exits when the host does, or closes the socket.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import socket
import sys

from spade_envs.runtime import process_child
from spade_envs.runtime.lifeline import exit_with_parent

MAX_REQUEST_BYTES = 1 << 16


def main() -> None:
    config = json.loads(sys.argv[1])
    exit_with_parent(int(config["parent"]))
    control = socket.socket(fileno=int(config["control_fd"]))
    for module in config.get("preload", []):
        try:
            importlib.import_module(module)
        except BaseException:  # noqa: BLE001, S110 -- the session's own import reports it, in the session
            pass
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    template = os.getpid()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, MAX_REQUEST_BYTES, 2)
        except OSError:
            return
        if not message or len(fds) != 2:
            return  # the host closed the socket (or broke the protocol): nothing more to serve
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            _child(control, fds, request, template)
        for fd in fds:
            os.close(fd)
        control.sendall(json.dumps({"pid": pid}).encode() + b"\n")


def _child(control: socket.socket, fds: list[int], request: dict, template: int) -> None:
    """The forked session: its own process group, the session's pipes as stdin and stdout, then serve."""
    try:
        control.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        for fd in fds:
            os.close(fd)
        os.chdir(request["workdir"])
        process_child.serve({**request["limits"], "parent": template})
    finally:
        os._exit(0)


if __name__ == "__main__":
    main()
