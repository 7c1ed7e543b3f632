"""The guest side of the WebAssembly sandbox. This file runs inside the component, never on the host.

componentize-py executes the top level of this module at build time and snapshots the resulting heap,
so everything imported here is baked into the image and nothing can be imported at run time (there
is no filesystem). That is why every allowlisted module is imported up front, and with them the extra
standard-library modules generated programs may use (``spade_envs.runtime.guest_modules``; the static
checker still holds environments to the allowlist).

Everything in this interpreter, including this module and the ``json`` module it shares with the
environment, is within the environment's reach. Nothing here is trusted by the host: the host checks
every reply. The guards below exist to turn common mistakes into clear errors, not to be the wall.
"""

import gc
import importlib
import json
import sys
import time

import wit_world

from spade_envs.contract.allowlist import ALLOWED_MODULES
from spade_envs.runtime.guest import EnvHost, EnvironmentNamespace, VirtualClock
from spade_envs.runtime.guest_modules import GENERATED_CODE_MODULES

for _name in sorted(ALLOWED_MODULES | GENERATED_CODE_MODULES):
    importlib.import_module(_name)

RECURSION_LIMIT = 1000
"""Deep Python recursion must become a RecursionError long before the wasm stack is exhausted."""


class _BoundedOutput:
    """Keeps the first ``limit`` characters of what the environment prints during one call."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        if type(text) is str and self.size < self.limit:
            piece = text[: self.limit - self.size]
            self.parts.append(piece)
            self.size += len(piece)
        return len(text) if type(text) is str else 0

    def flush(self) -> None:
        pass

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts, self.size = [], 0
        return text


def _sleep_returns_at_once(seconds: float) -> None:
    """Sleeping would block the host's worker; the sandbox's clock refuses to wait anyway."""


def _raise_unencodable(value: object) -> None:
    raise TypeError("reply values must be plain")


# One JSON encoder and scanner for the interpreter's life: ``json.dumps`` builds a new C encoder per
# call, which was a tenth of the guest's side of a round trip. Kept here, out of the environment's reach
# (it sees the json module, not these). Replies are trees (``to_plain`` builds them), so no cycle check.
_encode = json.encoder.c_make_encoder(None, _raise_unencodable, json.encoder.encode_basestring_ascii, None,
                                      ": ", ", ", False, False, True)
_scan = json.decoder.JSONDecoder().scan_once


def _dumps(value: object) -> str:
    return "".join(_encode(value, 0))


def _loads(text: str) -> dict:
    value, _ = _scan(text, 0)
    return value


_output = _BoundedOutput(64 * 1024)
_max_reply_chars = 1 << 20
_host = EnvHost(prepared=EnvironmentNamespace.fresh(VirtualClock(0.0)))  # part of the image: see its docstring

if sys.platform == "wasi":  # never patch a host interpreter that imports this file by mistake
    sys.stdout = sys.stderr = _output
    sys.setrecursionlimit(RECURSION_LIMIT)
    time.sleep = _sleep_returns_at_once

_FAILED = '{"ok": false, "error": {"kind": "protocol", "message": "the guest could not encode its reply"}}'
_OUT_OF_MEMORY = '{"ok": false, "error": {"kind": "memory", "message": "out of memory while encoding the reply"}}'


def _configure(request: dict) -> None:
    """The load request carries the session's output and reply limits."""
    global _max_reply_chars
    _output.limit = int(request.get("max_output_chars", _output.limit))
    _max_reply_chars = int(request.get("max_reply_chars", _max_reply_chars))


class WitWorld(wit_world.WitWorld):
    def handle(self, request: str) -> str:
        try:
            parsed = _loads(request)
            if parsed.get("op") == "load":
                _configure(parsed)
            reply = _host.handle(parsed)
            printed = _output.take() if _output.parts else ""
            if printed:
                reply["output"] = printed
            text = _dumps(reply)  # ASCII escapes keep lone surrogates legal across the boundary
            if len(text) > _max_reply_chars:
                return _dumps(
                    {
                        "ok": False,
                        "error": {
                            "kind": "too_large",
                            "message": f"the reply has {len(text):,} characters, more than the "
                            f"{_max_reply_chars:,} allowed; return shorter observations",
                        },
                    }
                )
            return text
        except MemoryError:
            return _OUT_OF_MEMORY
        except BaseException:  # noqa: BLE001 -- the export must never trap on an ordinary error
            return _FAILED


if sys.platform == "wasi":
    # Everything made so far is part of the image: moved out of the collector's way, a collection never
    # walks (and so never touches, page by page) the snapshot's objects.
    gc.collect()
    gc.freeze()
