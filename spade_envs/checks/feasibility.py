"""The feasibility tier: winnable by its own solution, on every seed, and by nothing less.

In order:

1. ``oracle``: for every seed of the plan (``CheckConfig.seed_plan``: small seeds and the 32-bit seeds
   rollouts use), ask the oracle session for ``solution()``, ``hint()`` and the tools;
2. ``feasible``: replay each solution in the player session, which has never been asked for a solution
   (so a solution that only works once ``solution()`` has run fails), and record what the agent sees first;
3. ``distinct_tasks``, ``oracle_consistent``, ``instructions_start_unmet``: the task space is not
   degenerate, the environment does not behave differently once asked for its solution, and a
   multi-instruction task starts with nothing done;
4. the exploit probes (``probes.py``): constants, wrong variants of the answer, copies of what the agent
   is shown (``answer_leak``), partial-credit farming, answers without the tool calls that change the
   state, tools that test candidate answers for free;
5. ``observable_task`` and ``answer_format``: seeds that look the same to the agent need the same play,
   and the answer in the form the task asks for wins;
6. ``hint_leak``: the given hint and the environment's own ``hint()``, first by text, then by readers.

Only seeds whose solution won in step 2 ("verified" seeds) feed the later checks.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from typing import Any

from spade_envs.checks.answer_space import AnswerSpace
from spade_envs.checks.context import CheckRun, Stop, preview, show_action
from spade_envs.checks.exploits import ChanceModel, ExploitSearch, SearchContext, option_lists
from spade_envs.checks.exploits.search import STYLE_PREFIX
from spade_envs.checks.hints import find_hint_leak, hint_reader_policies
from spade_envs.checks.known_answers import (
    PAID_ERROR_RETURN,
    bad_reply_policies,
    known_answer_probes,
    paid_message,
    refused_message,
)
from spade_envs.checks.leaks import action_content, parse_number, squeeze, text_candidates
from spade_envs.checks.probes import (
    ProbeSuite,
    SeedCase,
    answer_space,
    blind_play,
    distinct_answer_chance,
    informative_cases,
    partial_credit_findings,
    policy_message,
)
from spade_envs.contract.actions import format_answer, format_tool_call, solution_to_actions
from spade_envs.contract.episode import is_win
from spade_envs.runtime.errors import (
    ContractViolation,
    EnvCodeError,
    EnvCrashError,
    EnvMemoryError,
    EnvTimeoutError,
)
from spade_envs.runtime.limits import work_seconds
from spade_envs.runtime.traces import EpisodePlan, OracleRecord

ORACLE_CHUNK = 32
"""Most seeds one oracle request asks about."""
VERDICT_WORDS = frozenset({
    "correct", "incorrect", "right", "wrong", "yes", "nope", "exact", "exactly", "match", "matches", "mismatch",
    "higher", "lower", "high", "low", "bigger", "smaller", "larger", "greater", "less", "warmer", "colder",
    "hotter", "cooler", "closer", "farther", "further", "solved", "unlocked", "bingo", "congratulations"})
"""Words in which a reply can tell a right candidate from a wrong one (lookups say "no such ..." instead)."""


def feasibility_tier(run: CheckRun) -> None:
    with run.check("feasible"):
        _collect_oracle(run)
    with run.check("feasible"):
        _feasible(run)
    cases = _cases(run)
    suite = ProbeSuite(cases, play=lambda plans: run.play(plans), rule=run.config.chance,
                       screen=run.config.probe_screen, turn_limit=run.turn_limit)
    with run.check("distinct_tasks"):
        _distinct_tasks(run, cases, suite)
    with run.check("oracle_consistent"):
        _oracle_consistent(run, cases)
    with run.check("validation_aware"):
        _validation_aware(run, cases)
    if run.tool_use:
        with run.check("instructions_start_unmet"):
            _instructions_start_unmet(run, cases)
        with run.check("tool_calls_skipped"):
            _tool_calls_skipped(run, cases)
    with run.check("trivially_solvable"):
        _same_answer_everywhere(run, cases)
    space = answer_space(cases, option_lists)
    with run.check("trivially_solvable"):
        _exploit_search(run, cases, suite, space)
    with run.check("wrong_answer_paid"):
        _known_answers(run, cases, suite, space)
    with run.check("answer_leak"):
        _moves_spelled_out(run, cases)
    if run.config.sum_clipped and run.progress_rewards:
        with run.check("partial_credit"):
            for finding in partial_credit_findings(cases, lambda plans: run.play(plans), run.turn_limit,
                                                   suite.screen_for(4)):
                run.result.fail(finding.check, finding.message, seed=finding.seed, actions=finding.actions)
    with run.check("answer_oracle_tool"):
        _answer_oracle_tool(run, cases)
    with run.check("observable_task"):
        _observable_task(run, cases)
    with run.check("answer_format"):
        _answer_format(run, cases)
    with run.check("hint_leak"):
        checked = _hint_leak(run, cases, suite)
    if not checked:
        run.result.ran.pop("hint_leak", None)  # no hint to check: reported as skipped


# ---------------------------------------------------------------------- solutions and their replay
def _collect_oracle(run: CheckRun) -> None:
    """solution(), hint() and tools for every seed of the plan, from the oracle session.

    Seeds go in chunks sized from the time the last chunk took (a planner's solve can take milliseconds
    a seed), so that one request stays well inside the call limit on a busy machine too.
    """
    want = ["solution", "hint"] + (["get_tools"] if run.tool_use else [])
    seeds = list(run.plan)
    start, chunk = 0, 2
    budget = 0.2 * run.call_timeout()
    while start < len(seeds):
        part = seeds[start:start + chunk]
        start += len(part)
        began = time.perf_counter()
        try:
            records = run.oracle.oracle(part, want=want)
            spent = work_seconds(run.oracle.last_instructions, time.perf_counter() - began)
            per_seed = max(spent / len(part), 1e-4)
            chunk = int(min(ORACLE_CHUNK, max(1, budget / per_seed)))
        except EnvTimeoutError:
            if len(part) == 1:
                raise
            start -= len(part)  # the chunk was too much for one call on this machine: one seed at a time
            chunk = 1
            continue
        except (EnvCodeError, ContractViolation):
            records = []
            for seed in part:  # one by one, to pin the seed whose solution() raises
                try:
                    records.extend(run.oracle.oracle([seed], want=want))
                except EnvCodeError as error:
                    run.result.fail("feasible", f"solution() raised {error.exc_type} for seed {seed}: "
                                    f"{preview(error.exc_message, 160)}; it must work for every seed, including "
                                    "32-bit ones.", line=error.line, detail=error.traceback, seed=seed)
        for record in records:
            _keep(run, record)


def _keep(run: CheckRun, record: OracleRecord) -> None:
    run.oracle_records[record.seed] = record
    if record.solution not in (None, "", []):
        run.solutions[record.seed] = record.solution


def _tool_names(run: CheckRun, seed: int) -> list[str]:
    record = run.oracle_records.get(seed)
    tools = record.tools if record is not None and record.tools else []
    names = []
    for tool in tools[:100]:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def _feasible(run: CheckRun) -> None:
    """Replay every solution in the player session; the first failure is diagnosed step by step."""
    plans, failures, too_long = [], [], []
    for seed in run.plan:
        solution = run.solutions.get(seed)
        if solution is None:
            if seed in run.oracle_records:
                failures.append(seed)
            continue
        actions = solution_to_actions(solution, tool_use=run.tool_use, tool_names=_tool_names(run, seed))
        if not actions:
            failures.append(seed)
        elif len(actions) > run.turn_limit:
            too_long.append((seed, len(actions)))
        else:
            plans.append(EpisodePlan(seed, tuple(actions)))
    if too_long:
        seed, length = too_long[0]
        run.result.fail("feasible", f"solution() for seed {seed} needs {length} actions but max_turns is "
                        f"{run.turn_limit} ({len(too_long)} of {len(run.plan)} seeds are too long); shorten the "
                        "solution or raise max_turns.", seed=seed)
    lost = []
    for trace in run.play(plans, record="first"):
        seed = trace.plan.seed
        if trace.first is not None:
            run.first_observations[seed] = trace.first.observation
            run.first_infos[seed] = trace.first.info
        if trace.won:
            run.verified[seed] = trace.plan.actions
            # Partial credit can only be farmed in an environment that pays before the win.
            run.progress_rewards = run.progress_rewards or any(r > 0 for r in trace.rewards[:-1])
        else:
            lost.append(trace)
    if lost:
        _diagnose(run, lost, len(plans))
    elif failures and not run.result.failed("feasible"):
        run.result.fail("feasible", f"solution() returned nothing for seed {failures[0]} ({len(failures)} of "
                        f"{len(run.plan)} seeds); return the answer or the winning actions for every seed.",
                        seed=failures[0])


def _diagnose(run: CheckRun, lost: list[Any], tried: int) -> None:
    trace = lost[0]
    seed, actions = trace.plan.seed, list(trace.plan.actions)
    steps = run.play([trace.plan], record="full")[0].steps
    others = ", ".join(str(t.plan.seed) for t in lost[1:4])
    scope = (f" It failed on {len(lost)} of {tried} seeds" + (f" (also {others})" if others else "") + "."
             if len(lost) > 1 else f" It failed on 1 of {tried} seeds.")
    if steps and steps[-1].done:
        index = len(steps)
        last = steps[-1]
        how = ("was truncated" if last.truncated and not last.terminated else f"ended with reward {last.reward:g}")
        run.result.fail(
            "feasible",
            f"Replaying solution() for seed {seed}: the episode {how} at action {index} of {len(actions)} "
            f"({show_action(actions[index - 1], 60)}) instead of winning. Last observation: "
            f"{preview(last.observation)!r}.{scope} Make solution() return actions that win for every seed "
            "(also 32-bit seeds), and give reward 1.0 with terminated=True on a win.", seed=seed, actions=actions,
            step=index)
    else:
        last = preview(steps[-1].observation) if steps else ""
        run.result.fail(
            "feasible",
            f"Replaying all {len(actions)} solution() actions for seed {seed} did not end the episode (last "
            f"observation: {last!r}).{scope} Terminate with reward 1.0 when the task is solved.", seed=seed,
            actions=actions)


def _cases(run: CheckRun) -> list[SeedCase]:
    cases = []
    for seed in run.plan:
        if seed in run.verified and seed in run.first_observations:
            record = run.oracle_records.get(seed)
            tools = tuple(record.tools or ()) if record is not None else ()
            cases.append(SeedCase(seed, run.first_observations[seed], run.verified[seed], run.tool_use, tools))
    return cases


# ---------------------------------------------------------------------- the task space and the oracle
def _distinct_tasks(run: CheckRun, cases: list[SeedCase], suite: ProbeSuite) -> None:
    """Few distinct tasks are memorised, unless the game is small by nature: where blind play of its own moves
    wins at least as often as replaying the most common solution, knowing the few tasks gains nothing."""
    seen: dict[str, list[int]] = defaultdict(list)
    for seed, observation in run.first_observations.items():
        solution = json.dumps(run.solutions.get(seed), sort_keys=True, default=str)[:10_000]
        seen[observation + "\x00" + solution].append(seed)
    total = len(run.first_observations)
    needed = min(run.config.min_distinct_tasks, max(2, total // 4))
    if total >= 8 and len(seen) < needed and not _small_by_nature(run, cases, suite):
        groups = sorted(seen.values(), key=len, reverse=True)
        example = ", ".join(str(s) for s in groups[0][:3])
        run.result.fail(
            "distinct_tasks",
            f"Only {len(seen)} distinct tasks over {total} seeds (seeds {example} give the same task); an agent "
            "memorises so few. Generate the task from the whole seed (random.Random(seed)), not from a few values "
            "of it.")


def _small_by_nature(run: CheckRun, cases: list[SeedCase], suite: ProbeSuite) -> bool:
    blind = blind_play(cases, suite, run.turn_limit, run.config.probe_screen)
    if blind is None:
        return False
    common = Counter(case.solution for case in cases).most_common(1)[0][0]
    screen = [case.seed for case in cases[: run.config.probe_screen]]
    replayed = suite.outcomes((seed, common) for seed in screen)
    memorised = sum(replayed.values()) / len(screen)
    return (blind.rate(screen, run.turn_limit) or 0.0) >= memorised


def _oracle_consistent(run: CheckRun, cases: list[SeedCase]) -> None:
    """The oracle session has been asked for solutions and hints; the player session never was. Both must
    show the same tasks and answer the same moves the same way."""
    for seed, observation in run.first_observations.items():
        record = run.oracle_records.get(seed)
        if record is not None and record.first.observation != observation:
            run.result.fail(
                "oracle_consistent",
                f"Seed {seed} shows a different task once solution() or hint() has been called "
                f"({preview(record.first.observation, 60)!r} vs {preview(observation, 60)!r}); behave the same "
                "whoever asks: solution() and hint() must only read the state.", seed=seed)
            return
    probes = []
    for case in cases[:2]:
        probes.append(EpisodePlan(case.seed, ("\\boxed{0}",) * run.turn_limit if not run.tool_use
                                  else (format_answer("0"),)))
        probes.append(EpisodePlan(case.seed, case.solution))
    played = run.play(probes, record="full")
    for plan, trace in zip(probes, played):
        # In the oracle session: reset, ask for the hint and the solution, then play the same actions.
        run.oracle.reset(plan.seed)
        run.oracle.hint()
        run.oracle.solution()
        theirs = []
        for action in plan.actions:
            step = run.oracle.step(action)
            theirs.append((step.observation, step.reward, step.terminated, step.truncated))
            if step.done:
                break
        ours = [(s.observation, s.reward, s.terminated, s.truncated) for s in trace.steps]
        if ours != theirs:
            index = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
            run.result.fail(
                "oracle_consistent",
                f"On seed {plan.seed} the same actions get different answers once hint() and solution() have been "
                f"called: at "
                f"step {index + 1} {preview(repr(theirs[index] if index < len(theirs) else '<ended>'), 80)} instead "
                f"of {preview(repr(ours[index] if index < len(ours) else '<ended>'), 80)}. solution() and hint() "
                "must only read the state; the environment must behave the same whoever plays it.",
                seed=plan.seed, actions=plan.actions)
            return


def _styled(action: str) -> str:
    """An action as a model writes it: reasoning first, the move last (a text move keeps its \\boxed{})."""
    return STYLE_PREFIX + action


def _validation_aware(run: CheckRun, cases: list[SeedCase]) -> None:
    """The same moves must get the same outcomes however validation-like the play around them looks.

    Validation sends terse moves, replays seeds and starts with small ones; a model writes its reasoning
    before its move and meets each seed once, in an instance that has lived a while. An environment that
    keys its behaviour on any of that can pass the checks and be exploited (or unwinnable) in play. On the
    screen seeds this plays the solution, a wrong answer and a special value twice, terse and in a model's
    style, in a fresh instance (each seed's first episode there) after an episode of a random 32-bit seed,
    and compares the outcomes with the player session's terse ones: they must agree on every seed.
    """
    screen = cases[: min(8, run.config.probe_screen)]
    if len(screen) < 2:
        return
    scripts: list[tuple[SeedCase, str, tuple[str, ...]]] = []
    for case in screen:
        wrong = case.prefix() + (case.wrap(_shifted(case.slot, 1)),) if case.answer_like() else None
        special = case.prefix() + (case.wrap("nan"),) if case.answer_like() else None
        for name, script in (("the solution", case.solution), ("a wrong answer", wrong), ("nan", special)):
            if script:
                scripts.append((case, name, script))
    terse = run.play([EpisodePlan(case.seed, script) for case, _, script in scripts])
    styled_plans = [EpisodePlan(case.seed, tuple(_styled(a) for a in script)) for case, _, script in scripts]
    with run.temporary() as opened:
        fresh = opened()
        fresh.episodes([EpisodePlan(max(run.plan), ("\\boxed{0}",))])  # a 32-bit seed of the plan first
        styled = fresh.episodes(styled_plans)
    differing = []
    for (case, name, script), a, b in zip(scripts, terse, styled):
        if a.won != b.won:
            differing.append((case, name, script, a.won, b.won))
    seeds = {item[0].seed for item in differing}
    if len(seeds) >= max(2, len(screen) // 2):
        case, name, script, terse_won, styled_won = differing[0]
        run.result.fail(
            "validation_aware",
            f"On seed {case.seed} {name} {'wins' if terse_won else 'loses'} when played tersely in the checker's "
            f"session but {'wins' if styled_won else 'loses'} when written as a model writes it (reasoning before "
            f"the move) in a fresh instance; {len(seeds)} of {len(screen)} seeds differ. Read the move from the "
            "last \\boxed{} (or <answer>) whatever text comes before it, and behave the same for every seed, "
            "instance and style of reply.", seed=case.seed, actions=[_styled(a) for a in script])


def _instructions_start_unmet(run: CheckRun, cases: list[SeedCase]) -> None:
    for case in cases[: run.config.probe_screen]:
        run.oracle.reset(case.seed)
        met = run.oracle.audit()["instructions_met"]
        if met and any(met):
            index = met.index(True)
            run.result.fail(
                "instructions_start_unmet",
                f"On seed {case.seed} instruction {index + 1} of {len(met)} already holds right after reset(), so "
                "the agent is credited for a step it never took. Each instruction's check must be False on the "
                "state reset() builds and turn True only through the tool calls the instruction asks for.",
                seed=case.seed)
            return


def _tool_calls_skipped(run: CheckRun, cases: list[SeedCase]) -> None:
    """A task whose solution changes the state must not accept its answer without those changes.

    It matters when the agent can know the answer without making them: when the answer is in, or one
    arithmetic step away from, the task text and what the solution's read-only calls return (a
    confirmation code that only the booking reveals cannot be skipped to).
    """
    mutating: list[tuple[SeedCase, tuple[str, ...]]] = []
    for case in cases[: run.config.probe_screen]:
        calls = case.solution[:-1]
        if not calls or not case.solution[-1].startswith("<answer>"):
            continue
        run.oracle.reset(case.seed)
        before = run.oracle.audit()
        reads = []
        for action in calls:
            run.oracle.step(action)
            after = run.oracle.audit()
            if not _changes_the_task(before, after):
                reads.append(action)
            before = after
        if len(reads) < len(calls):
            mutating.append((case, tuple(reads)))
    if len(mutating) < 4:
        return
    seen = run.play([EpisodePlan(case.seed, reads) for case, reads in mutating if reads], record="full")
    shown = {trace.plan.seed: [s.observation for s in trace.steps] for trace in seen}
    knowable = [(case, reads) for case, reads in mutating
                if derivable(case.key, [case.observation] + shown.get(case.seed, []))]
    if len(knowable) < 4:
        return
    traces = run.play([EpisodePlan(case.seed, reads + (case.solution[-1],)) for case, reads in knowable])
    mutating = [item[0] for item in knowable]
    wins = [trace for trace in traces if trace.won]
    chance = distinct_answer_chance(cases)
    if run.config.chance.beats_chance(len(wins), len(mutating), chance):
        seed = wins[0].plan.seed
        run.result.fail(
            "tool_calls_skipped",
            f"The final answer wins {len(wins)} of {len(mutating)} seeds without the calls of the solution that "
            f"change the state, although the answer can be worked out without them (e.g. seed {seed}: "
            f"{preview(repr(list(wins[0].plan.actions)), 100)}). "
            "Check the state the task asks for (the transfers, bookings, files) before accepting the answer.",
            seed=seed, actions=wins[0].plan.actions)


def _changes_the_task(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether a call changed the state beyond counting itself (``EnvSession.audit`` before and after it): a
    top-level counter (weighings used, queries asked) going up by one while the rest of the state stays the
    same is bookkeeping of how the answer was found, not a change the task asks for."""
    if after["state"] is None or after["state"] == before["state"]:
        return False
    if before["rest"] is None or before["rest"] != after["rest"]:
        return True
    old, new = before["counters"], after["counters"]
    changed = [key for key in set(old) | set(new) if old.get(key) != new.get(key)]
    return not changed or any(key not in old or key not in new or new[key] != old[key] + 1 for key in changed)


def derivable(key: str, texts: list[str]) -> bool:
    """Whether an answer is in ``texts``, made of their words (a path built from a folder and a file name the
    task names), or one +, -, * step away from two numbers in them."""
    found = [c for text in texts for c in text_candidates(text, reversed_words=False)]
    if any(c.key == key for c in found):
        return True
    parts = re.findall(r"[a-z0-9]+", key)
    words = {w for text in texts for w in re.findall(r"[a-z0-9]+", text.lower())}
    if len(parts) >= 2 and all(part in words for part in parts):
        return True
    target = parse_number(key)
    if target is None:
        return False
    numbers = list(dict.fromkeys(v for c in found if c.kind == "number" and (v := parse_number(c.text)) is not None))
    numbers = numbers[:40]
    return any(a + b == target or a - b == target or a * b == target for a in numbers for b in numbers)


# ---------------------------------------------------------------------- the probes
def _same_answer_everywhere(run: CheckRun, cases: list[SeedCase]) -> None:
    keys = {case.task_key for case in cases}
    if len(cases) >= 8 and len(keys) == 1:
        run.result.fail(
            "trivially_solvable",
            f"All {len(cases)} seeds checked have the same solution ({preview(repr(list(cases[0].solution)), 80)}); "
            "an agent wins by always playing it. Make the answer depend on the seed.", seed=cases[0].seed,
            actions=cases[0].solution)


def _exploit_search(run: CheckRun, cases: list[SeedCase], suite: ProbeSuite, space: AnswerSpace) -> None:
    """The exploit search (``exploits/search.py``): each check's cheapest strategy that beats chance."""
    if run.result.failed("trivially_solvable") or not cases:
        return
    distinct = len({case.task_key for case in cases})
    model = ChanceModel.build([(case.seed, case.observation, case.answer) for case in cases], distinct)
    context = SearchContext(cases, run.turn_limit, run.tool_use, model, dict(run.first_infos),
                            lambda plans: run.play(plans, record="full"), screen=run.config.probe_screen, space=space,
                            format_required=run.config.answer_format_required)
    try:
        result = ExploitSearch(context, suite, budget=run.config.search_episodes).run()
    except ContractViolation as violation:  # the search's episodes are generated sequences, like the fuzzer's:
        # the rule broken is the contract's, and the fuzz property that holds it on generated play
        for name in dict.fromkeys((violation.check, _FUZZ_NAMES.get(violation.check, violation.check))):
            run.result.fail(name, f"{violation} (on an episode of the exploit search)")
        return
    except EnvCodeError as error:
        run.result.fail("fuzz_no_exceptions", f"{error.phase}() raised {error.exc_type} on an episode of the exploit "
                        f"search: {preview(error.exc_message, 200)}. Handle every input in step().", line=error.line,
                        detail=error.traceback)
        return
    except (EnvTimeoutError, EnvMemoryError, EnvCrashError) as error:
        run.result.fail("timeout" if isinstance(error, EnvTimeoutError) else "runtime_limit",
                        f"While checking the exploit search's episodes: {error}.")
        run.result.fail("fuzz_no_hang", f"An episode of the exploit search stopped the environment: {error}.")
        raise Stop from None
    for check in ("trivially_solvable", "answer_variants", "answer_leak", "out_of_range_moves", "late_win"):
        run.result.ran.setdefault(check, 0.0)
        policy = result.found.get(check)
        if policy is not None:
            finding = policy_message(policy, cases)
            run.result.fail(finding.check, finding.message, seed=finding.seed, actions=finding.actions)
        elif check in result.warnings:
            finding = policy_message(result.warnings[check], cases)
            run.result.warn(finding.check, finding.message + " (A warning: an honest environment can lose this "
                            "way too; it does not reject.)", seed=finding.seed, actions=finding.actions)


_FUZZ_NAMES = {"step_returns": "fuzz_return_types", "reward_range": "fuzz_reward_range"}


def _known_answers(run: CheckRun, cases: list[SeedCase], suite: ProbeSuite, space: AnswerSpace) -> None:
    """Replies of known correctness (``known_answers``): wrong ones paid, right ones refused, and the figures."""
    result = known_answer_probes(cases, suite, space, run.turn_limit, bad_reply_policies(cases, space))
    run.result.ran.setdefault("good_answer_refused", 0.0)
    if result is None:
        return
    run.result.known_answers = result.figures
    if result.paid is not None:
        _, mean, seed, actions = result.paid
        if mean >= PAID_ERROR_RETURN:
            run.result.fail("wrong_answer_paid", paid_message(result.paid, run.turn_limit), seed=seed, actions=actions)
        else:
            run.result.warn("wrong_answer_paid", paid_message(result.paid, run.turn_limit) + " (A warning: below "
                            f"{PAID_ERROR_RETURN:g} per episode it does not reject.)", seed=seed, actions=actions)
    if result.refused is not None:
        run.result.warn("good_answer_refused", refused_message(result.refused), seed=result.refused[2],
                        actions=result.refused[3])


def _moves_spelled_out(run: CheckRun, cases: list[SeedCase]) -> None:
    if run.result.failed("answer_leak"):
        return
    # The winning move sequence written out in what the agent first sees. An observation that lists the
    # moves ("moves: left right up down") contains some solutions by coincidence: the chance rate is how
    # often a seed's solution appears in another seed's observation.
    games = [case for case in cases if len(case.solution) >= 3 and not case.answer_like()
             and len(_squeezed_moves(case)) >= 6]
    if not games:
        return
    shown = [case for case in games if _squeezed_moves(case) in squeeze(case.observation)]
    elsewhere = sum(_squeezed_moves(case) in squeeze(other.observation)
                    for case, other in zip(games, games[1:] + games[:1]))
    if run.config.chance.beats_chance(len(shown), len(games), elsewhere / len(games)):
        case = shown[0]
        run.result.fail(
            "answer_leak",
            f"The first observation spells out the winning move sequence on {len(shown)} of {len(cases)} seeds "
            f"(e.g. seed {case.seed}: {preview(repr(list(case.solution)), 80)}); an agent wins by copying it. Do "
            "not show the solution path.", seed=case.seed, actions=case.solution)


def _squeezed_moves(case: SeedCase) -> str:
    return squeeze("".join(action_content(a) for a in case.solution))


def _answer_oracle_tool(run: CheckRun, cases: list[SeedCase]) -> None:
    """A tool or command that answers "higher", "lower", "correct" for a candidate lets an agent enumerate.

    It matters when answering itself is final (a wrong answer ends the episode): then a free verdict
    turns reasoning into a search. For each tool (tool use) or each ``\\boxed{<command> N}`` the task
    describes (text), the probe calls it with the answer and with three wrong values; a seed *reveals*
    when the reply to the answer differs from every wrong one in a verdict word.
    """
    screen = [case for case in informative_cases(cases[: run.config.probe_screen])]
    if len(screen) < 4 or not _answers_are_final(run, screen):
        return
    for name, make in _candidate_probes(screen[0])[:12]:
        plans, roles = [], []
        for case in screen:
            for role, value in [("answer", case.answer)] + [("wrong", _shifted(case.answer, d)) for d in (1, 7, 31)]:
                plans.append(EpisodePlan(case.seed, (make(value),)))
                roles.append((case.seed, role, value))
        traces = run.play(plans, record="full")
        replies: dict[int, dict[str, list[set[str]]]] = defaultdict(lambda: defaultdict(list))
        for (seed, role, value), trace in zip(roles, traces):
            if not trace.steps or trace.steps[0].done:
                continue
            text = trace.steps[0].observation.lower().replace(value.lower(), " ")
            replies[seed][role].append(set(re.findall(r"[a-z]+", text)))
        revealing = []
        for seed, by_role in replies.items():
            if not by_role["answer"] or len(by_role["wrong"]) < 2:
                continue
            right = by_role["answer"][0]
            if all((right ^ wrong) & VERDICT_WORDS for wrong in by_role["wrong"]):
                revealing.append(seed)
        if len(revealing) >= max(4, int(0.8 * len(screen))):
            run.result.fail(
                "answer_oracle_tool",
                f"{name} tells whether a candidate answer is right: its reply to the answer differs from its reply "
                f"to other values in a verdict ('correct', 'higher', 'lower', ...), on {len(revealing)} of "
                f"{len(screen)} seeds (e.g. seed {revealing[0]}), while a wrong answer ends the episode. An agent "
                "can search for the answer with it instead of solving the task; remove it or make it reveal "
                "nothing about the answer.", seed=revealing[0])
            return


def _answers_are_final(run: CheckRun, screen: list[SeedCase]) -> bool:
    """Whether a wrong answer ends the episode (a guessing game that lets the agent answer again is not
    helped by a verdict tool: answering is the verdict)."""
    traces = run.play([EpisodePlan(case.seed, case.prefix() + (case.wrap(_shifted(case.slot, 1)),))
                       for case in screen[:4]])
    return all(trace.ended for trace in traces)


_COMMAND = re.compile(r"\\boxed\{\s*([A-Za-z_]+)\s+(?:N|n|X|x|k|K|<[^<>{}]{1,20}>|\d+)\s*\}")


def _candidate_probes(case: SeedCase) -> list[tuple[str, Any]]:
    """(name, function from a candidate value to an action) for every tool argument and text command."""
    probes: list[tuple[str, Any]] = []
    if case.tool_use:
        for tool in case.tools[:12]:
            function = tool.get("function") if isinstance(tool, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                continue
            parameters = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
            properties = parameters.get("properties") if isinstance(parameters.get("properties"), dict) else {}
            if properties:
                tool_name, argument = function["name"], str(next(iter(properties)))
                probes.append((f"Tool {preview(tool_name, 40)!r}",
                               lambda value, n=tool_name, a=argument: format_tool_call(n, {a: _typed(value)})))
    else:
        answer_word = case.answer.split()[0].lower() if " " in case.answer else None
        for word in dict.fromkeys(m.group(1) for m in _COMMAND.finditer(case.observation)):
            if word.lower() != answer_word:
                probes.append((f"The command \\boxed{{{word} N}}", lambda value, w=word: f"\\boxed{{{w} {value}}}"))
    return probes


def _typed(value: str) -> Any:
    number = parse_number(value)
    return number.numerator if number is not None and number.denominator == 1 else value


def _shifted(answer: str, delta: int) -> str:
    value = parse_number(answer)
    if value is not None and value.denominator == 1 and abs(value.numerator) < 10**15:
        return str(value.numerator + delta)
    return f"{answer}{delta}"


# ---------------------------------------------------------------------- what the agent can know
def _observable_task(run: CheckRun, cases: list[SeedCase]) -> None:
    """Seeds that show the same thing must not need different answers, unless playing tells them apart."""
    groups: dict[str, list[SeedCase]] = defaultdict(list)
    for case in cases:
        groups[case.observation].append(case)
    pairs = []
    for group in groups.values():
        keys = {}
        for case in group:
            keys.setdefault(case.task_key, case)
        distinct = list(keys.values())
        pairs += [(distinct[i], distinct[i + 1]) for i in range(min(len(distinct) - 1, 2))]
        if len(pairs) >= 4:
            break
    if not pairs:
        return
    for a, b in pairs[:4]:
        if not _loses_on(run, b.seed, a.solution):
            continue
        # Moves that are wrong on both seeds (other seeds' answers, constants) and the solutions' first
        # moves: if none of them gets a different reply on the two seeds, the agent cannot tell them apart.
        others = [c for c in cases if c.key not in (a.key, b.key)][:3]
        wrong = [a.wrap(c.slot) for c in others if a.answer_like()]
        left, right = parse_number(a.slot), parse_number(b.slot)
        if a.answer_like() and left is not None and right is not None:  # between the two: higher on one, lower on the other
            for value in {(left + right) / 2, left + 1, left - 1, right + 1, right - 1}:
                text = str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
                wrong.append(a.wrap(text))
        wrong += ["\\boxed{0}", "\\boxed{1}"] if not run.tool_use else [format_answer("0")]
        scripts = [a.solution, b.solution] + [(w,) * min(3, run.turn_limit) for w in wrong]
        scripts += [a.solution[:1] + (w,) for w in wrong[:2]]
        # each move either solution makes, alone: in a guessing game a solution can be one lucky move on one
        # seed, and the other seed's moves (a middle guess) are where the feedback tells them apart
        scripts += [(move,) for move in list(dict.fromkeys(a.solution + b.solution))[:6]]
        scripts += [(move,) for move in _text_moves(a, b)]
        plans = [EpisodePlan(seed, script) for script in scripts for seed in (a.seed, b.seed)]
        traces = run.play(plans, record="full")
        if all(_same_replies(traces[i].steps, traces[i + 1].steps) for i in range(0, len(traces), 2)):
            run.result.fail(
                "observable_task",
                f"Seeds {a.seed} and {b.seed} look the same to the agent (the same first observation, and the same "
                f"replies to every move tried) but need different answers ({preview(repr(a.answer), 30)} vs "
                f"{preview(repr(b.answer), 30)}): it can only guess. Show what the answer depends on, or give the "
                "feedback the rules promise after each move.", seed=b.seed, actions=a.solution)
            return


def _text_moves(a: SeedCase, b: SeedCase) -> list[str]:
    """Moves the task text offers beside the solutions' (``explore.grammar``): its commands (a scan that the
    solutions, which know the answer, never need) and its examples; a one-letter example (\\boxed{E} in a
    word game) stands for letters, tried as the letters of the two answers."""
    from spade_envs.checks.explore.grammar import read_grammar

    grammar = read_grammar([a.solution, b.solution], [a.observation])
    moves = [grammar.wrap(command) for command in grammar.commands]
    for template in grammar.templates:
        if template.uses:
            continue
        moves.append(grammar.wrap(template.example))
        if re.fullmatch(r"[A-Za-z]", template.example):
            letters = dict.fromkeys(ch for ch in (a.slot + b.slot) if ch.isalpha())
            same_case = str.upper if template.example.isupper() else str.lower
            moves += [grammar.wrap(same_case(letter)) for letter in list(letters)[:8]]
    return list(dict.fromkeys(moves))[:12]


def _same_replies(first: Any, second: Any) -> bool:
    """Whether two episodes of the same script told the agent the same things.

    Only replies to moves that won on neither seed count: that a guess won on one seed and not on the
    other tells the agent no more than "it was not that one", the information of a blind enumeration.
    """
    for a, b in zip(first, second):
        if is_win([a.reward], a.terminated) or is_win([b.reward], b.terminated):
            return True
        if a.observation != b.observation or a.done != b.done:
            return False
        if a.done:
            return True
    return True


def _loses_on(run: CheckRun, seed: int, actions: tuple[str, ...]) -> bool:
    trace = run.play([EpisodePlan(seed, actions)])[0]
    return not trace.won


_FORMS = (
    ("a fraction", re.compile(r"\b(?:as|in the form(?: of)?|written as|give)\s+(?:an?\s+)?(?:irreducible\s+|reduced\s+|"
                              r"simplified\s+|simplest\s+|common\s+)?fraction|\bform\s+a/b\b|\bp/q\b", re.IGNORECASE)),
    ("comma-separated", re.compile(r"comma[- ]separated|separated by commas", re.IGNORECASE)),
    ("lower case", re.compile(r"\bin (?:all )?lower[- ]?case\b|\blowercase\b", re.IGNORECASE)),
    ("upper case", re.compile(r"\bin (?:all )?upper[- ]?case\b|\buppercase\b", re.IGNORECASE)),
    ("YYYY-MM-DD", re.compile(r"YYYY-MM-DD", re.IGNORECASE)),
    ("DD/MM/YYYY", re.compile(r"DD/MM/YYYY", re.IGNORECASE)),
    ("MM/DD/YYYY", re.compile(r"MM/DD/YYYY", re.IGNORECASE)),
)
_DATES = {
    "YYYY-MM-DD": re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"),
    "DD/MM/YYYY": re.compile(r"(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})"),
}


def _requested_form(form: str, answer: str) -> str | None:
    """The answer rewritten in the form the task asks for, when the solution itself is not in that form."""
    if form == "a fraction":
        value = parse_number(answer)
        if value is not None and value.denominator != 1 and "/" not in answer and "frac" not in answer:
            return f"{value.numerator}/{value.denominator}"
        return None
    if form == "comma-separated":
        parts = answer.split()
        return ", ".join(parts) if len(parts) >= 2 and "," not in answer else None
    if form == "lower case":
        return answer.lower() if answer.lower() != answer else None
    if form == "upper case":
        return answer.upper() if answer.upper() != answer else None
    if form in ("YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY"):
        for written, pattern in _DATES.items():
            match = pattern.fullmatch(answer.strip())
            if match and written != form:
                y, m, d = match.group("y"), int(match.group("m")), int(match.group("d"))
                if form == "YYYY-MM-DD":
                    return f"{y}-{m:02d}-{d:02d}"
                return f"{d:02d}/{m:02d}/{y}" if form == "DD/MM/YYYY" else f"{m:02d}/{d:02d}/{y}"
    return None


def _answer_format(run: CheckRun, cases: list[SeedCase]) -> None:
    """The task says how to write the answer; its own solution writes it otherwise: the asked form must win."""
    for form, pattern in _FORMS:
        plans = []
        for case in cases[: run.config.probe_screen]:
            if not case.answer_like() or not pattern.search(case.observation):
                continue
            rewritten = _requested_form(form, case.answer)
            if rewritten is not None:
                plans.append(EpisodePlan(case.seed, case.prefix() + (case.wrap(rewritten),)))
        if len(plans) < 3:
            continue
        traces = run.play(plans)
        lost = [trace for trace in traces if not trace.won]
        if len(lost) >= max(3, len(traces) // 2):
            trace = lost[0]
            run.result.fail(
                "answer_format",
                f"The task asks for the answer as {form}, but on seed {trace.plan.seed} "
                f"{show_action(trace.plan.actions[-1], 60)} (the right answer written that way) does not win, on "
                f"{len(lost)} of {len(traces)} seeds. Accept every form the task asks for (and make solution() use it).",
                seed=trace.plan.seed, actions=trace.plan.actions)
            return


# ---------------------------------------------------------------------- hints
def hint_verdict(backend: Any, source: str, class_name: str | None, config: Any) -> str | None:
    """Run only what the hint check needs (oracle, replay, hint checks) and return its finding's message."""
    from spade_envs.checks.context import CheckRun, Stop

    run = CheckRun(backend, config, source, class_name)
    try:
        with run.check("loads"):
            run.oracle, run.player, run.twin = run.open(), run.open(), run.open()
        if run.result.failures:
            return None
        loaded = run.oracle.loaded
        run.result.class_name, run.result.tool_use = loaded.class_name, loaded.tool_use
        run.turn_limit = loaded.max_turns or config.max_turns or 10
        with run.check("feasible"):
            _collect_oracle(run)
            _feasible(run)
        cases = _cases(run)
        if not cases:
            return None
        suite = ProbeSuite(cases, play=lambda plans: run.play(plans), rule=config.chance,
                           screen=config.probe_screen, turn_limit=run.turn_limit)
        with run.check("hint_leak"):
            _hint_leak(run, cases, suite)
    except Stop:
        return None
    finally:
        run.close()
    finding = next((f for f in run.result.failures if f.check == "hint_leak"), None)
    return finding.message if finding else None


def _replays(run: CheckRun, cases: list[SeedCase]) -> dict[int, list[str]]:
    """What the agent sees along the winning path: the first observation, then one per solution move."""
    traces = run.play([EpisodePlan(case.seed, case.solution) for case in cases], record="full")
    return {case.seed: [case.observation] + [step.observation for step in trace.steps]
            for case, trace in zip(cases, traces)}


def _hint_leak(run: CheckRun, cases: list[SeedCase], suite: ProbeSuite) -> bool:
    """The configured hint and the environment's own ``hint()``: text first, then hint readers."""
    own = {seed: record.hint for seed, record in run.oracle_records.items() if record.hint}
    if not run.config.hint and not own:
        return False
    verified = [run.solutions[case.seed] for case in cases]
    names = _tool_names(run, cases[0].seed) if cases else []
    if run.config.hint:
        leak = find_hint_leak(run.config.hint, verified[:8] or list(run.solutions.values())[:8],
                              tool_use=run.tool_use, tool_names=names)
        if leak:
            run.result.fail("hint_leak", f"The given hint {preview(run.config.hint, 80)!r} {leak}; give the key "
                            "insight, never the answer.")
            return True
    hinted = [case for case in cases if own.get(case.seed)]
    replays = _replays(run, hinted[:8])
    for case in hinted:  # the winning path's states, moves or tool calls: no coincidence spells those out
        leak = find_hint_leak(own[case.seed], [run.solutions[case.seed]], tool_use=run.tool_use, tool_names=names,
                              replays=[replays[case.seed]] if case.seed in replays else None, only="path")
        if leak:
            run.result.fail("hint_leak", f"The hint() hint {preview(own[case.seed], 80)!r} {leak} for seed "
                            f"{case.seed}; give the key insight, never the answer.", seed=case.seed)
            return True
    leaks = [(case, leak) for case in hinted
             if (leak := find_hint_leak(own[case.seed], [run.solutions[case.seed]], tool_use=run.tool_use,
                                        tool_names=names, only="answer", shown=case.observation))]
    if leaks:
        # The honest chance: how often these hints "contain" another seed's answer. A hint that names numbers
        # or words holds some seed's answer now and then by coincidence; one that gives its own away does so
        # far more often than it holds the others'.
        crossed = sum(find_hint_leak(own[a.seed], [run.solutions[b.seed]], tool_use=run.tool_use,
                                     tool_names=names, only="answer", shown=a.observation) is not None
                      for a, b in zip(hinted, hinted[1:] + hinted[:1]) if a.seed != b.seed)
        chance = crossed / len(hinted)
        # A hint that is one text on every seed and holds a seed's answer is that seed's task worked out,
        # not a coincidence of a text written per seed: it leaks wherever it holds the answer.
        constant = len({own[case.seed] for case in hinted}) == 1
        if constant or run.config.chance.beats_chance(len(leaks), len(hinted), chance):
            case, leak = leaks[0]
            if constant:
                odds = "the same text on every seed"
            elif crossed == 0:
                odds = f"on {len(leaks)} of {len(hinted)} seeds, and never another seed's answer"
            else:
                odds = (f"on {len(leaks)} of {len(hinted)} seeds, where another seed's answer appears in these "
                        f"hints on {crossed}: chance about {chance:.0%}")
            run.result.fail("hint_leak", f"The hint() hint {preview(own[case.seed], 80)!r} {leak} for seed "
                            f"{case.seed} ({odds}); give the key insight, never the answer.", seed=case.seed,
                            actions=case.solution)
            return True
    policies = []
    if run.config.hint:
        policies += hint_reader_policies(cases, {case.seed: run.config.hint for case in cases}, "given hint")
    if own:
        policies += hint_reader_policies(cases, own, "hint() text")
    found = suite.evaluate(policies)
    if found:
        worst = max(found, key=lambda p: p.wins / max(1, p.trials) - p.chance)
        seed, actions = worst.example or (None, ())
        run.result.fail(
            "hint_leak",
            f"The hint gives the answer away: a reader that {worst.description} won {worst.wins} of {worst.trials} "
            f"seeds (chance about {worst.chance:.0%}); e.g. seed {seed}, playing {preview(repr(list(actions[-2:])), 80)}. "
            "Give the key insight, never the answer in any form.", seed=seed, actions=actions)
    return True

