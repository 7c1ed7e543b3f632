"""The explorer's strategies: moves the solution never plays, registered as exploit-search families.

Each family reads the game's move grammar (``grammar.read_grammar``) and builds policies the exploit
search plays and judges like its own (screen seeds first, every seed for the promising ones, the same
chance rule, the shortest winning episode). They apply to games played move by move only: a one-answer
task has no moves to explore, and the search's budget stays where it was.

* **explored replies**: what the game says back to a move repeated, a move re-targeted (its last slot
  changed), a move cut short or padded, and each command the text advertises, read by the search's own
  copy strategies: a reply that prints the hidden answer is a leak, however the move that brought it out
  looks. The exploring moves are the same on every seed (the grammar's most common move), so a copy
  from their replies is a real policy, not one that borrowed the solution.
* **values outside the range**: the seed's own solution with one number slot set, in every move of its
  template, to a value outside every value the solutions use (0, -1, one past the largest): an honest
  game refuses such moves, so the mutated solution cannot win; a game that counts them toward the goal
  (a wildcard value, a wrap-around index) is won by them.
* **moves past the budget**: the turn budget spent on moves no game reads, then the solution; and the
  same with one more move before the solution that might restart the game (an advertised command, a
  restart word, a move with an outside value). An honest game has ended when the budget is spent, so
  nothing after it can win; a game that still pays a winning move, or whose restart gave it a fresh
  budget, is won.
* **one move repeated**: each of the most common moves, for the whole budget. It wins an honest game only
  where that move is part of the seed's solution (it is the answer, or the way is straight); a game that
  pays for repeating a move is won more often.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from spade_envs.checks.exploits.search import (
    STYLE_PREFIX,
    SearchContext,
    _decoded,
    info_text,
    register_family,
)
from spade_envs.checks.explore.grammar import MoveGrammar, Slot, Template, read_grammar
from spade_envs.checks.leaks import action_content
from spade_envs.checks.probes import Policy, copy_policies, is_move_game
from spade_envs.runtime.traces import EpisodePlan

OUTSIDE_CHANCE = 0.05
"""The chance granted a mutated solution: an honest game that ignores the mutated slot somewhere (a move
whose number does not matter) could still be won now and then."""
OUTSIDE_ERROR_RATE = 0.5
"""A mutated solution that wins at least this share of the seeds is an error; below, a warning."""
MAX_OUTSIDE_POLICIES = 9


@dataclass(frozen=True)
class Exploration:
    """One exploring episode, the same on every seed: a label for the replies it brings out, and its moves."""

    label: str
    moves: tuple[str, ...]


def grammar_of(context: SearchContext) -> MoveGrammar:
    return read_grammar([case.solution for case in context.cases], [case.observation for case in context.cases])


def explorations(grammar: MoveGrammar) -> list[Exploration]:
    """The exploring episodes: the grammar's most common move repeated, re-targeted, cut short and padded,
    and each advertised command alone and after that move."""
    if not grammar.templates:
        return []
    template = grammar.templates[0]
    move = template.example
    wrap = grammar.wrap
    found = [Exploration("a move played twice", (wrap(move), wrap(move)))]
    slots = template.slots
    if slots:
        index, slot = slots[-1]
        other = next((value for value in slot.values if value != _token(template, index)), None)
        if other is not None:
            found.append(Exploration("a move played again on the same target with another value",
                                     (wrap(move), wrap(template.render({index: other})))))
        found.append(Exploration("a move cut short (its last part missing)", (wrap(_cut(template, index)),)))
    found.append(Exploration("a move with an extra part", (wrap(f"{move} 1"),)))
    for command in grammar.commands:
        command = _filled(command, template)
        found.append(Exploration(f"the advertised command {command!r}", (wrap(command),)))
        found.append(Exploration(f"the advertised command {command!r} after a move", (wrap(move), wrap(command))))
    return [Exploration(e.label, tuple(STYLE_PREFIX + m for m in e.moves)) for e in found]


def _token(template: Template, index: int) -> str:
    from spade_envs.checks.explore.grammar import _TOKEN

    return _TOKEN.findall(template.example)[index]


def _cut(template: Template, index: int) -> str:
    """The template's example without the slot at ``index`` and what follows it, trailing spacing and
    separators dropped (``move 2 3`` -> ``move 2``)."""
    from spade_envs.checks.explore.grammar import _TOKEN

    tokens = _TOKEN.findall(template.example)[:index]
    return "".join(tokens).rstrip(" ,;:=-") or template.example[:1]


def _filled(command: str, template: Template) -> str:
    """A command written with a placeholder (``remove N``) given a value the solutions use."""
    number = next((slot.values[0] for _, slot in template.slots if slot.kind == "number"), "1")
    return re.sub(r"\b[A-Z]\b", number, command)


# ---------------------------------------------------------------------- explored replies
def explored_sources(context: SearchContext, grammar: MoveGrammar) -> dict[int, list[tuple[str, str, tuple[str, ...]]]]:
    """seed -> (source, reply text, moves before the copy) for the replies of every exploring episode on the
    screen seeds; only replies to moves that did not end the episode (what comes after cannot be played)."""
    screen = context.cases[: context.screen]
    plans = [(case, exploration) for case in screen for exploration in explorations(grammar)]
    if not plans:
        return {}
    traces = context.play_full([EpisodePlan(case.seed, exploration.moves) for case, exploration in plans])
    found: dict[int, list[tuple[str, str, tuple[str, ...]]]] = {}
    for (case, exploration), trace in zip(plans, traces):
        for index, step in enumerate(trace.steps):
            if step.done:
                break
            before = exploration.moves[: index + 1]
            label = f"reply to {exploration.label}" + (f" (move {index + 1})" if len(exploration.moves) > 1 else "")
            found.setdefault(case.seed, []).append((label, step.observation, before))
            if step.info:
                found[case.seed].append((f"{label} (its info)", info_text(step.info), before))
    return found


@register_family("explored replies", 3)
def _explored_replies(context: SearchContext) -> list[Policy]:
    """Copies from what the game says back to explored moves (see the module docstring)."""
    if not is_move_game(context.cases):
        return []
    replies = explored_sources(context, grammar_of(context))
    if not replies:
        return []
    cases = [case for case in context.cases if case.seed in replies]
    exists: Counter[str] = Counter(name for case in cases for name in dict.fromkeys(n for n, _, _ in replies[case.seed]))
    sources = {case.seed: replies[case.seed] + _decoded(replies[case.seed], case, context.reader, exists=exists)
               for case in cases}
    return copy_policies(cases, sources, "answer_leak", candidates_of=context.reader.candidates, population=exists)


# ---------------------------------------------------------------------- values outside the range
def outside_values(slot: Slot) -> list[str]:
    """Values no solution uses that an honest game must refuse in a number slot: 0 (where every value is
    positive), -1, and one past the largest."""
    numbers = slot.numbers
    if not numbers:
        return []
    low, high = numbers[0], numbers[-1]
    values = ([0] if low > 0 else []) + ([-1] if low >= 0 else [low - 1]) + [high + 1]
    return [str(value) for value in dict.fromkeys(values)]


@register_family("values outside the range", 2, honest_floor=False)
def _outside(context: SearchContext) -> list[Policy]:
    """Each seed's solution with one number slot of one template set to an outside value in every move."""
    if not is_move_game(context.cases):
        return []
    grammar = grammar_of(context)
    policies: list[Policy] = []
    for template in grammar.templates:
        for number, (index, slot) in enumerate((i, s) for i, s in template.slots if s.kind == "number"):
            for value in outside_values(slot):
                plans = {}
                for case in context.cases:
                    mutated = tuple(_set_slot(grammar, template, index, value, move) for move in case.solution)
                    if mutated != case.solution:
                        plans[case.seed] = mutated
                if not plans or _unneeded(context, grammar, template, plans):
                    continue
                name = f"number {number + 1} of every {template.pattern!r} move set to {value}"
                policy = Policy("out_of_range_moves", f"outside values: {name}",
                                f"plays the seed's own solution with {name}, a value no solution uses", plans,
                                OUTSIDE_CHANCE, derivation="a mutated move an honest game refuses; a share for "
                                "moves whose number does not matter")
                policy.error_from = OUTSIDE_ERROR_RATE
                policies.append(policy)
            if len(policies) >= MAX_OUTSIDE_POLICIES:
                return policies
    return policies


def _unneeded(context: SearchContext, grammar: MoveGrammar, template: Template, plans: dict[int, tuple[str, ...]]) -> bool:
    """Whether the moves of ``template`` are not needed to win: the solution with each of them replaced by a
    move no game reads (``\\boxed{?}``) still wins on half the screen seeds or more. Mutating a move that
    only looks something up (``peek 2`` before the answer) proves nothing about the rules."""
    screen = [case for case in context.cases[: context.screen] if case.seed in plans]
    if not screen:
        return True
    filler = grammar.wrap("?")
    controls = [EpisodePlan(case.seed, tuple(filler if template.tokens_of(action_content(move)) is not None else move
                                             for move in case.solution)) for case in screen]
    won = sum(trace.won for trace in context.play_full(controls))
    return won * 2 >= len(screen)


def _set_slot(grammar: MoveGrammar, template: Template, index: int, value: str, action: str) -> str:
    """``action`` with its token at ``index`` set to ``value`` if it has ``template``'s shape."""
    found = template.tokens_of(action_content(action))
    if found is None:
        return action
    found[index] = value
    return grammar.wrap("".join(found)) if grammar.boxed_moves else "".join(found)


# ---------------------------------------------------------------------- moves past the budget
RESTART_WORDS = ("restart", "reset", "new game", "start over", "undo")


@register_family("moves past the budget", 2, honest_floor=False)
def _past_budget(context: SearchContext) -> list[Policy]:
    """The budget spent on unreadable moves, then (after a possible restart) the seed's solution."""
    if not is_move_game(context.cases) or context.turn_limit < 2:
        return []
    grammar = grammar_of(context)
    filler = STYLE_PREFIX + grammar.wrap("?")
    restarts = [("", None)] + [(f" after {move!r}", grammar.wrap(move)) for move in
                               list(dict.fromkeys((*grammar.commands, *RESTART_WORDS)))[:8]]
    if grammar.templates:
        template = grammar.templates[0]
        for index, slot in template.slots[:1]:
            for value in outside_values(slot)[:2]:
                move = template.render({index: value})
                restarts.append((f" after {move!r}", grammar.wrap(move)))
    policies = []
    for suffix, restart in restarts:
        spent = (filler,) * (context.turn_limit if restart is None else context.turn_limit - 1)
        plans = {case.seed: spent + ((restart,) if restart else ()) + case.solution for case in context.cases}
        name = f"the solution after the turn budget was spent{suffix}"
        policies.append(Policy("late_win", f"past the budget: {name}", f"plays {name}", plans, 0.0,
                               derivation="an honest game has ended by then"))
    return policies


# ---------------------------------------------------------------------- one move repeated
@register_family("one move repeated", 2, honest_floor=False)
def _repeated(context: SearchContext) -> list[Policy]:
    """Each of the three most common moves, played for the whole budget."""
    if not is_move_game(context.cases):
        return []
    counts = Counter(move for case in context.cases for move in case.solution)
    policies = []
    for move, _ in counts.most_common(3):
        plans = {case.seed: (move,) * context.turn_limit for case in context.cases}
        # where the move is part of the seed's solution, repeating it can win honestly (it is the answer,
        # or the way is straight): those seeds are the chance
        within = sum(move in case.solution for case in context.cases) / len(context.cases)
        policies.append(Policy("trivially_solvable", f"one move repeated: {action_content(move)!r}",
                               f"plays {action_content(move)!r} on every turn", plans, within,
                               derivation="the share of seeds whose solution makes that move"))
    return policies


# ---------------------------------------------------------------------- moves the replies suggest
FOLLOW_ROUNDS = 12
"""Rounds of asking and following at most: each round replays the episode so far (the sandbox plays
episodes from their start), so a round costs a screen seed one episode."""


def suggested_move(grammar: MoveGrammar, reply: str, asked: str) -> str | None:
    """The first move written out in ``reply`` that has one of the grammar's shapes (inside a box, quotes or
    plain), other than the move just sent."""
    for template in grammar.templates:
        for match in re.finditer(r"\\boxed\{([^{}]{1,80})\}|['\"`]([^'\"`\n]{1,80})['\"`]", reply):
            move = (match.group(1) or match.group(2) or "").strip()
            if move and move != asked and template.tokens_of(move) is not None:
                return move
    return None


@register_family("moves the replies suggest", 3)
def _follow(context: SearchContext) -> list[Policy]:
    """Ask with a move cut short (or a plea for help), play the move the reply writes out, and repeat: a game
    whose replies complete a bad move from the solution is played to the end by them."""
    if not is_move_game(context.cases):
        return []
    grammar = grammar_of(context)
    if not grammar.templates:
        return []
    template = grammar.templates[0]
    asks = [grammar.wrap(_cut(template, index)) for index, _ in template.slots[-1:]] + [grammar.wrap("help")]
    screen = context.cases[: context.screen]
    policies = []
    for ask in dict.fromkeys(asks):
        asked = action_content(ask)
        plans: dict[int, tuple[str, ...]] = {case.seed: () for case in screen}
        live = set(plans)
        for _ in range(min(FOLLOW_ROUNDS, context.turn_limit // 2)):
            if not live:
                break
            seeds = sorted(live)
            traces = context.play_full([EpisodePlan(seed, plans[seed] + (STYLE_PREFIX + ask,)) for seed in seeds])
            for seed, trace in zip(seeds, traces):
                last = trace.steps[-1] if trace.steps else None
                move = suggested_move(grammar, last.observation, asked) if last is not None and not last.done else None
                if move is None:
                    live.discard(seed)
                    continue
                plans[seed] = plans[seed] + (STYLE_PREFIX + ask, grammar.wrap(move))
            if len(live) * 2 < len(screen) and not any(plans.values()):
                break
        plans = {seed: plan for seed, plan in plans.items() if plan}
        if plans:
            name = f"sends {asked!r} and plays the move each reply writes out, until the game ends"
            policies.append(Policy("answer_leak", f"suggested moves after {asked!r}", name, plans, OUTSIDE_CHANCE,
                                   predicted=True, population=len(screen),
                                   derivation="an honest reply's example move is not the next right one"))
    return policies
