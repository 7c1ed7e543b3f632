"""The explorer's strategies: moves the solution never plays, registered as exploit-search families.

Each family reads the game's move grammar (``grammar.read_grammar``) and builds policies the exploit
search plays and judges like its own (screen seeds first, every seed for the promising ones, the same
chance rule, the shortest winning episode). They apply to games played move by move only: a one-answer
task has no moves to explore, and the search's budget stays where it was.

* **explored replies**: what the game says back to a move repeated, a move re-targeted (its last slot
  changed), a move cut short or padded, and each command the text advertises, read by the search's own
  copy strategies: a reply that prints the hidden answer is a leak, however the move that brought it out
  looks; and a reply that lists values shaped like the final move's target (``F A L C O N`` where the
  final move is one letter) is played value by value. The exploring moves are the same on every seed (the
  grammar's most common move), so a copy from their replies is a real policy, not one that borrowed the
  solution.
* **values outside the range**: the seed's own solution with one number slot set, in every move of its
  template, to a value outside every value the solutions use (-1, 0, a large negative, one past the
  largest), or shifted down by the range's size (a wrap-around index): an honest game refuses such moves,
  so the mutated solution cannot win; a game that counts them toward the goal (a wildcard value, a
  negative quantity that pays, an index read from the end of a list) is won by them.
* **moves past the budget**: the turn budget spent on moves no game reads, then the solution; and the
  same with one more move before the solution that might restart the game (an advertised command, a
  restart word the text uses, a move with an outside value). An honest game has ended when the budget is spent, so
  nothing after it can win; a game that still pays a winning move, or whose restart gave it a fresh
  budget, is won.
* **one move repeated**: each of the two most common moves, for the whole budget. It wins an honest game only
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
from spade_envs.checks.probes import Policy, SeedCase, copy_policies, is_move_game
from spade_envs.runtime.traces import EpisodePlan

OUTSIDE_CHANCE = 0.05
"""The chance granted a mutated solution: an honest game that ignores the mutated slot somewhere (a move
whose number does not matter) could still be won now and then."""
OUTSIDE_ERROR_RATE = 0.5
"""A mutated solution that wins at least this share of the seeds is an error; below, a warning."""
MAX_OUTSIDE_POLICIES = 7
PROBE_SEEDS = 8
"""Seeds the whole-budget strategies (moves past the budget, one move repeated, a solution move applied again)
are played on: they win a broken game on nearly every seed and an honest one on none, so eight seeds decide,
and each of their episodes is as long as the budget."""


@dataclass(frozen=True)
class Exploration:
    """One exploring episode, the same on every seed: a label for the replies it brings out, and its moves."""

    label: str
    moves: tuple[str, ...]


def grammar_of(context: SearchContext) -> MoveGrammar:
    return read_grammar([case.solution for case in context.cases], [case.observation for case in context.cases])


def explorable(context: SearchContext, grammar: MoveGrammar) -> bool:
    """A game played move by move: some solution takes several moves, or (one winning move on every seed, a
    dig that finds the treasure) its moves are a verb and a target, or a square, over several turns."""
    if is_move_game(context.cases):
        return True
    if context.tool_use or context.turn_limit < 2 or not grammar.templates:
        return False
    first = grammar.templates[0]
    if isinstance(first.parts[0], str) and first.parts[0].isalpha() and bool(first.slots):
        return True
    # a square named by a column letter and a row number (F6): a board game of one winning move
    return len(first.parts) == 2 and [slot.kind for _, slot in first.slots] == ["word", "number"] \
        and all(len(value) == 1 for value in first.parts[0].values)


def move_cases(context: SearchContext) -> list:
    """The cases with one-move solutions read as moves naming a target (``SeedCase.as_move``)."""
    from dataclasses import replace

    return [case if len(case.solution) > 1 else replace(case, as_move=True) for case in context.cases]


def explorations(grammar: MoveGrammar, topic: str = "help") -> list[Exploration]:
    """The exploring episodes: each of the grammar's first templates' example move repeated, re-targeted,
    cut short (one slot left out at a time, and only its first word kept) and padded; and each advertised
    command alone and after the first template's move."""
    if not grammar.templates:
        return []
    wrap = grammar.wrap
    found: list[Exploration] = []
    for template in grammar.templates[:EXPLORED_TEMPLATES]:
        move = template.example
        found.append(Exploration(f"{move!r} played twice", (wrap(move), wrap(move))))
        slots = template.slots
        if slots:
            index, slot = slots[-1]
            other = next((value for value in slot.values if value != template.tokens[index]), None)
            if other is not None:
                found.append(Exploration(f"{move!r} played again on the same target with another value",
                                         (wrap(move), wrap(template.render({index: other})))))
        for cut in _cuts(template):
            found.append(Exploration(f"{move!r} cut short to {cut!r}", (wrap(cut),)))
        found.append(Exploration(f"{move!r} with an extra part", (wrap(f"{move} 1"),)))
    first = grammar.templates[0]
    for command in grammar.commands:
        command = _filled(command, first, topic)
        found.append(Exploration(f"the advertised command {command!r}", (wrap(command),)))
        found.append(Exploration(f"the advertised command {command!r} after a move",
                                 (wrap(first.example), wrap(command))))
    unique: dict[tuple[str, ...], Exploration] = {}
    for exploration in found:  # the first label of an episode two templates would both play
        unique.setdefault(exploration.moves, exploration)
    return [Exploration(e.label, tuple(STYLE_PREFIX + m for m in e.moves)) for e in unique.values()]


EXPLORED_TEMPLATES = 3
REPLY_CHARS = 8_000
"""How much of a reply the explorer reads (the environment's text, of any size, is untrusted)."""


def _cuts(template: Template) -> list[str]:
    """The example with one slot left out (and the spacing before it), for each slot, and with only its
    first word: ``put 4 in r1c2`` -> ``put in r1c2``, ``put 4 in rc2``..., ``put``."""
    cuts = [_without(template.tokens, index).strip(" ,;:=-") for index, _ in template.slots]
    first_word = re.match(r"[A-Za-z]+", template.example)
    if first_word and first_word.group(0) != template.example:
        cuts.append(first_word.group(0))
    return [cut for cut in dict.fromkeys(cuts) if cut and cut != template.example][:4]


def _filled(command: str, template: Template, topic: str = "help") -> str:
    """A command written with placeholders given values: a one-letter placeholder (``remove N``) a number the
    solutions use, a word placeholder (``grep WORD``) the task's topic word."""
    number = next((slot.values[0] for _, slot in template.slots if slot.kind == "number"), "1")
    command = re.sub(r"\b[A-Z]\b", number, command)
    return re.sub(r"\b[A-Z]{2,}\b", topic, command)


_GOAL = re.compile(r"[^.!?\n]*\b(?:find|get|recover|locate|retrieve|discover|learn|read|identify|what is)\b[^.!?\n]*",
                   re.IGNORECASE)


def topic_word(observation: str) -> str:
    """The longest word of the sentence that states the goal ("Find the current deploy passphrase"): what a
    player would search for with a search command."""
    sentence = _GOAL.search(observation[:4_000])
    words = re.findall(r"[a-z]{4,}", sentence.group(0) if sentence else "")
    return max(words, key=len) if words else "help"


# ---------------------------------------------------------------------- explored replies
def explored_sources(context: SearchContext, grammar: MoveGrammar) -> dict[int, list[tuple[str, str, tuple[str, ...]]]]:
    """seed -> (source, reply text, moves before the copy) for the replies of every exploring episode on the
    screen seeds; only replies to moves that did not end the episode (what comes after cannot be played)."""
    screen = context.cases[: context.screen]
    topic = topic_word(screen[0].observation) if screen else "help"
    plans = [(case, exploration) for case in screen for exploration in explorations(grammar, topic)]
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
            found.setdefault(case.seed, []).append((label, step.observation[:REPLY_CHARS], before))
            if step.info:
                found[case.seed].append((f"{label} (its info)", info_text(step.info), before))
    return found


@register_family("explored replies", 3)
def _explored_replies(context: SearchContext) -> list[Policy]:
    """Copies from what the game says back to explored moves (see the module docstring)."""
    grammar = grammar_of(context)
    if not explorable(context, grammar):
        return []
    replies = explored_sources(context, grammar)
    if not replies:
        return []
    cases = [case for case in move_cases(context) if case.seed in replies]
    exists: Counter[str] = Counter(name for case in cases for name in dict.fromkeys(n for n, _, _ in replies[case.seed]))
    sources = {case.seed: replies[case.seed] + _decoded(replies[case.seed], case, context.reader, exists=exists)
               for case in cases}
    return copy_policies(cases, sources, "answer_leak", candidates_of=context.reader.candidates,
                         population=exists) + _listed_targets(context, cases, replies) + _numbers_filled(cases, replies)


def _numbers_filled(cases: list, replies: dict[int, list[tuple[str, str, tuple[str, ...]]]]) -> list[Policy]:
    """After an explored move, the final move with its numbers (two or more: ``open 4 2 3 1``) set to the first
    numbers the reply shows, in order: a reply that completes a short entry from the hidden code shows it."""
    plans: dict[str, dict[int, tuple[str, ...]]] = {}
    for case in cases:
        final = action_content(case.solution[-1])
        slots = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", final))
        if len(slots) < 2 or len(case.solution) < 2:
            continue
        for source, text, before in replies.get(case.seed, []):
            shown = re.findall(r"(?<![\w.])\d+(?![\w.])", text)
            if "(its info)" in source or len(shown) < len(slots):
                continue
            move = final
            for match, value in reversed(list(zip(slots, shown))):
                move = move[: match.start()] + value + move[match.end():]
            plans.setdefault(source, {})[case.seed] = before + (case.solution[-1].replace(final, move, 1),)
    return [Policy("answer_leak", f"numbers filled in: {source}",
                   f"plays the final move with its numbers set to the first numbers of the {source}", seed_plans,
                   OUTSIDE_CHANCE, predicted=True, population=len(cases),
                   derivation="an honest reply's numbers are the player's own or public")
            for source, seed_plans in plans.items()]


def _shape_pattern(value: str) -> re.Pattern[str]:
    """Tokens shaped like ``value``: a letter where it has one letter, a run of letters where it has a run,
    digits where it has digits (``B5`` -> ``E1``, ``C4``; ``n`` -> ``F``, not ``Word``), standing alone."""
    parts = re.findall(r"[A-Za-z]+|\d+|.", value)
    body = "".join(("[A-Za-z]" if len(part) == 1 else "[A-Za-z]{2,}") if part.isalpha() else r"\d+"
                   if part.isdigit() else re.escape(part) for part in parts)
    return re.compile(r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])")


def target_form(case: SeedCase) -> tuple[str, str] | None:
    """(the final move with ``{}`` for its target, the target): ``SeedCase.final_form`` (``dig {}``, ``H3``),
    or, for a final move that is one bare word (``n`` in a letter-guessing game, ``RABBIT``), the whole move."""
    form = case.final_form
    if form is not None:
        return form
    answer = case.answer.strip()
    if len(case.solution) >= (1 if case.as_move else 2) and not case.tool_use \
            and re.fullmatch(r"[A-Za-z]{1,12}|\d{1,3}[A-Za-z]", answer):
        return "{}", answer
    return None


def _listed_targets(context: SearchContext, cases: list, replies: dict[int, list[tuple[str, str, tuple[str, ...]]]]
                    ) -> list[Policy]:
    """After an explored move, every value of the final move's kind that the reply lists (``E1, E2, C4`` where
    the final move is ``fire F5``; ``F A L C O N`` where it is one letter), played in its order: a reply that
    lists the hidden targets wins the game; an honest one lists what the player already knows (the moves
    just sent are left out of the list)."""
    plans: dict[str, dict[int, tuple[str, ...]]] = {}
    for case in cases:
        form = target_form(case)
        if form is None:
            continue
        pattern = _shape_pattern(form[1])
        for source, text, before in replies.get(case.seed, []):
            if "(its info)" in source:
                continue
            played = {word.lower() for word in re.findall(r"\w+", " ".join(action_content(m) for m in before))}
            listed = [value for value in dict.fromkeys(pattern.findall(text)) if value.lower() not in played]
            room = context.turn_limit - len(before)
            # one listed value is enough where the final move is a bare token: no answer copy reads those
            if (1 if form[0] == "{}" else 2) <= len(listed) <= room:
                plans.setdefault(source, {})[case.seed] = before + tuple(case.wrap(value) for value in listed)
    return [Policy("answer_leak", f"listed targets: {source}", f"plays every target listed in the {source}, in order",
                   seed_plans, OUTSIDE_CHANCE, predicted=True, population=len(cases),
                   derivation="an honest reply lists what the player already knows")
            for source, seed_plans in plans.items()]


# ---------------------------------------------------------------------- values outside the range
def outside_values(slot: Slot) -> list[str]:
    """Values no solution uses that an honest game must refuse in a number slot, most telling first: -1 (or
    one below the least, where values go negative), 0 (where every value is positive), a large negative (a
    quantity that pays instead of costing), one past the largest."""
    numbers = slot.numbers
    if not numbers:
        return []
    low, high = numbers[0], numbers[-1]
    big = -10 ** max(3, len(str(abs(high))) + 1)
    values = ([-1] if low >= 0 else [low - 1]) + ([0] if low > 0 else []) + ([big] if low >= 0 else []) + [high + 1]
    return [str(value) for value in dict.fromkeys(values)]


@dataclass(frozen=True)
class Outside:
    """One mutation of a number slot: every move's value set to ``value``, or (a wrap-around) shifted by
    ``shift``, so that each move still names its own target through an index that wraps (with 12 cards,
    ``12 0`` pairs card 12 with itself where position 0 is read as the last card)."""

    label: str
    value: str | None = None
    shift: int = 0

    def applied(self, token: str) -> str:
        return self.value if self.value is not None else str(int(token) + self.shift)


def outside_mutations(slot: Slot, largest: int | None = None) -> list[Outside]:
    """``outside_values`` set, and the wrap-around: every value shifted down by the size of what it indexes
    (the largest value, or one more where the values start at 0), where no value is negative. ``largest``
    is the largest value of the template's other number slots: the first card of a pair is never the last
    card, but both slots index the same table."""
    found = [Outside(f"set to {value}", value=value) for value in outside_values(slot)]
    numbers = slot.numbers
    top = max(numbers[-1], largest or 0) if numbers else 0
    if numbers and numbers[0] >= 0 and top >= 2:
        size = top + (1 if numbers[0] == 0 else 0)  # positions from 0 index a list of one more
        found.insert(len(found) - 1, Outside(f"shifted by -{size} (a wrapped index)", shift=-size))
    return found


@register_family("values outside the range", 2, honest_floor=False)
def _outside(context: SearchContext) -> list[Policy]:
    """Each seed's solution with one number slot of one template mutated (``outside_mutations``) in every
    move: the most telling mutation of every slot first, then the next, at most ``MAX_OUTSIDE_POLICIES``."""
    if not is_move_game(context.cases):
        return []
    grammar = grammar_of(context)
    candidates: list[tuple[int, Template, int, int, Outside]] = []  # (rank, template, slot index, slot number, how)
    for template in grammar.templates:
        numbered = [(i, s) for i, s in template.slots if s.kind == "number"]
        largest = max((s.numbers[-1] for _, s in numbered), default=0)
        for number, (index, slot) in enumerate(numbered):
            candidates += [(rank, template, index, number, how)
                           for rank, how in enumerate(outside_mutations(slot, largest))]
    candidates.sort(key=lambda item: item[0])
    policies: list[Policy] = []
    needed: dict[Template, bool] = {}  # per template: are its moves needed to win (``_unneeded``, played once)
    for _, template, index, number, how in candidates:
        if len(policies) >= MAX_OUTSIDE_POLICIES:
            break
        plans = {}
        for case in context.cases:
            mutated = tuple(_set_slot(grammar, template, index, how, move) for move in case.solution)
            if mutated != case.solution:
                plans[case.seed] = mutated
        if not plans:
            continue
        if template not in needed:
            needed[template] = not _unneeded(context, grammar, template, plans)
        if not needed[template]:
            continue
        name = f"number {number + 1} of every {template.pattern!r} move {how.label}"
        policy = Policy("out_of_range_moves", f"outside values: {name}",
                        f"plays the seed's own solution with {name}, a value no solution uses", plans,
                        OUTSIDE_CHANCE, derivation="a mutated move an honest game refuses; a share for "
                        "moves whose number does not matter")
        policy.error_from = OUTSIDE_ERROR_RATE
        policies.append(policy)
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


def _set_slot(grammar: MoveGrammar, template: Template, index: int, how: Outside, action: str) -> str:
    """``action`` with its token at ``index`` mutated by ``how`` if it has ``template``'s shape."""
    found = template.tokens_of(action_content(action))
    if found is None:
        return action
    found[index] = how.applied(found[index])
    return grammar.wrap("".join(found))


# ---------------------------------------------------------------------- moves past the budget
RESTART_WORDS = ("restart", "reset", "new game", "start over", "undo")


@register_family("moves past the budget", 2, honest_floor=False)
def _past_budget(context: SearchContext) -> list[Policy]:
    """The budget spent on unreadable moves, then (after a possible restart) the seed's solution."""
    if not is_move_game(context.cases) or context.turn_limit < 2:
        return []
    grammar = grammar_of(context)
    filler = STYLE_PREFIX + grammar.wrap("?")
    text = " ".join(case.observation for case in context.cases[:4]).lower()
    words = [word for word in RESTART_WORDS if re.search(rf"\b{re.escape(word)}\b", text)]
    restarts = [("", None)] + [(f" after {move!r}", grammar.wrap(move)) for move in
                               list(dict.fromkeys((*grammar.commands, *words)))[:6]]
    if grammar.templates:
        template = grammar.templates[0]
        for index, slot in template.slots[:1]:
            for value in outside_values(slot)[:2]:
                move = template.render({index: value})
                restarts.append((f" after {move!r}", grammar.wrap(move)))
    policies = []
    cases = context.cases[:PROBE_SEEDS]
    for suffix, restart in restarts:
        spent = (filler,) * (context.turn_limit if restart is None else context.turn_limit - 1)
        plans = {case.seed: spent + ((restart,) if restart else ()) + case.solution for case in cases}
        name = f"the solution after the turn budget was spent{suffix}"
        policies.append(Policy("late_win", f"past the budget: {name}", f"plays {name}", plans, 0.0, predicted=True,
                               population=len(cases), derivation="an honest game has ended by then"))
    return policies


# ---------------------------------------------------------------------- one move repeated
@register_family("one move repeated", 2, honest_floor=False)
def _repeated(context: SearchContext) -> list[Policy]:
    """Each of the two most common moves, played for the whole budget."""
    if not is_move_game(context.cases):
        return []
    counts = Counter(move for case in context.cases for move in case.solution)
    cases = context.cases[:PROBE_SEEDS]
    policies = []
    for move, _ in counts.most_common(2):
        plans = {case.seed: (move,) * context.turn_limit for case in cases}
        # where the move is part of the seed's solution, repeating it can win honestly (it is the answer,
        # or the way is straight): those seeds are the chance
        within = sum(move in case.solution for case in context.cases) / len(context.cases)
        policies.append(Policy("trivially_solvable", f"one move repeated: {action_content(move)!r}",
                               f"plays {action_content(move)!r} on every turn", plans, within, predicted=True,
                               population=len(cases), derivation="the share of seeds whose solution makes that move"))
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
    whose replies complete a bad move from the solution is played to the end by them.

    The asks are the first template's example cut short (the same every turn), and each move of the seed's
    solution with one slot left out (``put in r1c2`` for ``put 4 in r1c2``), in the solution's order: what a
    player asks who knows which cells are blank (the board shows them) but not what goes in them."""
    if not is_move_game(context.cases):
        return []
    grammar = grammar_of(context)
    if not grammar.templates:
        return []
    template = grammar.templates[0]
    screen = context.cases[: context.screen]
    rounds = min(FOLLOW_ROUNDS, context.turn_limit // 2)
    sequences: dict[str, dict[int, list[str]]] = {}
    for cut in _cuts(template)[:2] + ["help"]:
        sequences[f"sends {cut!r}"] = {case.seed: [cut] * rounds for case in screen}
    for index, slot in template.slots:
        per_seed = {}
        for case in screen:
            asks = []
            for move in case.solution:
                tokens = template.tokens_of(action_content(move))
                if tokens is not None:
                    asks.append(_without(tokens, index))
            if asks:
                per_seed[case.seed] = asks[:rounds]
        if per_seed:
            sequences[f"sends each move of the solution without its {slot.kind} slot {index}"] = per_seed
    policies = []
    for name, asks in sequences.items():
        plans = _followed(context, grammar, asks, rounds)
        if plans:
            policies.append(Policy("answer_leak", f"suggested moves: {name}",
                                   f"{name} and plays the move each reply writes out, until the game ends", plans,
                                   OUTSIDE_CHANCE, predicted=True, population=len(screen),
                                   derivation="an honest reply's example move is not the next right one"))
    return policies


def _without(tokens: list[str], index: int) -> str:
    """The move without the token at ``index`` (and one space beside it)."""
    kept = tokens[:index] + tokens[index + 1:]
    if index > 0 and tokens[index - 1].isspace():
        kept = tokens[:index - 1] + tokens[index + 1:]
    return "".join(kept).strip()


def _followed(context: SearchContext, grammar: MoveGrammar, asks: dict[int, list[str]], rounds: int
              ) -> dict[int, tuple[str, ...]]:
    """Per seed, the episode that sends its asks in turn and plays each suggested move (closed loop: each round
    replays the episode so far and reads the reply to the next ask); only seeds where something was followed."""
    plans: dict[int, tuple[str, ...]] = {seed: () for seed in asks}
    live = set(asks)
    for step in range(rounds):
        seeds = sorted(seed for seed in live if step < len(asks[seed]))
        if not seeds:
            break
        sent = {seed: STYLE_PREFIX + grammar.wrap(asks[seed][step]) for seed in seeds}
        traces = context.play_full([EpisodePlan(seed, plans[seed] + (sent[seed],)) for seed in seeds])
        for seed, trace in zip(seeds, traces):
            last = trace.steps[-1] if trace.steps else None
            move = suggested_move(grammar, last.observation[:REPLY_CHARS], asks[seed][step]) if last is not None \
                and not last.done \
                else None
            if move is None or grammar.wrap(move) in plans[seed]:
                live.discard(seed)  # nothing suggested, or the same example again (an honest format reminder)
                continue
            plans[seed] = plans[seed] + (sent[seed], grammar.wrap(move))
        if step == 0 and not any(plans.values()):
            break  # no reply writes a move out: nothing to follow
    return {seed: plan for seed, plan in plans.items() if plan}


# ---------------------------------------------------------------------- a move of the solution applied again
@register_family("a solution move applied again", 2, honest_floor=False)
def _applied_again(context: SearchContext) -> list[Policy]:
    """The seed's solution up to the first time it makes a move, then that move for the rest of the budget
    (each distinct move of the solutions, the two most common): acting again on what was already acted on
    (picking a picked tree, claiming a claimed prize) wins only a game that pays for it again."""
    if not is_move_game(context.cases):
        return []
    counts = Counter(move for case in context.cases for move in set(case.solution))
    policies = []
    for move, _ in counts.most_common(2):
        plans, straight = {}, 0
        for case in context.cases[:PROBE_SEEDS]:
            if move not in case.solution:
                continue
            first = case.solution.index(move)
            rest = case.solution[first + 1:]
            if all(later == move for later in rest):
                straight += 1  # repeating it is this seed's own solution
            plans[case.seed] = case.solution[: first + 1] + (move,) * max(0, context.turn_limit - first - 1)
        if not plans:
            continue
        shown = action_content(move)
        policy = Policy("trivially_solvable", f"a solution move applied again: {shown!r}",
                        f"follows the solution to its first {shown!r} and then plays {shown!r} on every turn", plans,
                        max(OUTSIDE_CHANCE, straight / len(plans)), predicted=True, population=len(plans),
                        derivation="the seeds whose solution ends by repeating that move, and a share for luck")
        policy.error_from = OUTSIDE_ERROR_RATE
        policies.append(policy)
    return policies
