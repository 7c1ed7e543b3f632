"""The standard-library modules an environment may import.

One list serves the static checker (imports outside it are rejected before anything runs) and the
WebAssembly sandbox (only these modules are baked into the guest image). Everything here is pure
computation: no files, sockets, processes, threads or introspection of the interpreter.
"""

from __future__ import annotations

ALLOWED_MODULES: frozenset[str] = frozenset(
    {
        "__future__",
        "abc",
        "array",
        "bisect",
        "calendar",
        "cmath",
        "collections",
        "copy",
        "dataclasses",
        "datetime",
        "decimal",
        "difflib",
        "enum",
        "fractions",
        "functools",
        "hashlib",
        "heapq",
        "itertools",
        "json",
        "math",
        "numbers",
        "operator",
        "random",
        "re",
        "statistics",
        "string",
        "textwrap",
        "time",
        "typing",
        "unicodedata",
    }
)


PROVIDED_MODULES: dict[str, str] = {
    "math_verify": "spade_envs.contract.math_verify_shim",
}
"""Modules the loader gives environments under another module's name. The SPADE release's prompts tell
designers to ``from math_verify import parse, verify``; the real package needs sympy, so environments get
a standard-library stand-in (see ``math_verify_shim``) and release-style code loads unchanged."""


def is_allowed_module(name: str) -> bool:
    """True when ``import name`` (or a submodule of it, e.g. ``collections.abc``) is allowed."""
    root = name.split(".", 1)[0]
    return root in ALLOWED_MODULES or name in PROVIDED_MODULES
