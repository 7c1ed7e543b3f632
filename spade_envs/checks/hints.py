"""Does a hint give the answer away?

In SPADE the designer is paid by regret: the hinted agent's return minus the unhinted one. A hint
that contains the answer maximises regret without teaching anything, and a designer trained on it
learns to cheat. The prompt asks for no answer; this check enforces it, in two passes:

1. ``find_hint_leak``, the cheap first pass: the hint's text against each seed's answer in every form
   ``leaks.text_candidates`` knows (the number, an unreduced fraction, numerator and denominator
   named apart, a decimal rounded from it, the number spelled out, its digits reversed), most of the
   winning move sequence in order, or most of the solution's tool calls;
2. ``hint_reader_policies``, the proof: policies that read the hint and play what they find in it
   (every number, fraction, spelled number, quoted or boxed string, letter; the hint's moves in order).
   A hint that lets such a reader win more often than chance is a leak, whatever form it used.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any, Literal

from spade_envs.checks.leaks import (
    action_content,
    answer_key,
    clean_control,
    number_words,
    parse_number,
    spelled_numbers,
    squeeze,
    text_candidates,
)
from spade_envs.checks.probes import Policy, SeedCase, distinct_answer_chance
from spade_envs.contract.actions import solution_to_actions, tool_use_script

MIN_SEQUENCE_MOVES = 3
"""A hint may name a move or two; naming this many of the solution's moves, in order, gives the game away."""
SEQUENCE_SHARE = 0.6
"""Naming this share of the winning moves (or tool calls), in order, is a leak."""
MAX_HINT_CHARS = 4_000
_DIRECT_KINDS = frozenset({"number", "fraction", "word", "phrase", "letter", "quoted", "boxed"})
READER_KINDS = ("number", "fraction", "number_pair", "rounded_decimal", "reversed_number", "spelled_number",
                "letter", "quoted", "boxed")


def _final_answer(solution: Any, tool_use: bool) -> str | None:
    """The answer a solution states: a bare value, a one-move list, or a tool-use list's final answer."""
    actions = solution_to_actions(solution, tool_use=tool_use)
    if not actions:
        return None
    if tool_use or len(actions) == 1:
        return action_content(actions[-1])
    return None


def _final_move_number(solution: Any, tool_use: bool) -> str | None:
    """The number in a game's winning last move (``\\boxed{guess 606}``): usually the secret itself."""
    actions = solution_to_actions(solution, tool_use=tool_use)
    if len(actions) < 2 or tool_use:
        return None
    numbers = re.findall(r"-?\d+(?:\.\d+)?", action_content(actions[-1]))
    return numbers[0] if len(numbers) == 1 and len(numbers[0].lstrip("-")) >= 2 else None


def _in_order_share(needles: list[str], haystack: str) -> float:
    """Which share of ``needles`` occurs in ``haystack`` one after another, in order (a subsequence)."""
    position, found = 0, 0
    for needle in needles:
        if not needle:
            continue
        index = haystack.find(needle, position)
        if index >= 0:
            found += 1
            position = index + len(needle)
    return found / len(needles) if needles else 0.0


def find_hint_leak(hint: str, solutions: list[Any], *, tool_use: bool = False,
                   tool_names: list[str] | None = None, replays: list[list[str]] | None = None,
                   only: Literal["all", "answer", "path"] = "all", shown: str | None = None) -> str | None:
    """How ``hint`` leaks one of the ``solutions`` (one per seed), or None if it does not.

    ``replays``, when given, holds for each solution the observations its replay showed (the first
    one, then one per move), so that a hint naming the states the winning path passes through is found.
    Answers shorter than two characters are not matched: a hint may well say 'in 3 moves'. ``only``
    narrows what is looked for: "answer" (the final answer, or the number the winning move states, in any
    form: what a hint naming numbers can hold by coincidence) or "path" (the states, moves or tool calls
    of the winning path). ``shown``, the task text the hint goes with, lets the answer be found in parts:
    two of the hint's numbers, one of them not in the task, that one +, -, x or / step combines into it.
    """
    answers, path = only != "path", only != "answer"
    hint = clean_control(hint[:MAX_HINT_CHARS])
    lowered = " ".join(hint.lower().split())
    squeezed = squeeze(hint)
    candidates = text_candidates(hint)
    hint_numbers = [c.key for c in candidates if c.kind == "number"]
    letters = [w.lower() for w in re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", hint)]
    for index, solution in enumerate(solutions):
        replay = replays[index] if replays and index < len(replays) else None
        if path and replay and _names_intermediate_states(hint_numbers, replay):
            return "gives the states the winning path passes through"
        answer = _final_answer(solution, tool_use) if answers else None
        if answer is not None:
            key = answer_key(answer)
            if len(key) >= 2:
                spelled = next((text for text, value in spelled_numbers(hint) if str(value) == key), None)
                if spelled is not None:
                    return f"contains the answer ({spelled!r})"
                match = next((c for c in candidates if c.key == key), None)
                if match is not None:
                    how = "" if match.kind in _DIRECT_KINDS else f" as a {match.kind.replace('_', ' ')}"
                    return f"contains the answer{how} ({match.text!r})"
                if not parse_number(answer) and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", lowered):
                    return f"contains the answer ({key!r})"
                value = parse_number(answer)
                words = number_words(abs(value.numerator)) if value is not None and value.denominator == 1 else None
                if words and len(words) > 3 and words.replace("-", " ") in lowered.replace("-", " "):
                    return f"spells out the answer ({words!r})"
                parts = _parts_of(value, candidates, shown) if value is not None and shown is not None else None
                if parts:
                    return f"gives the answer in parts ({parts})"
        actions = solution_to_actions(solution, tool_use=tool_use, tool_names=tool_names) if path else []
        if not path:
            pass
        elif tool_use:
            calls = [a for a in actions if a.startswith("<tool_call>")]
            named = [_call_signature(call) for call in calls]
            hinted = {_call_signature(call) for call in tool_use_script(hint, tool_names or [])
                      if call.startswith("<tool_call>")}
            if len(named) >= 2 and sum(sig in hinted for sig in named) / len(named) >= SEQUENCE_SHARE:
                return "names the exact tool calls to make"
            named = _named_arguments(hint, actions, tool_names or [])
            if named:
                return f"names the exact tool calls to make ({named})"
        elif len(actions) >= MIN_SEQUENCE_MOVES:
            moves = [squeeze(action_content(a)) for a in actions]
            if sum(map(len, moves)) >= 4 and _in_order_share(moves, squeezed) >= SEQUENCE_SHARE:
                return "spells out most of the winning move sequence"
            initials = [m[0] for m in moves if m]
            if len(letters) >= MIN_SEQUENCE_MOVES and _in_order_share(initials, "".join(letters)) >= SEQUENCE_SHARE \
                    and len(set(initials)) > 1:
                return "gives most of the winning move sequence by initials"
        final_number = _final_move_number(solution, tool_use) if answers else None
        if final_number and re.search(rf"(?<![\w.]){re.escape(final_number)}(?![\w]|\.\d)", lowered):
            return f"contains the number the winning move states ({final_number!r})"
    return None


MAX_PART_NUMBERS = 8
"""The hint's first numbers that are tried in pairs as parts of the answer."""


def _parts_of(target: Fraction, candidates: list[Any], shown: str) -> str | None:
    """Two numbers of the hint, at least one of them new (not in the task ``shown``), that one arithmetic step
    combines into ``target``: a count and a unit price, two legs of a sum, a numerator and a denominator.

    Numbers the task shows are the task's own: combining those is the task, and a hint that repeats them
    gives nothing away. A new number is a result the agent was meant to work out.
    """
    task = {c.key for c in text_candidates(shown[:MAX_HINT_CHARS]) if c.kind == "number"}
    numbers: list[tuple[str, Fraction]] = []
    for candidate in candidates:
        if candidate.kind != "number" or any(candidate.key == key for key, _ in numbers):
            continue
        value = parse_number(candidate.text)
        if value is not None:
            numbers.append((candidate.key, value))
        if len(numbers) >= MAX_PART_NUMBERS:
            break
    for i, (a_key, a) in enumerate(numbers):
        for b_key, b in numbers[i + 1:]:
            if a_key in task and b_key in task:
                continue
            for shown_as, value in ((f"{a_key} + {b_key}", a + b), (f"{a_key} x {b_key}", a * b),
                                    (f"{a_key} - {b_key}", a - b), (f"{b_key} - {a_key}", b - a),
                                    (f"{a_key} / {b_key}", a / b if b else None),
                                    (f"{b_key} / {a_key}", b / a if a else None)):
                if value is not None and value == target:
                    return shown_as
    return None


def _names_intermediate_states(hint_numbers: list[str], replay: list[str]) -> bool:
    """Whether the hint's numbers, in order, name the new state of most steps of the winning path."""
    if len(replay) < 1 + MIN_SEQUENCE_MOVES or len(hint_numbers) < MIN_SEQUENCE_MOVES - 1:
        return False
    first = {c.key for c in text_candidates(replay[0]) if c.kind == "number"}
    steps = len(replay) - 1
    counters = {str(i) for i in range(steps + 2)}  # turn counters say nothing about the state
    news = []
    for observation in replay[1:]:
        numbers = {c.key for c in text_candidates(observation) if c.kind == "number"}
        news.append(numbers - first - counters)
    position, named = 0, 0
    for new in news:
        hit = next((i for i in range(position, len(hint_numbers)) if hint_numbers[i] in new), None)
        if hit is not None:
            named, position = named + 1, hit + 1
    return named >= MIN_SEQUENCE_MOVES - 1 and named / steps >= SEQUENCE_SHARE - 0.1


def _named_arguments(hint: str, actions: list[str], tool_names: list[str]) -> str | None:
    """A hint that names a tool and two or more of the values the solution passes to it."""
    lowered = hint.lower()
    for name in tool_names:
        if name.lower() not in lowered:
            continue
        values = []
        for action in actions:
            if not action.startswith("<tool_call>"):
                continue
            try:
                call = json.loads(action[len("<tool_call>"):-len("</tool_call>")])
            except (ValueError, RecursionError):
                continue
            if isinstance(call, dict) and call.get("name") == name and isinstance(call.get("arguments"), dict):
                values += [str(v) for v in call["arguments"].values() if isinstance(v, (str, int)) and len(str(v)) >= 2]
        named = sorted({v for v in values if re.search(rf"(?<![\w]){re.escape(v.lower())}(?![\w])", lowered)})
        if len(named) >= 2:
            return f"{name} for {', '.join(named[:4])}"
    return None


def _call_signature(action: str) -> str:
    """A tool call's name and arguments, order-independent, for comparing calls."""
    body = action[len("<tool_call>"):-len("</tool_call>")] if action.startswith("<tool_call>") else action
    try:
        call = json.loads(body)
    except (ValueError, RecursionError):
        return body
    if not isinstance(call, dict):
        return body
    arguments = call.get("arguments")
    try:
        shown = json.dumps(arguments, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        shown = str(type(arguments))
    return f"{call.get('name')}|{shown}"


def hint_reader_policies(cases: list[SeedCase], hints: dict[int, str], source: str) -> list[Policy]:
    """Policies that read each seed's hint and play what they find in it.

    Every candidate of the reader kinds, by its place in the hint (the i-th number, the fraction after
    'is', ...), is played as the answer; the hint's words that are also solution moves are played in
    order as a game. The chance rate is what the same values would win without the hint (constant
    hints: one over the number of distinct answers).
    """
    chance = distinct_answer_chance(cases)
    plans: dict[str, dict[int, tuple[str, ...]]] = {}
    descriptions: dict[str, str] = {}
    for case in cases:
        hint = hints.get(case.seed)
        if not hint:
            continue
        found = [c for c in text_candidates(hint[:MAX_HINT_CHARS]) if c.kind in READER_KINDS]
        chosen: set[str] = set()
        if case.answer_like():
            for candidate in found:
                if candidate.index >= 6:
                    continue
                name = f"{source}:{candidate.kind}:{candidate.index}"
                if name in chosen:
                    continue
                chosen.add(name)
                descriptions[name] = (f"reads the {source} and plays its "
                                      f"{['first', 'second', 'third', 'fourth', 'fifth', 'sixth'][candidate.index]} "
                                      f"{candidate.kind.replace('_', ' ')} ({candidate.text!r} on seed {case.seed})")
                plans.setdefault(name, {})[case.seed] = case.prefix() + (case.wrap(candidate.text),)
        if not case.tool_use and len(case.solution) >= MIN_SEQUENCE_MOVES:
            vocabulary = {squeeze(action_content(a)): a for a in case.solution}
            moves = [vocabulary[squeeze(w)] for w in re.findall(r"[A-Za-z0-9]+", hint[:MAX_HINT_CHARS])
                     if squeeze(w) in vocabulary]
            if len(moves) >= MIN_SEQUENCE_MOVES:
                name = f"{source}:moves"
                descriptions[name] = f"plays the moves named in the {source}, in order"
                plans.setdefault(name, {})[case.seed] = tuple(moves)
    return [Policy("hint_leak", name, descriptions[name], seed_plans, chance) for name, seed_plans in plans.items()]


__all__ = ["MIN_SEQUENCE_MOVES", "find_hint_leak", "hint_reader_policies", "number_words"]
