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


def is_allowed_module(name: str) -> bool:
    """True when ``import name`` (or a submodule of it, e.g. ``collections.abc``) is allowed."""
    return name.split(".", 1)[0] in ALLOWED_MODULES
