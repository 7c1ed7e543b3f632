"""Hypothesis as a driver of the fuzzer's choices, and the database that hands it a failing example.

The action vocabulary itself is ``contract/fuzz_actions.py``: every random decision there is a call of
a ``Chooser``. Here Hypothesis is that chooser (``DataChooser``), which is what lets it shrink: a fuzz
example that failed in a batch (its choices recorded by a ``SeededChooser``) is given to Hypothesis
through ``ReplayDatabase`` as if Hypothesis had found it before, and Hypothesis replays it and shrinks
it to a minimal seed and action list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase, choices_to_bytes

from spade_envs.contract.actions import observation_tokens
from spade_envs.contract.fuzz_actions import ALPHABET, tool_call, tool_functions

__all__ = ["DataChooser", "ReplayDatabase", "observation_tokens", "tool_calls"]


class DataChooser:
    """A ``Chooser`` whose choices Hypothesis makes (``data.draw``), one draw per choice.

    ``integer(low, high)`` is one integer choice and ``text(min_size, max_size)`` one string choice of
    Hypothesis' own representation, so the values a ``SeededChooser`` recorded replay one for one.
    """

    def __init__(self, draw: Any) -> None:
        self._draw = draw
        self._integers: dict[tuple[int, int], st.SearchStrategy[int]] = {}
        self._texts: dict[tuple[int, int], st.SearchStrategy[str]] = {}

    def integer(self, low: int, high: int) -> int:
        strategy = self._integers.get((low, high))
        if strategy is None:
            strategy = self._integers[(low, high)] = st.integers(low, high)
        return self._draw(strategy)

    def one_in(self, count: int) -> bool:
        return self.integer(0, count - 1) == 0

    def text(self, min_size: int, max_size: int) -> str:
        strategy = self._texts.get((min_size, max_size))
        if strategy is None:
            strategy = self._texts[(min_size, max_size)] = st.text(alphabet=ALPHABET, min_size=min_size,
                                                                   max_size=max_size)
        return self._draw(strategy)


class ReplayDatabase(ExampleDatabase):
    """An example database that holds one example: the choices of a failure found outside Hypothesis.

    Hypothesis replays its *secondary* corpus and, if an example there fails, shrinks it (the primary
    corpus is taken to be shrunk already). Whatever Hypothesis saves is dropped: each run starts clean.
    """

    def __init__(self, choices: Iterable[int | str]) -> None:
        super().__init__()
        self._blob = choices_to_bytes(list(choices))

    def fetch(self, key: bytes) -> Iterable[bytes]:
        if key.endswith(b".secondary"):
            yield self._blob

    def save(self, key: bytes, value: bytes) -> None:
        pass

    def delete(self, key: bytes, value: bytes) -> None:
        pass

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        pass


@st.composite
def tool_calls(draw: Any, tools: list[dict[str, Any]]) -> str:
    """Valid calls (arguments drawn from each tool's schema) and the usual ways calls go wrong."""
    functions = tool_functions(tools)
    if not functions:
        raise ValueError("tool_calls needs at least one named tool")
    return tool_call(DataChooser(draw), functions)
