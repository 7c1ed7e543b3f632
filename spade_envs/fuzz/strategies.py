"""Hypothesis strategies for agent actions, built from what the environment shows.

A model's actions are not random bytes: they are mostly plausible moves with mistakes in them. So the
mix leans on the environment's own material (its solution moves and mutations of them, tokens and
numbers from the current observation) and adds adversarial text and, for tool-use environments, tool
calls generated from the environment's own JSON schemas, valid and invalid.

Strategies are ordered simplest first because Hypothesis shrinks toward the first branch of
``one_of``: a failing sequence shrinks toward solution moves and plain boxed tokens, which makes the
counterexample easy to read.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

from spade_envs.contract.actions import boxed, format_answer, format_tool_call, observation_tokens
from spade_envs.contract.probes import GARBAGE_ACTIONS


def _mutations(move: str) -> st.SearchStrategy[str]:
    """Small edits of a good move: the mistakes a model actually makes."""
    inner = move[len("\\boxed{") : -1] if move.startswith("\\boxed{") and move.endswith("}") else move
    numbers = re.findall(r"-?\d+", inner)
    options: list[st.SearchStrategy[str]] = [
        st.just(inner),  # forgot \boxed{}
        st.just(move + " " + move),  # said it twice
        st.just(boxed(inner.lower())),
        st.just(boxed(inner.upper())),
        st.just(boxed(" " + inner + " ")),
        st.just(boxed(inner[:-1])) if len(inner) > 1 else st.just(boxed("")),
        st.just(boxed(inner + inner)),
    ]
    if numbers:
        options.append(
            st.integers(-5, 5).map(lambda delta, n=numbers[0]: boxed(inner.replace(n, str(int(n) + delta), 1)))
        )
    return st.one_of(options)


def adversarial_text() -> st.SearchStrategy[str]:
    """Text that breaks naive parsers: empty, whitespace, broken or nested boxes, huge, odd unicode."""
    return st.one_of(
        st.sampled_from(GARBAGE_ACTIONS),
        st.text(max_size=40),
        st.text(max_size=40).map(boxed),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=12).map(lambda t: boxed(t) * 2),
        st.integers(1, 400).map(lambda n: boxed("9" * n)),  # the contract probes already send 10 kB actions
        st.sampled_from(["\x00", "\x1b[2J", "\u202e", "\ud7ff", "\ufeff", "\r\n", "\t"]).map(boxed),
    )


# ---------------------------------------------------------------------- tool calls from JSON schemas
def _value(schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values that satisfy a (simple) JSON schema: enum, string, integer, number, boolean, array, object."""
    if not isinstance(schema, dict) or depth > 3:
        return st.none()
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind == "string":
        return st.text(max_size=12)
    if kind == "integer":
        return st.integers(-1000, 1000)
    if kind == "number":
        return st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(_value(schema.get("items", {}), depth + 1), max_size=3)
    if kind == "object":
        return _arguments(schema, depth + 1)
    return st.one_of(st.none(), st.integers(-5, 5), st.text(max_size=5))


def _arguments(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [name for name in schema.get("required", []) if name in properties] if isinstance(
        schema.get("required"), list) else []
    optional = {name: _value(spec, depth) for name, spec in properties.items() if name not in required}
    return st.fixed_dictionaries({name: _value(properties[name], depth) for name in required}, optional=optional)


_WRONG_TYPE = st.one_of(st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2), st.none(),
                        st.booleans(), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def tool_calls(tools: list[dict[str, Any]]) -> st.SearchStrategy[str]:
    """Valid calls (arguments drawn from each tool's schema) and the usual ways calls go wrong."""
    functions = [t.get("function", {}) for t in tools if isinstance(t, dict)]
    functions = [f for f in functions if isinstance(f, dict) and isinstance(f.get("name"), str)]
    if not functions:
        return st.nothing()
    names = [f["name"] for f in functions]

    def valid(function: dict[str, Any]) -> st.SearchStrategy[str]:
        schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
        return _arguments(schema).map(lambda args, name=function["name"]: format_tool_call(name, args))

    def broken(function: dict[str, Any]) -> st.SearchStrategy[str]:
        name = function["name"]
        schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
        keys = sorted(schema.get("properties", {})) if isinstance(schema.get("properties"), dict) else []
        wrong_types = (
            st.fixed_dictionaries({key: _WRONG_TYPE for key in keys}) if keys else st.just({"x": 1})
        )
        return st.one_of(
            wrong_types.map(lambda args: format_tool_call(name, args)),  # wrong types
            st.just(format_tool_call(name, {})),  # missing arguments
            _arguments(schema).map(lambda args: format_tool_call(name, {**args, "unexpected": 1})),  # extra
            st.just("<tool_call>" + json.dumps({"name": name, "arguments": {}})[:-3] + "</tool_call>"),  # JSON
        )

    return st.one_of(
        st.sampled_from(functions).flatmap(valid),
        st.sampled_from(functions).flatmap(broken),
        st.text(min_size=1, max_size=10).filter(lambda n: n not in names).map(
            lambda n: format_tool_call(n, {})),  # unknown tool
        st.text(max_size=20).map(format_answer),
    )


class ActionMix:
    """Draws one action per turn; the parts that do not depend on the observation are built once.

    Building a fresh ``one_of`` of nested strategies every turn made Hypothesis re-validate them
    each time, which cost more than stepping the environment. Drawing a branch index first and then
    from a prebuilt branch keeps per-turn work small and still shrinks toward branch 0 (solution moves).
    """

    def __init__(self, tools: list[dict[str, Any]] | None) -> None:
        self._numbers = st.integers(-100, 10_000).map(boxed)
        self._adversarial = adversarial_text()
        self._tools = tool_calls(tools) if tools else None
        self._mutations: dict[tuple[str, ...], st.SearchStrategy[str]] = {}
        self._tokens: dict[str, list[str]] = {}  # observations repeat a lot within a fuzz run

    def _mutation_strategy(self, moves: list[str]) -> st.SearchStrategy[str]:
        key = tuple(moves)
        if key not in self._mutations:
            self._mutations[key] = st.sampled_from(moves).flatmap(_mutations)
        return self._mutations[key]

    def draw(self, data: Any, observation: str, moves: list[str], label: str) -> str:
        """One action, with as few Hypothesis draws as possible (each costs tens of microseconds).

        A single integer picks either a solution move, an observation token, or one of the other kinds;
        only those kinds draw again. Small integers are solution moves, so shrinking moves toward them.
        """
        tokens = self._tokens.get(observation)
        if tokens is None:
            if len(self._tokens) > 1024:
                self._tokens.clear()
            tokens = self._tokens[observation] = observation_tokens(observation)
        words = [t for t in tokens if t.isalpha()]
        others = ["number", "mutation" if moves else "number", "adversarial"]
        if self._tools is not None:
            others.append("tool")
        if len(words) > 1:
            others += ["phrase", "phrase"]  # models often answer in words: weight it up
        # moves and tokens get a weight of several slots each so they dominate the mix
        move_slots = 4 if moves else 0
        token_slots = 3 if tokens else 0
        pick = data.draw(st.integers(0, move_slots + token_slots + len(others) - 1), label=f"{label} kind")
        if pick < move_slots:
            return moves[data.draw(st.integers(0, len(moves) - 1), label=label)] if len(moves) > 1 else moves[0]
        if pick < move_slots + token_slots:
            return boxed(tokens[data.draw(st.integers(0, len(tokens) - 1), label=label)])
        kind = others[pick - move_slots - token_slots]
        if kind == "phrase":
            picks = data.draw(st.lists(st.integers(0, len(words) - 1), min_size=2, max_size=4), label=label)
            return boxed(" ".join(words[i] for i in picks))
        if kind == "mutation":
            return data.draw(self._mutation_strategy(moves), label=label)
        if kind == "tool":
            return data.draw(self._tools, label=label)  # type: ignore[arg-type]
        if kind == "number":
            return data.draw(self._numbers, label=label)
        return data.draw(self._adversarial, label=label)
