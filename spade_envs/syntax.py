"""``parse``: ``ast.parse`` that is safe to call from several threads at once.

CPython before 3.11.8 and 3.12.1 counts the recursion depth of building Python's syntax tree per
interpreter instead of per thread (python/cpython#106905). Two threads parsing at the same moment can make
either fail with ``SystemError: AST constructor recursion depth mismatch``, whatever the code. The
self-play loop does exactly that: it validates designs in worker threads while its own thread parses the
next ones. The static checks saw an honest design fail this way. One lock around the parse costs little,
since a parse takes microseconds to milliseconds; the lock is the module's only state. The guest
(``contract/actions.py``) keeps plain ``ast.parse``, since it is single-threaded.
"""

from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse(source, filename, mode)``, one thread at a time; raises what ``ast.parse`` raises."""
    with _LOCK:
        return ast.parse(source, filename=filename, mode=mode)
