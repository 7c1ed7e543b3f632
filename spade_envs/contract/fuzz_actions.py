"""The fuzzer's action vocabulary, drawn through a ``Chooser``: one implementation for three drivers.

A model's actions are not random bytes: they are mostly plausible moves with mistakes in them. So the
mix leans on the environment's own material (its solution moves and mutations of them, tokens and
numbers from the current observation) and adds adversarial text and, for tool-use environments, tool
calls generated from the environment's own JSON schemas, valid and invalid.

Every random decision is one call of a ``Chooser``: ``integer(low, high)`` or ``text(min_size,
max_size)``. The same code therefore runs

* inside the sandbox, driven by a ``SeededChooser`` (an episode program plays whole fuzz examples
  without a round trip per step, see ``runtime/programs.py``);
* on the host, driven by a ``SeededChooser`` with the same seed, to replay exactly what the sandbox
  chose (the host never takes the sandbox's word for which actions it played);
* on the host under Hypothesis, driven by its data (``fuzz/strategies.py``), to shrink a failure. The
  choices a ``SeededChooser`` records are the values Hypothesis would have drawn, so a failing example
  is handed to Hypothesis as it is and shrunk from there.

Options are ordered simplest first because shrinking lowers choices: a failing sequence shrinks toward
solution moves and plain boxed tokens, which makes the counterexample easy to read.

This module runs inside the sandbox too, so it uses the standard library only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Protocol

from spade_envs.contract.actions import boxed, format_answer, format_tool_call, observation_tokens
from spade_envs.contract.probes import GARBAGE_ACTIONS

ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\n\r!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    "éüßñçøåÆ" "ΩπΣ" "Жж" "测试中文" "😀🙂" "∑≠√∞" "\u0301\u200b\u200d\u202e\u2066\ufeff\ufffd\x00\x1b\x7f"
)
"""Characters generated text is drawn from: ASCII, accented and non-Latin letters, emoji, maths, combining
and invisible marks, bidi overrides and control characters. A fixed alphabet keeps Hypothesis from building
its Unicode tables (about 150 MB, cached in a `.hypothesis` folder of the working directory) on first use."""

SPECIAL_CHARACTERS = ("\x00", "\x1b[2J", "\u202e", "\ud7ff", "\ufeff", "\r\n", "\t")
MASK64 = (1 << 64) - 1


class Chooser(Protocol):
    """The source of every random decision of a fuzz example."""

    def integer(self, low: int, high: int) -> int:
        """An integer in [low, high]; callers never ask for an empty or one-value range."""

    def text(self, min_size: int, max_size: int) -> str:
        """A string of ``ALPHABET`` characters, ``min_size`` to ``max_size`` long."""

    def one_in(self, count: int) -> bool:
        """True about once in ``count`` draws: an integer in [0, count - 1] that is 0. Unlike ``integer``,
        a generator draws it uniformly, so costly extras (audits, solution rechecks) keep their rate."""


def pick(chooser: Chooser, low: int, high: int) -> int:
    """``chooser.integer`` that draws nothing for a one-value range (both drivers agree on this)."""
    return low if high <= low else chooser.integer(low, high)


# ---------------------------------------------------------------------- the seeded generator
def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: (new state, 64-bit output). Plain integer arithmetic, the same everywhere."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def example_seed(fuzz_seed: int, index: int) -> int:
    """The generator seed of example ``index`` of a fuzz run with seed ``fuzz_seed``."""
    _, mixed = splitmix64((fuzz_seed & MASK64) ^ 0x5DEECE66D)
    _, out = splitmix64(mixed ^ index)
    return out


class SeededChooser:
    """Choices from SplitMix64, recorded as they are made (``choices``).

    Uniform draws rarely produce the examples that break environments: the same move eight times, the
    smallest value everywhere. Like Hypothesis' own generator, each example therefore draws a *mode*
    first (not a choice: it only shapes the values):

    * ``simplest``: every choice is its lower bound (the first example of a run is always this one);
    * ``sticky``: a draw usually repeats the last value drawn over the same range, so kinds, tokens and
      lengths repeat along the episode;
    * ``edgy``: uniform, with the bounds drawn more often than their share.
    """

    MODES = ("simplest", "sticky", "edgy")

    def __init__(self, seed: int, *, mode: str | None = None) -> None:
        self._state = seed & MASK64
        if mode is None:
            mode = self.MODES[1 + self._next() % 2] if self._next() % 8 else "simplest"
        self.mode = mode
        self.choices: list[int | str] = []
        self._last: dict[tuple[int, int], int | str] = {}

    def _next(self) -> int:
        self._state, out = splitmix64(self._state)
        return out

    def _below(self, count: int) -> int:
        return self._next() % count

    def integer(self, low: int, high: int) -> int:
        value = self._integer(low, high)
        self.choices.append(value)
        return value

    def _integer(self, low: int, high: int) -> int:
        if self.mode == "simplest":
            return low
        roll = self._below(100)
        if self.mode == "sticky":
            last = self._last.get((low, high))
            if last is not None and roll < 70:
                return int(last)
        if roll >= 88:
            value = low if roll < 96 else high
        else:
            value = low + self._below(high - low + 1)
        self._last[(low, high)] = value
        return value

    def text(self, min_size: int, max_size: int) -> str:
        value = self._text(min_size, max_size)
        self.choices.append(value)
        return value

    def one_in(self, count: int) -> bool:
        value = self._below(count)
        self.choices.append(value)
        return value == 0

    def _text(self, min_size: int, max_size: int) -> str:
        if self.mode == "simplest":
            return ALPHABET[0] * min_size
        key = (-1 - min_size, -1 - max_size)
        last = self._last.get(key)
        if self.mode == "sticky" and last is not None and self._below(100) < 70:
            return str(last)
        # Short strings are the common case (a geometric length), long ones still appear.
        size = min_size
        while size < max_size and self._below(8):
            size += 1
        value = "".join(ALPHABET[self._below(len(ALPHABET))] for _ in range(size))
        self._last[key] = value
        return value


# ---------------------------------------------------------------------- one example's outline
@dataclass(frozen=True)
class ExampleHeader:
    """What a fuzz example decides before its first action."""

    seed: int
    length: int
    audit: bool
    recheck: bool


def draw_header(chooser: Chooser, *, pool: list[int], turn_limit: int, audit_every: int,
                seed_range: tuple[int, int] | None) -> ExampleHeader:
    """The environment seed, the episode length, and whether to audit or recheck the solution.

    Whether to audit is drawn too, so a shrunk replay of the example audits the same way; shrinking
    toward 0 turns the audit on. ``audit_every`` of 1 audits every example.
    """
    if seed_range is not None:
        low, high = seed_range
        env_seed = pick(chooser, low, max(low, high - 1))
    else:
        env_seed = pool[pick(chooser, 0, len(pool) - 1)]
    length = pick(chooser, 1, turn_limit + 1)
    audit = audit_every <= 1 or chooser.one_in(audit_every)
    recheck = not audit and chooser.one_in(20)
    return ExampleHeader(env_seed, length, audit, recheck)


# ---------------------------------------------------------------------- the kinds of action
def mutation(chooser: Chooser, move: str) -> str:
    """A small edit of a good move: the mistakes a model actually makes."""
    inner = move[len("\\boxed{"):-1] if move.startswith("\\boxed{") and move.endswith("}") else move
    numbers = [n for n in re.findall(r"-?\d+", inner) if len(n) <= 18]  # no int() of a 5,000-digit number
    options = [
        inner,  # forgot \boxed{}
        move + " " + move,  # said it twice
        boxed(inner.lower()),
        boxed(inner.upper()),
        boxed(" " + inner + " "),
        boxed(inner[:-1]) if len(inner) > 1 else boxed(""),
        boxed(inner + inner),
    ]
    index = pick(chooser, 0, len(options) - (0 if numbers else 1))
    if index < len(options):
        return options[index]
    delta = chooser.integer(-5, 5)
    return boxed(inner.replace(numbers[0], str(int(numbers[0]) + delta), 1))


def adversarial_text(chooser: Chooser) -> str:
    """Text that breaks naive parsers: empty, whitespace, broken or nested boxes, huge, odd unicode."""
    kind = chooser.integer(0, 5)
    if kind == 0:
        return GARBAGE_ACTIONS[pick(chooser, 0, len(GARBAGE_ACTIONS) - 1)]
    if kind == 1:
        return chooser.text(0, 40)
    if kind == 2:
        return boxed(chooser.text(0, 40))
    if kind == 3:
        return boxed(chooser.text(0, 12)) * 2
    if kind == 4:
        return boxed("9" * chooser.integer(1, 400))  # the contract probes already send 10 kB actions
    return boxed(SPECIAL_CHARACTERS[pick(chooser, 0, len(SPECIAL_CHARACTERS) - 1)])


def schema_value(chooser: Chooser, schema: Any, depth: int = 0) -> Any:
    """A value that satisfies a (simple) JSON schema: enum, string, integer, number, boolean, array, object."""
    if not isinstance(schema, dict) or depth > 3:
        return None
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[pick(chooser, 0, min(len(enum), 100) - 1)]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind == "string":
        return chooser.text(0, 12)
    if kind == "integer":
        return chooser.integer(-1000, 1000)
    if kind == "number":
        return chooser.integer(-4_000_000, 4_000_000) / 4
    if kind == "boolean":
        return chooser.integer(0, 1) == 1
    if kind == "array":
        return [schema_value(chooser, schema.get("items", {}), depth + 1) for _ in range(chooser.integer(0, 3))]
    if kind == "object":
        return schema_arguments(chooser, schema, depth + 1)
    branch = chooser.integer(0, 2)
    return None if branch == 0 else chooser.integer(-5, 5) if branch == 1 else chooser.text(0, 5)


def schema_arguments(chooser: Chooser, schema: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """Arguments for an object schema: every required property, and each optional one or not."""
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    names = [str(name) for name in list(properties)[:20]]
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    arguments: dict[str, Any] = {}
    for name in names:
        if name in required or chooser.integer(0, 1) == 1:
            arguments[name] = schema_value(chooser, properties[name], depth)
    return arguments


def wrong_type(chooser: Chooser) -> Any:
    """A value of some other JSON type than an argument should have."""
    kind = chooser.integer(0, 5)
    if kind == 0:
        return chooser.integer(-(2**40), 2**40)
    if kind == 1:
        return chooser.text(0, 5)
    if kind == 2:
        return [chooser.integer(-1000, 1000) for _ in range(chooser.integer(0, 2))]
    if kind == 3:
        return None
    if kind == 4:
        return chooser.integer(0, 1) == 1
    return {chooser.text(0, 3): chooser.integer(-1000, 1000) for _ in range(chooser.integer(0, 2))}


def tool_functions(tools: list[Any] | None) -> list[dict[str, Any]]:
    """The well-formed function entries of a tool list (what the environment declared, bounded)."""
    functions = [t.get("function") for t in (tools or [])[:100] if isinstance(t, dict)]
    return [f for f in functions if isinstance(f, dict) and isinstance(f.get("name"), str)]


def tool_call(chooser: Chooser, functions: list[dict[str, Any]]) -> str:
    """A valid call (arguments drawn from the tool's schema), or one of the usual ways calls go wrong."""
    names = [f["name"] for f in functions]
    kind = chooser.integer(0, 3)
    if kind == 2:  # an unknown tool
        name = chooser.text(1, 10)
        return format_tool_call(name + "_" if name in names else name, {})
    if kind == 3:
        return format_answer(chooser.text(0, 20))
    function = functions[pick(chooser, 0, len(functions) - 1)]
    name = function["name"]
    schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    if kind == 0:
        return format_tool_call(name, schema_arguments(chooser, schema))
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    broken = chooser.integer(0, 3)
    if broken == 0:  # wrong types
        keys = sorted(str(key) for key in list(properties)[:20])
        return format_tool_call(name, {key: wrong_type(chooser) for key in keys} if keys else {"x": 1})
    if broken == 1:  # missing arguments
        return format_tool_call(name, {})
    if broken == 2:  # an extra argument
        return format_tool_call(name, {**schema_arguments(chooser, schema), "unexpected": 1})
    return "<tool_call>" + json.dumps({"name": name, "arguments": {}})[:-3] + "</tool_call>"  # broken JSON


class ActionMix:
    """Draws one action per turn from the current observation, the solution's moves and the tools.

    A single integer picks either a solution move, an observation token, or one of the other kinds;
    only those kinds draw again. Small integers are solution moves, so shrinking moves toward them.
    """

    def __init__(self, tools: list[Any] | None) -> None:
        self._functions = tool_functions(tools)
        self._tokens: dict[str, list[str]] = {}  # observations repeat a lot within a fuzz run

    def draw(self, chooser: Chooser, observation: str, moves: list[str]) -> str:
        tokens = self._tokens.get(observation)
        if tokens is None:
            if len(self._tokens) > 1024:
                self._tokens.clear()
            tokens = self._tokens[observation] = observation_tokens(observation)
        words = [t for t in tokens if t.isalpha()]
        others = ["number", "mutation" if moves else "number", "adversarial"]
        if self._functions:
            others.append("tool")
        if len(words) > 1:
            others += ["phrase", "phrase"]  # models often answer in words: weight it up
        # moves and tokens get a weight of several slots each so they dominate the mix
        move_slots = 4 if moves else 0
        token_slots = 3 if tokens else 0
        chosen = chooser.integer(0, move_slots + token_slots + len(others) - 1)
        if chosen < move_slots:
            return moves[pick(chooser, 0, len(moves) - 1)]
        if chosen < move_slots + token_slots:
            return boxed(tokens[pick(chooser, 0, len(tokens) - 1)])
        kind = others[chosen - move_slots - token_slots]
        if kind == "phrase":
            count = chooser.integer(2, 4)
            return boxed(" ".join(words[pick(chooser, 0, len(words) - 1)] for _ in range(count)))
        if kind == "mutation":
            return mutation(chooser, moves[pick(chooser, 0, len(moves) - 1)])
        if kind == "tool":
            return tool_call(chooser, self._functions)
        if kind == "number":
            return boxed(str(chooser.integer(-100, 10_000)))
        return adversarial_text(chooser)
