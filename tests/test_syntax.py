"""``spade_envs.syntax.parse``: parsing from several threads at once (python/cpython#106905).

The embedded run's checker threads and its own thread both parse code. On CPython before 3.11.8 (and
3.12.0), a garbage collection that runs Python finalizers in the middle of ``ast.parse`` can switch
threads, and the other thread's parse then breaks the shared recursion counter: ``SystemError: AST
constructor recursion depth mismatch``. An honest design failed the static checks this way in a full
suite run. Garbage with finalizers and a low collection threshold make the switch frequent here.
"""

from __future__ import annotations

import ast
import gc
import sys
import threading

import pytest

from spade_envs.syntax import parse

SOURCE = "x = " + "(" * 30 + "1" + ")" * 30 + "\n" + "def f():\n    return [[i, (j, {k: k})] for i in range(3)]\n" * 100
AFFECTED = sys.version_info < (3, 11, 8) or (3, 12, 0) <= sys.version_info < (3, 12, 1)


class _Finalised:
    """Garbage whose collection runs Python code (a place where the interpreter may switch threads)."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        sum(range(50))


def _errors(parser, rounds: int = 30, threads: int = 4) -> list[str]:
    errors: list[str] = []
    threshold = gc.get_threshold()
    gc.set_threshold(50, 1, 1)

    def work() -> None:
        for _ in range(rounds):
            garbage = [_Finalised() for _ in range(20)]
            del garbage
            try:
                parser(SOURCE)
            except SystemError as error:
                errors.append(str(error))

    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        gc.set_threshold(*threshold)
    return errors


def test_parsing_from_several_threads_never_breaks_the_recursion_counter():
    assert _errors(parse) == []


@pytest.mark.skipif(not AFFECTED, reason="this Python counts the AST recursion depth per thread")
def test_the_plain_parse_does_break_here_so_the_test_above_can_fail():
    assert any("recursion depth mismatch" in error for error in _errors(ast.parse))
