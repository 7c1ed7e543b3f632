"""The child side of the ``process`` backend: serves one environment over JSON lines on stdin/stdout.

Started by ``process.py`` as ``python -I -m spade_envs.runtime.process_child LIMITS_JSON``, or forked from
a template process that has imported the environment's libraries already (``process_zygote.py``). Once set up
it writes ``{"ready": true}``, so that the host's per-call limit never includes interpreter start-up. The
protocol channel is a private duplicate of the original stdout; file descriptors 1 and 2 then point
to /dev/null and Python's ``sys.stdout``/``sys.stderr`` to a bounded buffer, so nothing the
environment prints (even from C code) can corrupt the channel.
"""

from __future__ import annotations

import json
import os
import resource
import sys

from spade_envs.runtime.guest import EnvHost
from spade_envs.runtime.lifeline import exit_with_parent
from spade_envs.runtime.output import BoundedWriter


def _apply_limits(memory_mb: int) -> None:
    """Resource limits the kernel enforces on this process.

    Address space is capped at what the interpreter already uses plus ``memory_mb``; writing file
    contents and core dumps are disabled (creating or deleting files is not). (As root, RLIMIT_NPROC does not stop fork; the process backend is for
    trusted code that needs extra modules, the wasm backend is the isolation boundary.)
    """
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = current + (memory_mb << 20)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main() -> None:
    serve(json.loads(sys.argv[1]) if len(sys.argv) > 1 else {})


def serve(limits: dict) -> None:
    """Serve one environment on stdin/stdout until stdin closes. Also the body of a child forked by the
    template process (``process_zygote.py``), which has pointed stdin and stdout at the session's pipes."""
    parent = limits.get("parent")
    if isinstance(parent, int):  # started before the memory cap, which then counts its thread's stack
        exit_with_parent(parent)  # in a session of its own, a killed host's child would otherwise live on
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    requests = sys.stdin
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    printed = BoundedWriter(int(limits.get("max_output_bytes", 65536)))
    sys.stdout = sys.stderr = printed
    _apply_limits(int(limits.get("memory_mb", 256)))
    host = EnvHost()
    channel.write('{"ready": true}\n')  # the host starts timing calls from here
    channel.flush()
    for line in requests:
        try:
            reply = host.handle(json.loads(line))
        except ValueError:
            reply = {"ok": False, "error": {"kind": "protocol", "message": "request is not JSON"}}
        output = printed.take()
        if output:
            reply["output"] = output
        try:
            text = json.dumps(reply)
        except (TypeError, ValueError, RecursionError):
            text = '{"ok": false, "error": {"kind": "protocol", "message": "reply could not be encoded"}}'
        channel.write(text + "\n")
        channel.flush()


if __name__ == "__main__":
    main()
