"""Wrong answers that are answers: drawn from the task's own answer space, as the agent sees it.

Every probe that needs a wrong answer (a near miss, two answers in one reply, a wrong answer boxed after
reasoning that names every candidate) must play something the task could have as its answer. A
decoration of the right answer is no such thing: ``\\boxed{D} or maybe \\boxed{Dx}`` beside a four-option
question holds one legal answer and one malformed box, and an environment that skips the malformed box
and reads the legal one is honest. Penalising it teaches the designer not to write multiple-choice tasks.

The space is read from what the agent sees, in this order:

1. **the options the seed shows** (lettered or numbered lines, inline lists), when the answer is one of
   them: the other options;
   When the answer is several of the options shown (three primes among eight numbers), one of them is
   swapped for another option shown;
2. **the other seeds' answers of the same form** (same length class, same kinds of characters): another
   task's answer is an answer of this task's kind;
3. **a well-formed value of the same form**: a number of the same kind (integer, fraction, decimal), a
   code with one character changed to another of its class, or (only where the seeds' answers differ
   in length, so that length is not part of the form) a word one letter longer.

Two answers are never counted as different when the task's own parser would read them as one:
``answer_key`` already folds case, spacing, a final full stop and equivalent number forms; ``same_reading``
also drops surrounding quotes and brackets and the spacing around punctuation.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from spade_envs.checks.leaks import answer_key, parse_number

OptionLists = Callable[[str], list[list[str]]]
"""Reads the option lists a text shows (``exploits.chance.option_lists``)."""

_WRAPPING = " \t\n'\"`()[]{}<>"


def reading(text: str) -> str:
    """How an ordinary parser reads an answer: ``answer_key`` without surrounding quotes or brackets and
    without spacing around punctuation (``'b'``, ``(B)`` and ``b`` read alike; so do ``3,4`` and ``3, 4``)."""
    key = answer_key(text).strip(_WRAPPING)
    return re.sub(r"\s*([,;:/|=+*-])\s*", r"\1", key)


def same_reading(a: str, b: str) -> bool:
    return reading(a) == reading(b)


def form(text: str) -> str:
    """The shape of an answer: digits as 9, letters as a or A, other characters kept (``AB-12`` -> ``AA-99``)."""
    out = []
    for char in text.strip()[:200]:
        out.append("9" if char.isdigit() else ("A" if char.isupper() else "a") if char.isalpha() else char)
    return "".join(out)


def _kind(text: str) -> str:
    """The kind of characters of an answer, whatever its length: ``a``, ``A``, ``9``, ``a9``, ..."""
    return "".join(sorted({c for c in form(text) if c in "aA9"} or {"?"}))


@dataclass
class AnswerSpace:
    """The answers a task's seeds have and the options each seed shows (see the module docstring)."""

    answers: tuple[str, ...]
    options: Mapping[int, tuple[str, ...]]
    lengths_vary: bool
    subsets: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Seeds whose answer is several of the options shown (``13, 59, 61`` of eight numbers listed): the options."""
    signed: bool = field(init=False, default=False)
    """Whether a sign is part of the answers' form (some answer is negative)."""
    fractional: bool = field(init=False, default=False)
    """Whether fractions are part of the answers' form."""
    digits_vary: bool = field(init=False, default=False)
    """Whether the number of digits varies (a 3-digit code is not a number a digit longer)."""
    _by_form: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _by_kind: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _found: dict[tuple[int, str, int], list[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # The seeds' answers grouped by form and by kind once, most common first: wrong_answers is asked for
        # every seed by several families, and scanning every answer each time was most of its cost.
        forms: dict[str, Counter[str]] = {}
        kinds: dict[str, Counter[str]] = {}
        for answer in self.answers:
            forms.setdefault(form(answer), Counter())[answer] += 1
            kinds.setdefault(_kind(answer), Counter())[answer] += 1
        self._by_form = {key: _most_common_first(counts) for key, counts in forms.items()}
        self._by_kind = {key: _most_common_first(counts) for key, counts in kinds.items()}
        numbers = [a for a in self.answers if parse_number(a) is not None]
        self.signed = any(a.startswith("-") for a in numbers)
        self.fractional = any("." in a or "/" in a for a in numbers)
        self.digits_vary = len({len(a.lstrip("-")) for a in numbers if a.lstrip("-").isdigit()}) > 1

    @classmethod
    def build(cls, seeds_and_answers: Sequence[tuple[int, str, str]],
              option_lists: OptionLists | None = None) -> AnswerSpace:
        """``seeds_and_answers``: (seed, first observation, answer) of every verified seed."""
        answers = tuple(answer.strip() for _, _, answer in seeds_and_answers if answer.strip())
        options: dict[int, tuple[str, ...]] = {}
        subsets: dict[int, tuple[str, ...]] = {}
        if option_lists is not None:
            for seed, observation, answer in seeds_and_answers:
                wanted = reading(answer)
                parts = [reading(part) for part in answer.split(",")] if "," in answer else []
                shown = _squeezed(observation[:12_000])
                if not wanted or not all(_squeezed(part) in shown for part in parts or [answer]):
                    continue  # an answer the task does not show is in none of its lists (a cheap test first)
                for items in option_lists(observation):
                    keys = {reading(item) for item in items}
                    if wanted in keys:
                        options[seed] = tuple(items)
                        break
                    if len(parts) >= 2 and all(part in keys for part in parts) and len(items) > len(parts):
                        subsets[seed] = tuple(items)
                        break
        text_answers = [a for a in answers if parse_number(a) is None]
        lengths_vary = len({len(a) for a in text_answers}) > 1
        return cls(answers, options, lengths_vary, subsets)

    def wrong_answers(self, seed: int, answer: str, limit: int = 3) -> list[str]:
        """Up to ``limit`` wrong answers of this seed's task, most plainly legal first."""
        answer = answer.strip()
        cached = self._found.get((seed, answer, limit))
        if cached is not None:
            return list(cached)
        right = reading(answer)
        found: list[str] = []
        seen: set[str] = {right}

        def add(candidate: str) -> bool:
            """Add a candidate; True once ``limit`` are found."""
            candidate = candidate.strip()
            key = reading(candidate)
            if candidate and key not in seen:
                seen.add(key)
                found.append(candidate)
            return len(found) >= limit

        shown, subset = self.options.get(seed), self.subsets.get(seed)
        if subset and not shown:  # several options are the answer: the answer with one, then all, swapped
            parts = [part.strip() for part in answer.split(",")]
            chosen = {reading(part) for part in parts}
            others = [option.strip() for option in subset if reading(option) not in chosen]
            if others:
                add(", ".join(parts[:-1] + [others[0]]))
            if len(others) >= len(parts):  # nothing right in it: no partial credit is due to this one
                add(", ".join(others[: len(parts)]))
            for option in others[1:]:
                if add(", ".join(parts[:-1] + [option])):
                    break
        elif shown:
            for option in shown:  # the other options, in the order shown: nothing else is an answer here
                if add(option):
                    break
        else:
            others = self._by_form.get(form(answer), [])
            if self.lengths_vary:
                others = others + self._by_kind.get(_kind(answer), [])
            done = any(add(other) for other in others[: 4 * limit + 8])
            if not done:
                for candidate in well_formed_neighbours(answer, self.lengths_vary):
                    if add(candidate):
                        break
        self._found[(seed, answer, limit)] = found[:limit]
        return found[:limit]

    def wrong_answer(self, seed: int, answer: str) -> str | None:
        found = self.wrong_answers(seed, answer, 1)
        return found[0] if found else None


def _squeezed(text: str) -> str:
    """Lower case without whitespace: a cheap test of whether a text shows an answer somewhere."""
    return "".join(text.lower().split())


def _most_common_first(counts: Counter[str]) -> list[str]:
    return [answer for answer, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]


def well_formed_neighbours(answer: str, lengths_vary: bool = False) -> list[str]:
    """Values of the answer's own form next to it: numbers of the same kind, a code with one character
    changed within its class, a word one letter longer where length is not part of the form."""
    value = parse_number(answer)
    if value is not None:
        if value.denominator == 1 and "." not in answer and "e" not in answer.lower():
            number = value.numerator
            return [str(number + 1), str(number - 1), str(number + 2)]
        if re.fullmatch(r"-?\d+\.\d+", answer.strip()):
            places = len(answer.strip().split(".")[1])
            step = 10 ** -places
            return [f"{float(value) + step:.{places}f}", f"{float(value) - step:.{places}f}"]
        if value.denominator != 1 and "/" in answer:
            return [f"{value.numerator + 1}/{value.denominator}", f"{value.numerator}/{value.denominator + 1}"]
        return [f"{float(value) * 2:g}"]
    out = []
    for index in range(len(answer) - 1, -1, -1):  # the last character that has a class changed in its class
        char = answer[index]
        if char.isdigit():
            out.append(answer[:index] + str((int(char) + 1) % 10) + answer[index + 1:])
        elif char.isalpha() and char.isascii():
            base = "A" if char.isupper() else "a"
            out.append(answer[:index] + chr((ord(char) - ord(base) + 1) % 26 + ord(base)) + answer[index + 1:])
        if len(out) >= 2:
            break
    if lengths_vary and answer and answer[-1].isalpha():
        out.append(answer + ("q" if answer[-1].islower() else "Q"))
    return out


__all__ = ["AnswerSpace", "OptionLists", "form", "reading", "same_reading", "well_formed_neighbours"]
