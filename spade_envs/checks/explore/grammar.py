"""A game's move grammar, read from the game itself: templates with typed slots.

The exploit search attacks the answer; a multi-turn game is usually broken in a move. To play moves the
solution never plays (a value just outside the range, a move repeated, a move cut short, a command the
text advertises), the explorer first needs to know what a move looks like. It reads that from what the
environment shows:

* ``solution()``'s moves on every verified seed: each move's content (inside ``\\boxed{}``) is split into
  tokens (numbers, words, single punctuation marks, runs of spaces); moves with the same shape (the same
  sequence of token kinds and the same punctuation) share a template; a token position where every move
  has the same word is a literal (``move``, ``swap``), one where words vary is a word slot (``up``,
  ``down``), and every number is a number slot, with the values the solutions use;
* the first observation: commands it advertises as boxed examples (``\\boxed{look}``) or in a list
  introduced by "commands"/"you can type" that no solution plays.

A template renders back into a move with ``render``; ``wrap`` puts it in the solution's own action format.
Nothing here plays anything: ``explorer`` builds episodes from it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from spade_envs.checks.leaks import action_content
from spade_envs.contract.actions import BOXED_PREFIX, boxed, boxed_spans

_TOKEN = re.compile(r"-?\d+|[A-Za-z]+|\s+|[^\sA-Za-z\d]")
_COMMAND_LIST = re.compile(
    r"(?:\bcommands?\b|\byou (?:can|may) also (?:type|send|use)\b|\bother moves?\b)[^.\n:]{0,60}:\s*([^\n]{1,300})",
    re.IGNORECASE)
_ITEM_SPLIT = re.compile(r",|;|\bor\b|\band\b|\s/\s")
MAX_TEMPLATES = 6
"""Templates kept (the most used): a game has a few kinds of moves; more shapes are free text."""
MAX_COMMANDS = 6


@dataclass(frozen=True)
class Slot:
    """One variable position of a template: ``number`` (its integer values) or ``word`` (its words)."""

    kind: str
    values: tuple[str, ...]

    @property
    def numbers(self) -> list[int]:
        return sorted(int(value) for value in self.values) if self.kind == "number" else []


@dataclass(frozen=True)
class Template:
    """A move shape: literal tokens and slots, in order. ``parts`` holds a ``str`` per literal token and a
    ``Slot`` per variable one."""

    parts: tuple[str | Slot, ...]
    uses: int
    """How many solution moves have this shape (over every seed)."""
    example: str
    """The first solution move of this shape, as played (its content)."""

    @property
    def tokens(self) -> list[str]:
        """The example's tokens: what ``render`` sets slots of and what a cut move leaves out."""
        return _TOKEN.findall(self.example)

    @property
    def pattern(self) -> str:
        """The template written with ``_`` for each slot: ``fill _ _ _``."""
        return "".join("_" if isinstance(part, Slot) else part for part in self.parts)

    @property
    def slots(self) -> list[tuple[int, Slot]]:
        return [(index, part) for index, part in enumerate(self.parts) if isinstance(part, Slot)]

    def render(self, values: dict[int, str]) -> str:
        """The move with the slots at ``values``' positions set (the others as in ``example``)."""
        return "".join(values.get(index, token) for index, token in enumerate(self.tokens))

    def tokens_of(self, content: str) -> list[str] | None:
        """``content``'s tokens if it has this template's shape, else None."""
        tokens = _TOKEN.findall(content)
        return tokens if _shape(tokens) == _shape(self.tokens) and all(
            not isinstance(part, str) or part == token for part, token in zip(self.parts, tokens)) else None


@dataclass(frozen=True)
class MoveGrammar:
    templates: tuple[Template, ...]
    """The move shapes, most used first."""
    commands: tuple[str, ...]
    """Words the first observations offer as moves that no solution plays (``look``, ``help``, ``status``)."""
    boxed_moves: bool
    """Whether the solutions' moves are boxed (``wrap`` boxes what it plays)."""

    def wrap(self, content: str) -> str:
        return boxed(content) if self.boxed_moves else content

    def template_of(self, content: str) -> tuple[Template, list[str]] | None:
        """The template ``content`` has, with its tokens (None when it has none of them)."""
        for template in self.templates:
            tokens = template.tokens_of(content)
            if tokens is not None:
                return template, tokens
        return None


def read_grammar(solutions: Sequence[Sequence[str]], observations: Sequence[str]) -> MoveGrammar:
    """The grammar of the moves in ``solutions`` (one list of actions per seed) and the commands that
    ``observations`` advertise."""
    moves = [action_content(action) for solution in solutions for action in solution]
    boxed_moves = any(BOXED_PREFIX in action for solution in solutions for action in solution)
    groups: dict[tuple, list[list[str]]] = defaultdict(list)
    examples: dict[tuple, str] = {}
    for move in moves:
        tokens = _TOKEN.findall(move)
        if not tokens or len(tokens) > 40:
            continue
        key = _shape(tokens)
        groups[key].append(tokens)
        examples.setdefault(key, move)
    templates = []
    for key, members in sorted(groups.items(), key=lambda item: -len(item[1]))[:MAX_TEMPLATES]:
        parts: list[str | Slot] = []
        for position, kind in enumerate(key):
            seen = [tokens[position] for tokens in members]
            if kind == "N":
                parts.append(Slot("number", tuple(sorted(set(seen), key=int))))
            elif kind == "W" and len(set(seen)) > 1:
                parts.append(Slot("word", tuple(value for value, _ in Counter(seen).most_common())))
            else:
                parts.append(seen[0])
        templates.append(Template(tuple(parts), len(members), examples[key]))
    played = {word.lower() for move in moves for word in re.findall(r"[A-Za-z]+", move)}
    commands = _advertised(observations, played, templates)
    # Moves the text shows as examples in a shape no solution uses (\boxed{E} in a hangman whose solutions
    # only solve): templates too, after the solutions' own, so that the explorer can repeat them.
    for example in _examples(observations):
        tokens = _TOKEN.findall(example)
        key = _shape(tokens)
        if key not in groups and example not in commands and len(templates) < MAX_TEMPLATES:
            groups[key] = [tokens]
            templates.append(Template(tuple(tokens), 0, example))
    return MoveGrammar(tuple(templates), commands, boxed_moves)


def _examples(observations: Sequence[str]) -> list[str]:
    """Short boxed examples in the task text, most frequent first."""
    found: Counter[str] = Counter()
    for text in observations[:16]:
        for start, end in boxed_spans(text[:20_000]):
            example = text[start:end].strip()
            if 0 < len(example) <= 24 and len(_TOKEN.findall(example)) <= 8:
                found[example] += 1
    return [example for example, _ in found.most_common(4)]


def _shape(tokens: Sequence[str]) -> tuple[str, ...]:
    """Token kinds, with punctuation and spacing kept as themselves: ``move 2 3`` -> (W, ' ', N, ' ', N). A
    number of more than 18 digits is kept as itself too: a move's numbers come from the environment, and
    one of 5,000 digits is no slot to count with (``int`` refuses it)."""
    return tuple("N" if re.fullmatch(r"-?\d{1,18}", token) else "W" if token.isalpha() else
                 " " if token.isspace() else token for token in tokens)


def _advertised(observations: Sequence[str], played: set[str], templates: Sequence[Template]) -> tuple[str, ...]:
    """Moves the task text offers whose first word no solution plays: boxed examples (``\\boxed{look}``,
    ``\\boxed{remove 2}``), and the items of a list introduced by "commands:" or "you can also type:"."""
    found: Counter[str] = Counter()
    listed_items: set[str] = set()
    for text in observations[:16]:
        text = text[:20_000]
        for start, end in boxed_spans(text):
            found[text[start:end].strip()] += 1
        for listed in _COMMAND_LIST.finditer(text):
            for item in _ITEM_SPLIT.split(listed.group(1).split(". ")[0]):
                item = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", item).strip(" \t`'\".!?")
                if item.startswith("\\boxed{") and item.endswith("}"):
                    item = item[len("\\boxed{"):-1]
                found[item] += 1
                listed_items.add(item)
    commands = []
    for move, _ in found.most_common():
        words = move.split()
        if not 1 <= len(words) <= 3 or len(move) > 24 or not re.fullmatch(r"[A-Za-z][a-z_-]+", words[0]):
            continue  # a command is a short phrase led by a lower-case word (not a code such as BBIM)
        if move not in listed_items and any(template.tokens_of(move) is not None for template in templates):
            continue  # a boxed example of an ordinary move (\boxed{left} beside solutions that go up and down)
        if words[0].lower() not in played and words[0].lower() not in _FILLER:
            commands.append(move)
    return tuple(commands[:MAX_COMMANDS])


_FILLER = frozenset(["a", "an", "the", "and", "or", "to", "of", "for", "in", "on", "at", "by", "with", "your", "you", "it", "its", "is", "are", "be", "as", "any", "one", "two", "then", "this", "that", "these", "those", "each", "every", "all", "from", "into", "move", "moves", "number", "numbers", "word", "words", "answer", "reply", "send", "type", "use", "say", "example", "e", "g", "eg", "i", "ie", "like", "such"])
