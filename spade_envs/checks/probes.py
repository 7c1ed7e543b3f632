"""Exploit probes: cheap adversarial agent policies, each named, each with its chance rate.

The designer is trained against the validator, so every way to win without doing the task becomes
something it learns to write. Each probe here is a policy such an environment would reward: it plays a
constant, a wrong variant of the right answer, something copied from what the agent is shown, or moves
that farm partial credit. A probe is a finding when it beats its chance rate by a clear margin
(``stats.ChanceRule``); the finding names the probe, a seed and the exact actions, so that a repair
prompt can say precisely what to fix.

Chance rates come from the task itself:

* ``constant`` policies and ``variant`` policies (a wrong answer such as the answer plus one):
  ``1 / k`` for a task whose seeds have ``k`` distinct answers (a constant letter wins a balanced
  four-option question a quarter of the time);
* ``copy`` policies (play the number, word, fraction, ... found at one position of a text): the larger
  of what the values they play would win if the answer did not depend on the text (how often those
  values are the answer over all seeds) and what picking uniformly among the candidates of that kind
  would win (a question that lists four options contains its answer by design, and a copy policy wins a
  quarter of the time there);
* partial-credit farming has no chance rate: a non-winning episode that reaches the win return is
  a defect on any seed.

Probes only ever play through the same session calls rollouts make. Copy policies are cheap: a copied
candidate is played only where it matches the answer (a predicted win), and counted only if it wins.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from spade_envs.checks.answer_space import AnswerSpace, OptionLists, same_reading
from spade_envs.checks.leaks import (
    POSITIONS,
    Candidate,
    action_content,
    answer_key,
    parse_number,
    text_candidates,
)
from spade_envs.checks.stats import ChanceRule
from spade_envs.contract.actions import BOXED_PREFIX, boxed, format_answer, observation_tokens
from spade_envs.contract.episode import WIN_THRESHOLD
from spade_envs.runtime.traces import EpisodePlan, EpisodeTrace

PlayFn = Callable[[list[EpisodePlan]], list[EpisodeTrace]]
"""Plays scripted episodes in a rollout-like session and returns their traces, in order."""

NUMBER_CONSTANTS = ("0", "1", "-1", "42", "100", "1000", "2147483647", "-2147483648", "99999999999999999999", "0.5")
"""A spread of values: small, round, at the edges of machine integers, beyond them, and a fraction (2, 7 and
1000000 were dropped in issue 47 to pay for the known-answer probes: a checker lenient to any number accepts
its neighbours 1, 42 and 1000 as well)."""
WORD_CONSTANTS = ("", "yes", "no", "true", "A", "none")
TOOL_CONSTANTS = ("0", "1", "done", "yes", "")
SCREEN_STEPS = 2_000
"""Step budget of a probe screen before it is halved: 16 seeds of 12 constant policies over 10 turns (2,500
until issue 47, whose known-answer probes it pays for: long games screen their constants on 8 seeds, and a
constant that wins there is still played on every seed)."""


@dataclass(frozen=True)
class SeedCase:
    """One seed whose solution was verified: what the agent sees first, and the actions that win."""

    seed: int
    observation: str
    solution: tuple[str, ...]
    tool_use: bool
    tools: tuple[dict[str, Any], ...] = ()
    as_move: bool = False
    """Read a one-move solution as a move that names one value too (``dig H3``), as the explorer does for a
    game whose moves have a verb and a target: the value is the slot copies and wrong answers fill."""

    @cached_property
    def answer(self) -> str:
        """What the decisive (last) action says, without its wrapper."""
        return action_content(self.solution[-1]) if self.solution else ""

    @cached_property
    def key(self) -> str:
        return answer_key(self.answer)

    @cached_property
    def final_form(self) -> tuple[str, str] | None:
        """(the final move with ``{}`` in place of its value, the value) for a game whose final move names one
        value: one number (``guess 606``), a lower-case verb and one token (``dig H3``, ``solve RABBIT``), or a
        square (``F6``). None for single-answer and tool-use tasks, and for final moves of another shape."""
        if self.tool_use or len(self.solution) < (1 if self.as_move else 2):
            return None
        answer = self.answer.strip()
        verb = re.fullmatch(r"([a-z]{2,})\s+(\S{1,40})", answer)
        if verb:  # before the one-number rule: the target of "dig A3" is A3, not 3
            return verb.group(1) + " {}", verb.group(2)
        if re.fullmatch(r"[A-Za-z]{1,2}\d{1,3}", answer):  # a square (F6): the value is the whole of it
            return "{}", answer
        numbers = re.findall(r"-?\d+(?:\.\d+)?", answer)
        if len(numbers) == 1 and answer != numbers[0]:
            return answer.replace(numbers[0], "{}", 1), numbers[0]
        return None

    @cached_property
    def slot(self) -> str:
        """The part of the answer that ``wrap`` puts a played value in: the value a game's final move names
        (``guess 606`` -> ``606``, ``dig H3`` -> ``H3``), else the whole answer."""
        form = self.final_form
        return form[1] if form else self.answer

    @cached_property
    def task_key(self) -> str:
        """All of the solution, normalised: seeds with equal task keys need the same play."""
        return "\x1f".join(answer_key(action_content(a)) for a in self.solution)

    def answer_like(self) -> bool:
        """Whether the task comes down to one decisive answer that copies and variants can stand in for:
        a single-answer task, a tool-use task's final answer, or a final move that names one value."""
        if self.tool_use or (len(self.solution) == 1 and not self.as_move):
            return True
        return self.final_form is not None

    def wrap(self, content: str) -> str:
        """``content`` played in the place of the answer, in the answer's own format."""
        if self.tool_use:
            return format_answer(content)
        last = self.solution[-1]
        form = self.final_form
        if form is not None:
            content = form[0].replace("{}", content, 1)  # "guess 606" -> "guess <content>"
        if BOXED_PREFIX in last or not last.startswith("<"):
            return boxed(content)
        if last.strip().startswith("<answer>") and last.strip().endswith("</answer>"):
            return format_answer(content)  # a text task answered in answer tags, not a box
        return last

    def prefix(self) -> tuple[str, ...]:
        return self.solution[:-1]


@dataclass
class Policy:
    """A probe policy: what it plays on each seed it applies to, and its chance of winning by luck."""

    check: str
    name: str
    description: str
    plans: dict[int, tuple[str, ...]]
    chance: float
    predicted: bool = False
    """Plans exist only where a win is predicted; every other seed counts as a loss without playing."""
    also: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """A second plan per seed that must win too for the seed to count (both orders of a pair)."""
    population: int | None = None
    """For predicted policies: on how many seeds the policy could play (default: all of them)."""
    derivation: str = ""
    """How ``chance`` was derived, for the finding ("" : from the policy's own family, see each family)."""
    cost: int = 1
    """How many parts the exploit search composed this policy from (cheaper findings are preferred)."""
    error_from: float | None = None
    """A win rate below this is a warning, not an error (a strategy an honest environment can lose to)."""
    answer_key: str | None = None
    """For a constant answer: the answer it stands for. Its wins on seeds whose answer this is measure the
    task's imbalance, which an honest task can have (a warning below ``IMBALANCE_ERROR_RATE``); wins
    beyond those are a checker accepting it where it is wrong."""
    wins: int = 0
    trials: int = 0
    winners: tuple[int, ...] = ()
    """The seeds it won (of those it was played on, or predicted for)."""
    example: tuple[int, tuple[str, ...]] | None = None
    """A winning seed and its actions: the shortest winning episode found."""


@dataclass(frozen=True)
class ProbeFinding:
    check: str
    message: str
    seed: int | None
    actions: tuple[str, ...]


class Played(NamedTuple):
    """One scripted episode as the suite keeps it."""

    won: bool
    moves: int
    """Moves played before the episode ended (all of them if it never did)."""
    total_reward: float
    ended: bool


@dataclass
class ProbeSuite:
    """Runs policies on the verified seeds: all of them on the first ``screen`` seeds, and the full set
    for those that won there more often than chance. Identical plans are played once."""

    cases: list[SeedCase]
    play: PlayFn
    rule: ChanceRule
    screen: int = 16
    turn_limit: int = 10
    episodes_played: int = 0
    _played: dict[tuple[int, tuple[str, ...]], Played] = field(default_factory=dict)
    """(seed, actions) -> what playing it gave; each (seed, actions) is played once."""

    @property
    def seeds(self) -> list[int]:
        return [case.seed for case in self.cases]

    @cached_property
    def _tasks(self) -> dict[int, tuple[str, str]]:
        """seed -> what the seed poses: its first observation and its solution."""
        return {case.seed: (case.observation, case.task_key) for case in self.cases}

    def tally(self, counted: Iterable[int], winners: Iterable[int]) -> tuple[int, int]:
        """(wins, trials) over the distinct tasks among the ``counted`` seeds.

        Seeds that pose the same task (the same first observation and solution, as a dataset's rows do when
        more seeds are checked than it has rows) are one trial, won by the share of its seeds won. A rate that
        describes the task set (how unbalanced its answers are) is read this way: over seeds it would follow
        which rows the seeds happened to draw. Where every seed poses its own task this is (seeds won, seeds).
        """
        counted = list(counted)
        won = set(winners)
        groups: dict[tuple[str, str], list[bool]] = {}
        for seed in counted:
            groups.setdefault(self._tasks.get(seed, (str(seed), "")), []).append(seed in won)
        if len(groups) == len(counted):
            return sum(seed in won for seed in counted), len(counted)
        return round(sum(sum(group) / len(group) for group in groups.values())), len(groups)

    def screen_for(self, policies: int) -> int:
        """Seeds to screen ``policies`` policies on: the configured screen, halved (but never below 8) when the
        policies would take more than ``SCREEN_STEPS`` steps on it (long games played move by move)."""
        steps = policies * self.turn_limit * self.screen
        return self.screen if steps <= SCREEN_STEPS else max(8, self.screen // 2)

    def outcomes(self, plans: Iterable[tuple[int, tuple[str, ...]]]) -> dict[tuple[int, tuple[str, ...]], bool]:
        """Whether each (seed, actions) wins, playing only what has not been played yet."""
        wanted = list(dict.fromkeys(plans))
        missing = [item for item in wanted if item not in self._played]
        if missing:
            traces = self.play([EpisodePlan(seed, actions) for seed, actions in missing])
            self.episodes_played += len(traces)
            for item, trace in zip(missing, traces):
                self._played[item] = Played(trace.won, len(trace.outcomes), sum(trace.rewards), trace.ended)
        return {item: self._played[item].won for item in wanted}

    def __contains__(self, item: tuple[int, tuple[str, ...]]) -> bool:
        """Whether (seed, actions) has been played."""
        return item in self._played

    def won(self, seed: int, actions: tuple[str, ...]) -> bool:
        played = self._played.get((seed, actions))
        return played is not None and played.won

    def moves(self, seed: int, actions: tuple[str, ...]) -> int:
        """How many moves the episode played before it ended (all of them if it never did)."""
        played = self._played.get((seed, actions))
        return played.moves if played is not None else len(actions)

    def total_reward(self, seed: int, actions: tuple[str, ...]) -> float:
        """The sum of the rewards the episode earned (0 for an episode not played)."""
        played = self._played.get((seed, actions))
        return played.total_reward if played is not None else 0.0

    def ended(self, seed: int, actions: tuple[str, ...]) -> bool:
        """Whether the episode ended (terminated or truncated) within its actions."""
        played = self._played.get((seed, actions))
        return played is not None and played.ended

    def evaluate(self, policies: list[Policy]) -> list[Policy]:
        """Fill in wins and trials; return the policies that beat their chance rate."""
        seeds = self.seeds
        screen = set(seeds[: self.screen_for(sum(not p.predicted for p in policies))])

        def items(policy: Policy, only: set[int] | None = None) -> list[tuple[int, tuple[str, ...]]]:
            chosen = [(s, p) for s, p in policy.plans.items() if only is None or s in only]
            return chosen + [(s, policy.also[s]) for s, _ in chosen if s in policy.also]

        def won(policy: Policy, seed: int) -> bool:
            return self.won(seed, policy.plans[seed]) and (
                seed not in policy.also or self.won(seed, policy.also[seed]))

        self.outcomes([item for policy in policies
                       for item in items(policy, None if policy.predicted else screen)])
        promoted = []
        for policy in policies:
            if policy.predicted:
                continue
            wins = sum(won(policy, s) for s in policy.plans if s in screen)
            if wins and wins / max(1, len(screen & set(seeds))) > policy.chance:
                promoted.append(policy)
        self.outcomes(item for policy in promoted for item in items(policy))
        found = []
        for policy in policies:
            full = policy.predicted or policy in promoted
            played = [s for s in policy.plans if full or s in screen]
            policy.trials = (policy.population or len(seeds)) if policy.predicted else (
                len(seeds) if full else len(screen & set(seeds)))
            winners = [s for s in played if won(policy, s)]
            policy.wins, policy.winners = len(winners), tuple(winners)
            # the shortest winning episode; among those the smallest seed (small seeds are in every plan, so
            # the example is the same whatever plan seed drew the large ones)
            shortest = min(winners, key=lambda s: (len(policy.plans[s]), s), default=None)
            policy.example = (shortest, policy.plans[shortest]) if shortest is not None else None
            if self.rule.beats_chance(policy.wins, policy.trials, policy.chance):
                found.append(policy)
        return found


# ---------------------------------------------------------------------- blind play: the chance a game's space implies
BLIND_WALKS = 2
"""Random walks per screen seed that measure what blind play of a game's own moves wins."""


@dataclass(frozen=True)
class BlindPlay:
    """What a blind player wins in a game: random walks over the moves the game's solutions use.

    A small game (three cups to sort by swapping neighbours) has few distinct tasks and is won by blind play
    within a few moves on many seeds: where blind play wins at least as often as replaying the most common
    solution, knowing its few tasks gains an agent nothing, and their number is no finding.
    ``by_horizon[seed][h - 1]`` is the share of the seed's walks won within ``h`` moves.
    """

    by_horizon: dict[int, tuple[float, ...]]

    def rate(self, seeds: Iterable[int], horizon: int) -> float | None:
        """Mean share won within ``horizon`` moves over the given seeds that were walked (None: none were)."""
        rows = [self.by_horizon[s] for s in seeds if s in self.by_horizon]
        if not rows:
            return None
        index = max(0, min(horizon, len(rows[0])) - 1)
        return sum(row[index] for row in rows) / len(rows)


def is_move_game(cases: list[SeedCase]) -> bool:
    """A text game played move by move: some solutions take several moves (not a tool-use workflow)."""
    return bool(cases) and not cases[0].tool_use and any(len(case.solution) > 1 for case in cases)


def blind_play(cases: list[SeedCase], suite: ProbeSuite, turn_limit: int, screen: int) -> BlindPlay | None:
    """Random walks over the game's own moves (every move some solution makes) on the first ``screen`` seeds."""
    if not is_move_game(cases):
        return None
    vocabulary = sorted({action for case in cases for action in case.solution})
    if len(vocabulary) < 2:
        return None
    walks: dict[int, list[tuple[str, ...]]] = {}
    for case in cases[:screen]:
        rng = random.Random(case.seed * 7_919 + 17)
        walks[case.seed] = [tuple(rng.choice(vocabulary) for _ in range(turn_limit)) for _ in range(BLIND_WALKS)]
    won = suite.outcomes((seed, walk) for seed, seed_walks in walks.items() for walk in seed_walks)
    by_horizon = {}
    for seed, seed_walks in walks.items():
        ends = [suite.moves(seed, walk) for walk in seed_walks if won[(seed, walk)]]
        by_horizon[seed] = tuple(sum(end <= h for end in ends) / len(seed_walks) for h in range(1, turn_limit + 1))
    return BlindPlay(by_horizon)


# ---------------------------------------------------------------------- chance rates
def answer_frequencies(cases: list[SeedCase]) -> dict[str, float]:
    counts = Counter(case.key for case in cases)
    return {key: count / len(cases) for key, count in counts.items()} if cases else {}


def distinct_answer_chance(cases: list[SeedCase]) -> float:
    """1 / (number of distinct answers): what a policy that ignores the task wins on a balanced task."""
    distinct = len({case.task_key for case in cases})
    return 1.0 / distinct if distinct else 1.0


def distinct_answer_how(cases: list[SeedCase]) -> str:
    """How ``distinct_answer_chance`` was derived, for a finding."""
    return f"1 over the {len({case.task_key for case in cases})} distinct answers of the seeds checked"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------- the policy families
def constant_policies(cases: list[SeedCase], turn_limit: int) -> list[Policy]:
    """Constants over a spread of values, the most common solution moves, and random observation tokens."""
    if not cases:
        return []
    tool_use = cases[0].tool_use
    chance = distinct_answer_chance(cases)
    actions: dict[str, str] = {}
    # A game played move by move is rarely won by a constant answer; it gets a few constants and its own
    # most common moves. Tasks that come down to one answer get the whole spread of values.
    answer_like = sum(case.answer_like() for case in cases) * 2 >= len(cases)
    if tool_use:
        for value in TOOL_CONSTANTS:
            actions[f"always <answer>{value}</answer>"] = format_answer(value)
    else:
        for value in (WORD_CONSTANTS + NUMBER_CONSTANTS) if answer_like else ("", "0", "1"):
            actions[f"always \\boxed{{{value}}}"] = boxed(value)
        actions["always an empty reply"] = ""
    moves = Counter(action for case in cases for action in case.solution)
    for move, _ in moves.most_common(4):
        actions.setdefault(f"always {_short(move)!r}", move)
    how = distinct_answer_how(cases)
    policies = [Policy("trivially_solvable", name, f"always plays {action!r}",
                       {case.seed: (action,) * turn_limit for case in cases}, chance, derivation=how,
                       answer_key=answer_key(action_content(action)) if action else None)
                for name, action in actions.items()]
    tokens_plans = {}
    picked = 0.0  # what picking uniformly among the tokens wins: a task that lists its answer among them allows it
    for case in cases:
        rng = random.Random(case.seed)
        tokens = observation_tokens(case.observation) or ["0"]
        wrap = format_answer if tool_use else boxed
        tokens_plans[case.seed] = tuple(wrap(rng.choice(tokens)) for _ in range(turn_limit))
        wanted = {case.key, case.answer.strip().lower()}  # compared as written (answer_key on every token was slow)
        share = sum(token.lower() in wanted for token in tokens) / len(tokens)
        picked += 1 - (1 - share) ** turn_limit
    picked /= len(cases)
    policies.append(Policy("trivially_solvable", "random observation tokens",
                           "plays random words and numbers from the first observation", tokens_plans,
                           max(chance, picked), derivation=how if chance >= picked else
                           f"what picking among the first observation's words at random wins in {turn_limit} turns"))
    return policies


def _variants(case: SeedCase, order_matters: bool, space: AnswerSpace) -> dict[str, str]:
    """Wrong answers of the task's own form that a lenient checker accepts: name -> content.

    Numbers get near misses of the same kind (a tolerance, a sign or digit-order check); other answers get
    another answer of the task (another option shown, another seed's answer, a code with one character
    changed) and, only where the seeds' answers differ in length, the answer one character longer or
    shorter (a prefix or containment check). Never a form the task reads as the answer itself.
    """
    answer = case.slot.strip()
    value = parse_number(answer)
    out: dict[str, str] = {}
    if value is not None and value.denominator == 1 and len(answer.lstrip("-")) <= 18:
        number = value.numerator
        for delta in (1, -1, 2, 5, -5):
            out[f"the answer {'+' if delta > 0 else '-'} {abs(delta)}"] = str(number + delta)
        if number and (space.signed or space.digits_vary):  # a sign, more digits or a fraction only where the form has them
            out["the answer with its sign flipped"] = str(-number)
        digits = str(abs(number))
        if len(digits) >= 2 and digits[::-1] != digits and not digits[::-1].startswith("0"):
            out["the answer's digits reversed"] = ("-" if number < 0 else "") + digits[::-1]
        if len(digits) >= 2:
            out["the answer's digits in another order"] = ("-" if number < 0 else "") + digits[1:] + digits[0]
        if space.digits_vary:
            out["the answer with a digit put in front"] = ("-" if number < 0 else "") + "1" + digits
            out["the answer with a digit added at the end"] = str(number) + "3"
        if space.fractional:
            out["the answer with a decimal fraction added"] = f"{number}.5"
    elif value is not None and value.denominator != 1:
        out["the reciprocal of the answer"] = f"{value.denominator}/{value.numerator}" if value.numerator else "0"
        out["the answer with its sign flipped"] = f"{-value.numerator}/{value.denominator}"
        out["the answer plus one hundredth"] = f"{float(value) + 0.01:.6g}"
    if value is None:
        other = space.wrong_answer(case.seed, answer)
        if other is not None:
            out["another answer of the task's own form"] = other
        if len(answer) >= 2 and space.lengths_vary and case.seed not in space.options:
            # A character of the same class as the last one, so that the result is another token ("19:153").
            out["the answer with a character added"] = answer + ("3" if answer[-1].isdigit() else "x")
            out["the answer without its last character"] = answer[:-1]
    if "," in answer and order_matters and not re.search(r"[=:]", answer):
        parts = [p.strip() for p in answer.split(",")]  # unlabelled items, in an order the task asks for
        if len(parts) >= 2 and len(set(parts)) > 1:
            out["the answer's items in reverse order"] = ", ".join(reversed(parts))
    return {name: content for name, content in out.items() if content and not same_reading(content, answer)}


_ORDER_WORDS = re.compile(r"\b(in (?:the |\w+ )?order|order(?:ed)? by|sorted|sort them|ascending|descending|"
                          r"in sequence|ranked|\w+est first|from (?:smallest|largest|lowest|highest|first))\b",
                          re.IGNORECASE)


def _simple(answer: str) -> bool:
    """A number or a few words: an answer that a longer reply around it contradicts."""
    return bool(answer) and not re.search(r"[=,;:()\[\]{}]", answer) and len(answer.split()) <= 3


def informative_cases(cases: list[SeedCase]) -> list[SeedCase]:
    """The answer-like cases, unless every seed has the same final answer ("done" closing a workflow):
    then the answer carries no information, and variants or copies of it say nothing."""
    answer_cases = [case for case in cases if case.answer_like()]
    return answer_cases if len({case.key for case in answer_cases}) > 1 else []


_TOLERANCE = re.compile(
    r"(?:within|to within|tolerance(?:\s+of)?|accurate to|error(?:\s+of)?(?:\s+at most|\s+up to|\s+below|\s+under)?"
    r"|\u00b1|\+/-|\+-|plus or minus)\s*(?:an?\s+(?:absolute|relative)\s+(?:error|tolerance)\s+of\s*)?"
    r"(?:[$\u20ac\u00a3\u00a5]\s?)?(\d+(?:\.\d+)?(?:[eE]-?\d+)?)(?!\d|\.\d|\s*(?:decimal|places?|significant|digits?|d\.p|turns?|moves?|steps?|tries|try|guesses|guess|attempts?|rounds?|"
    r"questions?|queries|query|calls?|actions?|replies|words?|letters?|characters?|chars?|lines?|times?|levels?|"
    r"seconds?|minutes?|hours?|days?))\s*(%|percent)?",
    re.IGNORECASE)
_DECIMALS = re.compile(r"(\d+|one|two|three|four|five|six)\s+(?:decimal\s+(?:places?|digits?)|places?\s+after\s+the\s+"
                       r"(?:decimal\s+)?point)", re.IGNORECASE)
_DECIMAL_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def stated_tolerance(text: str) -> tuple[float, float]:
    """(absolute, relative) tolerance the task text states for a numeric answer ("within 0.01",
    "+/- 5%", "to 2 decimal places"); (0, 0) when it states none. A near miss inside it is a right answer."""
    absolute = relative = 0.0
    text = text[:12_000]
    for match in _TOLERANCE.finditer(text):
        try:
            value = float(match.group(1))
        except ValueError:
            continue
        if match.group(2):
            relative = max(relative, value / 100)
        elif value < 1e6:
            absolute = max(absolute, value)
    for match in _DECIMALS.finditer(text):
        word = match.group(1).lower()
        places = int(word) if word.isdigit() else _DECIMAL_WORDS.get(word, 0)
        if 0 < places <= 12:
            absolute = max(absolute, 10.0**-places)
    return absolute, relative


def _within_tolerance(content: str, answer: str, tolerance: tuple[float, float]) -> bool:
    absolute, relative = tolerance
    if not absolute and not relative:
        return False
    given, expected = parse_number(content), parse_number(answer)
    if given is None or expected is None:
        return False
    distance = abs(float(given) - float(expected))
    return distance <= absolute * 1.000001 or distance <= relative * abs(float(expected)) * 1.000001


def answer_space(cases: list[SeedCase], option_lists: OptionLists | None = None) -> AnswerSpace:
    """The answer space of the verified seeds (``answer_space.AnswerSpace``), read from what wrap() fills."""
    return AnswerSpace.build([(case.seed, case.observation, case.slot) for case in cases], option_lists)


def variant_policies(cases: list[SeedCase], space: AnswerSpace | None = None, *,
                     format_required: bool = True) -> list[Policy]:
    """Wrong variants of each seed's answer, played in its place (after the solution's other moves).

    Every wrong answer is one of the task's own form (``answer_space``). A near miss inside a tolerance the
    task states (``stated_tolerance``) is a right answer, not a variant. The right answer out of its box
    (bare, in ``\\box{}``, in brackets, after 'Answer:') is a variant only where ``format_required``.
    """
    answer_cases = informative_cases(cases)
    if not answer_cases:
        return []
    space = space if space is not None else answer_space(cases)
    chance = distinct_answer_chance(cases)
    plans: dict[str, dict[int, tuple[str, ...]]] = defaultdict(dict)
    both: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for case in answer_cases:
        order_matters = bool(_ORDER_WORDS.search(case.observation))
        prefix = case.prefix()
        tolerance = stated_tolerance(case.observation)
        if case.tool_use:  # ToolUseBaseEnv's own comparison has a relative tolerance of 1e-6 (the release's)
            tolerance = (tolerance[0], max(tolerance[1], 1e-6))
        for name, content in _variants(case, order_matters, space).items():
            if not _within_tolerance(content, case.slot, tolerance):
                plans[name][case.seed] = prefix + (case.wrap(content),)
        wrongs = space.wrong_answers(case.seed, case.slot, 2)
        if not wrongs:
            continue
        wrong = wrongs[0]
        if not case.tool_use:
            # Several candidate answers in one reply: right then wrong, and wrong then right. A checker that
            # reads the last box (ours) or the first (the release's template) accepts one order; one that
            # accepts any box accepts both, and an agent can list every candidate.
            both[case.seed] = (prefix + (f"{case.wrap(case.slot)} or maybe {case.wrap(wrong)}",),
                               prefix + (f"{case.wrap(wrong)} or maybe {case.wrap(case.slot)}",))
            if _simple(case.slot) and len(wrongs) == 2:
                plans["a list of candidates in one box"][case.seed] = prefix + (
                    case.wrap(", ".join([wrongs[0], case.slot, wrongs[1]])),)
            if (format_required and len(case.solution) == 1 and BOXED_PREFIX in case.solution[-1]
                    and "boxed" in case.observation):
                plans["the answer without \\boxed{}"][case.seed] = (case.answer,)
                plans["the answer in \\box{} instead of \\boxed{}"][case.seed] = (f"\\box{{{case.answer}}}",)
                plans["the answer in square brackets instead of \\boxed{}"][case.seed] = (f"[{case.answer}]",)
                plans["the answer after 'Answer:' instead of in \\boxed{}"][case.seed] = (f"Answer: {case.answer}",)
        else:
            plans["the answer followed by a wrong one"][case.seed] = prefix + (
                format_answer(f"{case.answer}, {wrong}"),)
            if _simple(case.answer) and len(wrongs) == 2:
                plans["a list of candidates as the answer"][case.seed] = prefix + (
                    format_answer(f"{wrongs[0]}, {case.answer}, {wrongs[1]}"),)
    how = distinct_answer_how(cases)
    policies = [Policy("answer_variants", name, name, seed_plans, chance, derivation=how)
                for name, seed_plans in plans.items()]
    if both:
        policies.append(Policy("answer_variants", "several answers in one reply",
                               "the right answer and a wrong one in separate boxes, in either order",
                               {seed: pair[0] for seed, pair in both.items()}, chance,
                               also={seed: pair[1] for seed, pair in both.items()}, derivation=how))
    return policies





def copy_policies(cases: list[SeedCase], sources: dict[int, list[tuple[str, str, tuple[str, ...]]]],
                  check: str, *, candidates_of: Callable[[str], list[Candidate]] | None = None,
                  population: Mapping[str, int] | None = None) -> list[Policy]:
    """Policies that copy a candidate found at one place of a text and play it as the answer.

    ``sources`` maps a seed to (source name, text, actions played before the copy) triples: the first
    observation, the tool descriptions, the feedback after a wrong move, a hint. A policy is identified by
    the source, the kind of candidate and its place (the i-th from the start or the end, or the first one
    just after a given word), so the same policy picks the same place on every seed. ``candidates_of``
    reads a text's candidates (default: ``text_candidates`` without reversed words); the exploit search
    passes its memo, since many texts (tool descriptions, a fixed error reply) are the same on every seed.
    ``population`` gives, per source, the seeds on which it exists where ``sources`` leaves some of its
    texts out (a decoding is passed only where it holds the answer, but it is read on every seed it exists).
    """
    read = candidates_of or _copy_candidates
    answer_cases = informative_cases(cases)
    if not answer_cases:
        return []
    frequency = answer_frequencies(cases)
    # What a copied value must equal: the answer, or, for a game whose final move names one number
    # (``guess 606``), that number, which ``wrap`` puts back in the move.
    slot_key = {case.seed: answer_key(case.slot) for case in answer_cases}
    slot_counts = Counter(slot_key.values())
    slot_frequency = {key: count / len(answer_cases) for key, count in slot_counts.items()}
    # A policy is keyed (source, kind, place, position or anchor) while candidates are scanned; its name
    # and description are written only for the policies that end up with a plan (texts yield hundreds of
    # candidates a seed, and formatting names for all of them was most of the probe's host time).
    plans: dict[_CopyKey, dict[int, tuple[str, ...]]] = defaultdict(dict)
    independent: dict[_CopyKey, float] = defaultdict(float)  # sum over seeds of how often the played value is an answer
    pick: dict[tuple[str, str], float] = defaultdict(float)  # sum over seeds of the winners' share of a kind
    seeds_of: dict[str, int] = defaultdict(int)  # source -> seeds on which it exists
    for case in answer_cases:
        for source in dict.fromkeys(name for name, _, _ in sources.get(case.seed, [])):
            seeds_of[source] += 1  # once per seed, however many texts of that name it has
        for source, text, before in sources.get(case.seed, []):
            candidates = read(text)
            by_kind: dict[str, list[Candidate]] = defaultdict(list)
            for candidate in candidates:
                by_kind[candidate.kind].append(candidate)
            target = slot_key[case.seed]
            for kind, found in by_kind.items():
                if len(found) >= 2:
                    pick[(source, kind)] += sum(c.key in (case.key, target) for c in found) / len(found)
            anchored: set[tuple[str, str]] = set()  # (kind, anchor) already picked on this seed
            for candidate in candidates:
                keys: list[_CopyKey] = []
                # Positions are unique within a kind, so the first and last places never repeat on a seed;
                # "the <kind> after <word>" picks the first candidate after that word.
                if candidate.index < POSITIONS:
                    keys.append((source, candidate.kind, "first", candidate.index))
                if candidate.from_end < POSITIONS:
                    keys.append((source, candidate.kind, "last", candidate.from_end))
                if candidate.anchor and (candidate.kind, candidate.anchor) not in anchored:
                    anchored.add((candidate.kind, candidate.anchor))
                    keys.append((source, candidate.kind, "after", candidate.anchor))
                if target != case.key:
                    share, wins = slot_frequency.get(candidate.key), candidate.key == target
                else:
                    share, wins = frequency.get(candidate.key), candidate.key == case.key
                for key in keys:
                    if share:
                        independent[key] += share
                    if wins:
                        plans[key][case.seed] = before + (case.wrap(candidate.text),)
    policies = []
    for key, seed_plans in plans.items():
        source, kind = key[0], key[1]
        seeds = max(seeds_of[source], (population or {}).get(source, 0))
        chance = max(independent[key], pick[(source, kind)]) / seeds
        name, description = _copy_name(key)
        how = ("what picking among the candidates of its kind wins" if pick[(source, kind)] >= independent[key]
               else "how often the values it copies are the answer anyway")
        policies.append(Policy(check, name, description, dict(seed_plans), chance, predicted=True,
                               population=seeds, derivation=how))
    return policies


def _copy_candidates(text: str) -> list[Candidate]:
    return text_candidates(text, reversed_words=False)


_CopyKey = tuple[str, str, str, Any]
"""(source, candidate kind, "first" | "last" | "after", position or anchor word): one copy policy."""


def _copy_name(key: _CopyKey) -> tuple[str, str]:
    """A copy policy's name (unique, stable across seeds) and the description a finding shows."""
    source, kind, place, where = key
    shown = kind.replace("_", " ")
    if place == "first":
        return f"{source}:{kind}:first#{where}", f"the {_ordinal(where)} {shown} of the {source}"
    if place == "last":
        return f"{source}:{kind}:last#{where}", f"the {_ordinal(where, last=True)} {shown} of the {source}"
    return f"{source}:{kind}:after:{where}", f"the {shown} after '{where}' in the {source}"


_GRID_LINE = re.compile(r"^\s*([0-9A-Za-z]{1,2})?\s?([^\s]{3,40})\s*$")


def _grids(text: str) -> list[tuple[list[str], list[str], str | None]]:
    """Blocks of at least three lines of equal width over a small alphabet: (row labels, rows, column labels)."""
    lines = text[:8_000].splitlines()
    blocks, current = [], []
    for line in lines + [""]:
        match = _GRID_LINE.match(line)
        body = match.group(2) if match else None
        if body is not None and (not current or len(body) == len(current[0][1])):
            current.append((match.group(1), body))
            continue
        if len(current) >= 3:
            blocks.append(current)
        current = [(match.group(1), body)] if body is not None else []
    grids = []
    for block in blocks:
        rows = [body for _, body in block]
        header = None
        if rows[0].isdigit() or rows[0].isalpha() and len(set(rows[0])) == len(rows[0]):
            header, rows, labels = rows[0], rows[1:], [label for label, _ in block[1:]]
        else:
            labels = [label for label, _ in block]
        if len(rows) >= 3 and len(set("".join(rows))) <= 12:
            grids.append(([lab or "" for lab in labels], rows, header))
    return grids


def grid_policies(cases: list[SeedCase]) -> list[Policy]:
    """A map that shows the hidden square: play the coordinates of a mark that appears once on it.

    For tasks whose decisive move names two numbers (``\\boxed{dig r c}``), every character found exactly
    once in a grid of the first observation gives candidate coordinates (the grid's own labels, 0-based
    and 1-based, row first and column first); a copy of the right ones that wins is a leak.
    """
    frequency = Counter(tuple(re.findall(r"-?\d+", case.answer)) for case in cases)
    plans: dict[str, dict[int, tuple[str, ...]]] = defaultdict(dict)
    independent: dict[str, float] = defaultdict(float)
    for case in cases:
        numbers = re.findall(r"-?\d+", case.answer)
        if len(numbers) != 2 or case.tool_use:
            continue
        for labels, rows, header in _grids(case.observation):
            counts = Counter("".join(rows))
            for mark, count in counts.items():
                if count != 1:
                    continue
                r = next(i for i, row in enumerate(rows) if mark in row)
                c = rows[r].index(mark)
                options = {"0-based": (r, c), "1-based": (r + 1, c + 1)}
                if labels[r].isdigit() and header and header[c].isdigit():
                    options["labelled"] = (int(labels[r]), int(header[c]))
                for mode, (row, col) in options.items():
                    for order, pair in (("row first", (row, col)), ("column first", (col, row))):
                        name = f"grid:{mode}:{order}"
                        if case.seed in plans[name]:
                            continue
                        played = (str(pair[0]), str(pair[1]))
                        independent[name] += frequency.get(played, 0) / len(cases)
                        if played == tuple(numbers):
                            move = case.answer.replace(numbers[0], "\x00", 1).replace(numbers[1], played[1], 1)
                            plans[name][case.seed] = case.prefix() + (boxed(move.replace("\x00", played[0])),)
    return [Policy("answer_leak", name, f"the {name.split(':')[2]} coordinates ({name.split(':')[1]}) of the one "
                   "mark that stands out on the map of the first observation", dict(seed_plans),
                   independent[name] / len(cases), predicted=True) for name, seed_plans in plans.items() if seed_plans]


def _ordinal(index: int, last: bool = False) -> str:
    if last:
        return "last" if index == 0 else f"{_ordinal(index)} from last"
    return ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][index] \
        if index < 8 else f"{index + 1}th"


def partial_credit_findings(cases: list[SeedCase], play: PlayFn, turn_limit: int,
                            screen: int) -> list[ProbeFinding]:
    """Keep the episode alive with valid moves and add the rewards up (the ``sum_clipped`` return).

    A correct environment's partial rewards total less than a win; if some non-winning episode reaches
    the win return, an agent farms it instead of solving the task.
    """
    plans: list[EpisodePlan] = []
    for case in cases[:screen]:
        moves = list(dict.fromkeys(case.solution))
        if not moves:
            continue
        body = case.solution[:-1] or case.solution
        scripts = [
            (moves[0],) * turn_limit,
            tuple((moves[: 2] * turn_limit)[:turn_limit]),
            tuple((list(body) * turn_limit)[:turn_limit]),
            tuple(list(case.solution[:-1]) + [case.solution[-2] if len(case.solution) > 1 else moves[0]] * turn_limit)[
                :turn_limit],
        ]
        for script in dict.fromkeys(scripts):
            plans.append(EpisodePlan(case.seed, script))
    findings: dict[int, ProbeFinding] = {}
    for trace in play(plans):
        total = sum(trace.rewards)
        if not trace.won and min(1.0, total) >= WIN_THRESHOLD and trace.plan.seed not in findings:
            findings[trace.plan.seed] = (ProbeFinding(
                "partial_credit",
                f"Without winning, an agent collected rewards summing to {total:g} on seed {trace.plan.seed} by "
                f"repeating moves ({_short(repr(list(trace.actions_played[:4])), 120)}); under the sum_clipped "
                "return that is worth a win. Give progress reward only once per sub-goal and keep the total of "
                "partial rewards below the win reward (1.0).",
                trace.plan.seed, trace.actions_played))
    # One farmed seed could be a reward the designer meant; two are a pattern an agent will find.
    tried = len({plan.seed for plan in plans})
    return list(findings.values())[:1] if len(findings) >= min(2, tried) else []


def policy_message(policy: Policy, cases: list[SeedCase]) -> ProbeFinding:
    """A finding for a policy that beat its chance rate, naming it, a seed and the exact actions."""
    seed, actions = policy.example if policy.example else (None, ())
    shown = _short(repr(list(actions[-2:] if len(actions) > 2 else actions)), 160)
    derived = f": {policy.derivation}" if policy.derivation else ""
    rate = f"{policy.wins} of {policy.trials} seeds (chance for this task about {policy.chance:.0%}{derived})"
    if policy.check == "trivially_solvable":
        distinct = len({case.task_key for case in cases})
        message = (f"The probe policy that {policy.description} won {rate}, e.g. seed {seed}. This task has "
                   f"{distinct} distinct answers over the seeds checked; make the answer depend on the seed's "
                   "hidden state, balance the answers, and do not reward guesses.")
    elif policy.check == "answer_variants":
        case = next((c for c in cases if c.seed == seed), None)
        answer = repr(_short(case.answer)) if case else "the answer"
        message = (f"A wrong answer is accepted: playing {policy.description} won {rate}; on seed {seed} the answer "
                   f"is {answer} and {shown} also won. Parse the answer from the last \\boxed{{}} (or <answer>) and "
                   "compare it exactly (as a number where it is one) with the solution.")
    elif policy.check == "answer_leak" and policy.name.split(":")[0] in ("listed targets", "suggested moves",
                                                                           "numbers filled in"):
        message = (f"The game's replies give the solution away: the policy that {policy.description} won {rate}; e.g. "
                   f"on seed {seed} it played {_short(repr(list(actions[-4:])), 240)} (the last moves). Answer "
                   "repeated, malformed and unusual moves without showing hidden state (the answer, targets, the "
                   "right completion of a move).")
    elif policy.check == "late_win":
        message = (f"The game was won after its turn budget was spent: the policy that {policy.description} won "
                   f"{rate}; e.g. on seed {seed} it played {len(actions)} moves, ending "
                   f"{_short(repr(list(actions[-4:])), 240)} (the last moves). End the episode when the budget is "
                   "spent, pay nothing after it, and never reset the turn count within an episode.")
    elif policy.check == "out_of_range_moves":
        message = (f"A move the rules should refuse counts toward the goal: the policy that {policy.description} "
                   f"won {rate}; e.g. on seed {seed} it played {_short(repr(list(actions)), 240)}. Check every value "
                   "of a move against the range the rules allow and refuse the move otherwise.")
    else:
        message = (f"The answer is visible to the agent: a policy that copies {policy.description} and plays it "
                   f"won {rate}; e.g. on seed {seed} it played {shown}. Do not show the answer (or a form it can be "
                   "read back from) before the agent has worked it out.")
    return ProbeFinding(policy.check, message, seed, tuple(actions))
