"""The exploit probes' parts: chance rates, candidates a copying agent finds, hint readers, release solutions.

The defect zoo (tests/test_defect_zoo.py) shows every probe catching its defect and passing the tricky
correct set; these tests pin the rules those verdicts come from.
"""

from __future__ import annotations

import json

import pytest

from spade_envs.checks import check_hint
from spade_envs.checks.answer_space import AnswerSpace, reading
from spade_envs.checks.exploits import option_lists
from spade_envs.checks.hints import find_hint_leak, hint_reader_policies
from spade_envs.checks.leaks import answer_key, parse_number, simplest_fraction, text_candidates
from spade_envs.checks.probes import (
    SeedCase,
    answer_space,
    constant_policies,
    copy_policies,
    distinct_answer_chance,
    variant_policies,
)
from spade_envs.checks.stats import ChanceRule, binomial_tail
from spade_envs.contract.actions import extract_boxed, solution_to_actions, tool_use_script
from tests.conftest import COUNTER_ENV


# ---------------------------------------------------------------------- when a probe wins too often
def test_binomial_tail_is_exact_at_the_edges() -> None:
    assert binomial_tail(0, 10, 0.3) == 1.0
    assert binomial_tail(1, 10, 0.0) == 0.0
    assert binomial_tail(10, 10, 0.5) == pytest.approx(0.5**10)
    assert binomial_tail(3, 3, 1.0) == 1.0


@pytest.mark.parametrize(
    ("wins", "trials", "chance", "finding"),
    [
        (100, 100, 0.0, True),   # a constant that wins every seed
        (4, 100, 0.0, False),    # under the 5% margin
        (6, 100, 0.01, False),   # not clearly more than one in a hundred
        (7, 100, 0.01, True),
        (27, 100, 0.25, False),  # a letter on a four-option question: chance
        (42, 100, 0.25, False),  # above chance, but not by the margin and the significance together
        (43, 100, 0.25, True),
        (86, 100, 0.5, True),    # "no" on a quiz whose answer is "no" six times in seven
        (1, 1, 0.0, True),
    ],
)
def test_chance_rule(wins: int, trials: int, chance: float, finding: bool) -> None:
    assert ChanceRule().beats_chance(wins, trials, chance) is finding


# ---------------------------------------------------------------------- what an answer is, what a text offers
@pytest.mark.parametrize(("a", "b"), [("0.5", "1/2"), ("\\frac{1}{2}", "2/4"), ("007", "7"), ("1,000", "1000"),
                                      ("\\boxed{42}", "42"), ("<answer> Paris. </answer>", "paris")])
def test_answer_keys_agree_on_equal_answers(a: str, b: str) -> None:
    assert answer_key(a) == answer_key(b)


def test_numbers_are_parsed_within_bounds() -> None:
    assert parse_number("7e5000") is None and parse_number("9" * 100) is None
    assert parse_number("-3/7") == parse_number("\\frac{-3}{7}")
    assert simplest_fraction(parse_number("0.4285"), parse_number("0.4295")) == parse_number("3/7")


def _kinds(text: str, answer: str) -> set[str]:
    return {c.kind for c in text_candidates(text) if c.key == answer_key(answer)}


@pytest.mark.parametrize(
    ("text", "answer", "kind"),
    [
        ("[debug: expected=7242]", "7242", "number"),
        ("It is four hundred twenty-one.", "421", "spelled_number"),
        ("Digits: seven two four two", "7242", "spelled_number"),
        ("The numerator is 3 and the denominator is 7.", "3/7", "number_pair"),
        ("Roughly 0.429.", "3/7", "rounded_decimal"),
        ("Read backwards: 1247", "7421", "reversed_number"),
        ("lowest fuel: KX-4821", "KX-4821", "code"),
        ("Answer like \\boxed{77}.", "77", "boxed"),
        ("The code is \x1b[8m343\x1b[0m.", "343", "number"),  # escape codes hide nothing from a model
    ],
)
def test_text_candidates_find_every_form(text: str, answer: str, kind: str) -> None:
    assert kind in _kinds(text, answer)


def test_text_candidates_are_bounded() -> None:
    huge = " ".join(str(i) for i in range(100_000))
    candidates = text_candidates(huge)
    assert candidates and len(candidates) < 5_000


# ---------------------------------------------------------------------- probe policies and their chance rates
def _case(seed: int, observation: str, answer: str, tool_use: bool = False) -> SeedCase:
    action = f"<answer>{answer}</answer>" if tool_use else f"\\boxed{{{answer}}}"
    return SeedCase(seed, observation, (action,), tool_use)


def test_the_chance_of_a_constant_is_one_over_the_distinct_answers() -> None:
    letters = [_case(s, "Pick A, B, C or D.", "ABCD"[s % 4]) for s in range(40)]
    assert distinct_answer_chance(letters) == 0.25
    policies = {p.name: p for p in constant_policies(letters, 3)}
    assert policies["always \\boxed{A}"].chance == 0.25


def test_variants_are_wrong_answers_only() -> None:
    cases = [_case(s, "Compute it.", str(100 + s)) for s in range(20)]
    for policy in variant_policies(cases):
        for seed, plan in policy.plans.items():
            played = extract_boxed(plan[-1]) or plan[-1]
            if policy.name != "several answers in one reply":
                assert answer_key(played) != answer_key(str(100 + seed)), (policy.name, played)


def _played(policy_plan: tuple[str, ...]) -> list[str]:
    import re

    return re.findall(r"\\boxed\{([^{}]*)\}", policy_plan[-1])


@pytest.mark.parametrize("layout", ["lines", "inline"])
def test_every_wrong_answer_of_a_multiple_choice_task_is_another_option(layout: str) -> None:
    """\\boxed{D} or maybe \\boxed{Dx} holds one legal answer: an environment that reads it is honest."""
    def observation(seed: int) -> str:
        options = [f"word{seed}{i}" for i in range(5)]
        if layout == "lines":
            return "Which one?\n" + "\n".join(f"{'ABCDE'[i]}) {w}" for i, w in enumerate(options))
        return "Pick one of: " + ", ".join("ABCDE") + "."
    cases = [_case(s, observation(s), "ABCDE"[s % 5]) for s in range(30)]
    space = answer_space(cases, option_lists)
    policies = variant_policies(cases, space)
    assert {p.name for p in policies} >= {"several answers in one reply", "another answer of the task's own form"}
    for policy in policies:
        for seed, plan in list(policy.plans.items()) + list(policy.also.items()):
            for box in _played(plan):
                for item in box.split(", "):
                    assert item in "ABCDE" and len(item) == 1, (policy.name, plan)


def test_wrong_answers_keep_the_form_of_fixed_length_codes_and_never_read_as_the_answer() -> None:
    cases = [_case(s, "Crack the four-letter code.", "".join("RGBYOP"[(s * k) % 6] for k in (1, 2, 3, 5)))
             for s in range(1, 30)]
    space = answer_space(cases)
    assert not space.lengths_vary
    for case in cases:
        for wrong in space.wrong_answers(case.seed, case.answer, 3):
            assert len(wrong) == 4 and wrong.isalpha() and reading(wrong) != reading(case.answer)
    words = AnswerSpace.build([(s, "", w) for s, w in enumerate(["apple", "banana", "kiwi", "cherry"])])
    assert words.lengths_vary
    assert reading("  'B' ") == reading("b") and reading("3 , 4") == reading("3,4")
    assert all(reading(w) != reading("(B)") for w in AnswerSpace((), {}, False).wrong_answers(0, "(B)"))


def test_a_game_move_that_names_one_number_gets_wrong_numbers_in_its_slot() -> None:
    """guess 606 -> guess 607, never guess guess 607."""
    cases = [SeedCase(s, "Guess my number from 1 to 999.", ("\\boxed{guess 500}", f"\\boxed{{guess {100 + s}}}"), False)
             for s in range(20)]
    for policy in variant_policies(cases):
        for plan in list(policy.plans.values()) + list(policy.also.values()):
            for box in _played(plan):
                assert box.count("guess") <= box.count(",") + 1 and "guess guess" not in box, (policy.name, box)


def test_a_copy_of_shown_options_is_at_chance_and_a_fixed_place_is_not() -> None:
    """A four-option question shows its answer by design; an answer always at the same place leaks."""
    options = [[str(10 + s), str(30 + s), str(50 + s), str(70 + s)] for s in range(40)]
    shuffled = [_case(s, "Which is it: " + ", ".join(o) + "?", o[s % 4]) for s, o in enumerate(options)]
    sources = {c.seed: [("first observation", c.observation, ())] for c in shuffled}
    rule = ChanceRule()
    for policy in copy_policies(shuffled, sources, "answer_leak"):
        assert not rule.beats_chance(len(policy.plans), policy.population or 40, policy.chance), policy.name
    fixed = [_case(s, "Which is it: " + ", ".join(o) + "? (debug: " + o[2] + ")", o[2]) for s, o in enumerate(options)]
    sources = {c.seed: [("first observation", c.observation, ())] for c in fixed}
    assert any(rule.beats_chance(len(p.plans), p.population or 40, p.chance)
               for p in copy_policies(fixed, sources, "answer_leak"))


# ---------------------------------------------------------------------- hints
def test_hint_readers_play_what_the_hint_names() -> None:
    cases = [_case(s, "Find the number.", str(500 + s)) for s in range(10)]
    policies = hint_reader_policies(cases, {c.seed: f"Try {500 + c.seed} first." for c in cases}, "hint() text")
    first_number = next(p for p in policies if p.name == "hint() text:number:0")
    assert all(plan == (f"\\boxed{{{500 + seed}}}",) for seed, plan in first_number.plans.items())


@pytest.mark.parametrize("hint", ["The answer is 421.", "Think of four hundred twenty-one.", "Reversed: 124.",
                                  "Digits: four two one."])
def test_find_hint_leak_text_pass(hint: str) -> None:
    assert find_hint_leak(hint, [421]) is not None


def test_find_hint_leak_passes_an_insight() -> None:
    assert find_hint_leak("Halve the range with every guess.", [421, 37, 980]) is None


def test_check_hint_in_the_sandbox(inprocess) -> None:
    """The loop's hint check: a hint naming the seed's number (one addition away) is not caught by text,
    the answer is; an insight passes."""
    assert check_hint(COUNTER_ENV, "Add the two numbers you are shown.", inprocess) is None
    assert check_hint(COUNTER_ENV, "The number is the sum; for seed 0 it is 865.", inprocess) is None  # one seed only
    leak_env = COUNTER_ENV.replace("    def close(self):", "    def hint(self):\n        return f'It is {self.target}.'\n\n    def close(self):")
    assert check_hint(leak_env, "Add them.", inprocess) is not None


# ---------------------------------------------------------------------- the release's tool-use solutions
def test_release_solution_strings_replay_one_call_per_turn() -> None:
    blocks = ('<tool_call>{"name": "cd", "arguments": {"path": "/home"}}</tool_call>\n'
              '<tool_call>{"name": "ls", "arguments": {}}</tool_call>\n<answer>done</answer>')
    assert tool_use_script(blocks, []) == [
        '<tool_call>{"name": "cd", "arguments": {"path": "/home"}}</tool_call>',
        '<tool_call>{"name": "ls", "arguments": {}}</tool_call>', "<answer>done</answer>"]
    prose = "1. cd(path='/home/docs') -> Changed 2. mkdir(name=\"archive\") -> Created ANSWER: archive/report.txt"
    script = tool_use_script(prose, ["cd", "mkdir", "mv"])
    assert [json.loads(a[len("<tool_call>"):-len("</tool_call>")]) for a in script[:2]] == [
        {"name": "cd", "arguments": {"path": "/home/docs"}}, {"name": "mkdir", "arguments": {"name": "archive"}}]
    assert script[-1] == "<answer>archive/report.txt</answer>"


def test_solution_lists_keep_json_string_arguments() -> None:
    actions = solution_to_actions([{"name": "get", "arguments": '{"id": 4}'}, "7"], tool_use=True)
    assert json.loads(actions[0][len("<tool_call>"):-len("</tool_call>")])["arguments"] == '{"id": 4}'
    assert actions[1] == "<answer>7</answer>"


# ---------------------------------------------------------------------- batched episodes
def test_a_hanging_episode_late_in_a_batch_costs_two_time_limits_not_one_per_episode_before_it() -> None:
    """``CheckRun.play`` sends episodes in chunks; a chunk that fails is replayed one episode at a time up
    to its end. A chunk with a hanging episode at position 30 once cost one time limit per good episode
    before it (the chunk grew back after each good one): 30 time limits, a minute for one zoo file. What is
    counted here is the number of calls that ran into the limit, not seconds."""
    from spade_envs.checks.context import CheckConfig, CheckRun
    from spade_envs.runtime import EnvTimeoutError, ExecutionLimits, create_backend
    from spade_envs.runtime.traces import EpisodePlan

    hangs_on_seed_30 = COUNTER_ENV.replace(
        "self.turn += 1", "self.turn += 1\n        while self.target == -30:\n            pass")
    hangs_on_seed_30 = hangs_on_seed_30.replace(
        "self.target = self.rng.randint(100, 999)", "self.target = -30 if seed == 30 else self.rng.randint(100, 999)")
    backend = create_backend("inprocess", ExecutionLimits(call_timeout_s=0.3))
    run = CheckRun(backend, CheckConfig(seed=0), hangs_on_seed_30, None)
    session = run.open()
    limits_hit = []
    episodes = session.episodes

    def counted(plans, **options):
        try:
            return episodes(plans, **options)
        except EnvTimeoutError:
            limits_hit.append(len(plans))
            raise

    session.episodes = counted
    run._chunk = 64
    try:
        with pytest.raises(EnvTimeoutError, match=r"seed 30, actions"):
            run.play([EpisodePlan(seed, ("\\boxed{1}",)) for seed in range(40)], session=session)
        assert limits_hit == [40, 1], limits_hit  # the whole chunk, then the hanging episode alone
        assert len(run.play([EpisodePlan(seed, ("\\boxed{1}",)) for seed in range(30)], session=session)) == 30
    finally:
        run.close()


@pytest.mark.parametrize(("hint", "answer", "leaks"), [
    ("There are 720 eggs, at 27 cents each.", "19440", True),           # a count and a unit price
    ("The first leg is 400 km and the second 144 km.", "544", True),     # two parts of a sum
    ("Favourable pairs: 15; all pairs: 45.", "1/3", True),               # a numerator and a denominator
    ("You had 500 and spent some: 377 are left.", "123", True),          # a difference
    ("Multiply the 12 crates by the 60 eggs in each.", "720", False),    # the task's own numbers: the task
    ("Count the eggs first, then price them.", "19440", False),
])
def test_a_hint_in_parts_combines_into_the_answer(hint: str, answer: str, leaks: bool) -> None:
    task = "A bakery orders 12 crates of 60 eggs at 27 cents each; 4 trays per crate. Answer in \\boxed{}."
    found = find_hint_leak(hint, [answer], only="answer", shown=task)
    assert (found is not None) == leaks, found
    # without the task text the parts are not combined: a numerator and denominator named apart still are found
    alone = find_hint_leak(hint, [answer], only="answer")
    assert alone is None or "in parts" not in alone
