"""Batched episodes and oracle records: what comes back from ``episodes`` and ``oracle`` requests.

A batch is the checker's way to play many scripted episodes in one round trip (see ``EnvHost._run``:
the environment is put through exactly the calls single requests would make). The reply is guest data
like any other: every field is re-checked here, and anything malformed is a ``ContractViolation`` or an
``EnvCrashError``, never an exception from inside the host's own code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from spade_envs.contract.episode import is_win
from spade_envs.runtime.errors import ContractViolation, EnvCrashError
from spade_envs.runtime.programs import FuzzExample, FuzzSetup, replay
from spade_envs.runtime.replies import ResetResult, StepResult, parse_reset, parse_step


@dataclass(frozen=True)
class EpisodePlan:
    """One scripted episode: ``reset(seed)``, then ``actions`` until the episode ends."""

    seed: int | None
    actions: tuple[str, ...]
    after_end: bool = False
    """Once the episode has ended, step once more with the last action played."""


@dataclass(frozen=True)
class StepOutcome:
    reward: float
    terminated: bool
    truncated: bool

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


@dataclass(frozen=True)
class EpisodeTrace:
    """A played plan: its first observation (when asked for) and each step's outcome or full reply."""

    plan: EpisodePlan
    first: ResetResult | None
    outcomes: tuple[StepOutcome, ...]
    steps: tuple[StepResult, ...] = field(default=())
    """Full step replies, only for ``record="full"``."""
    after_end: StepResult | None = None
    """The reply to the step after the end (``EpisodePlan.after_end``, ``record="full"``)."""

    @property
    def rewards(self) -> list[float]:
        return [o.reward for o in self.outcomes]

    @property
    def ended(self) -> bool:
        return bool(self.outcomes) and self.outcomes[-1].done

    @property
    def won(self) -> bool:
        return self.ended and is_win(self.rewards, self.outcomes[-1].terminated)

    @property
    def actions_played(self) -> tuple[str, ...]:
        return self.plan.actions[: len(self.outcomes)]


@dataclass(frozen=True)
class OracleRecord:
    """What the environment says about one seed when asked as the checker asks: first observation,
    solution, own hint, tools."""

    seed: int | None
    first: ResetResult
    solution: Any = None
    hint: str | None = None
    tools: list[dict[str, Any]] | None = None


def _outcome(value: Any) -> StepOutcome:
    if type(value) is not list or len(value) != 4:
        raise ContractViolation("step_returns", "step() must return (observation, reward, terminated, truncated, "
                                "info); one reply had another shape.")
    reward, terminated, truncated, types_ok = value
    if types_ok is not True or type(terminated) is not bool or type(truncated) is not bool:
        raise ContractViolation("step_returns", "step() returned wrong types (observation str, terminated and "
                                "truncated bool, info dict).")
    if type(reward) is bool or type(reward) not in (int, float):
        raise ContractViolation("step_returns", f"step() returned a {type(reward).__name__} reward; return a float.")
    if type(reward) is int and abs(reward) > 10**300:
        raise ContractViolation("reward_range", "step() returned an integer reward too large for a float; rewards "
                                "must be finite.")
    value = float(reward)
    if not math.isfinite(value):
        raise ContractViolation("reward_range", f"step() returned reward {value}; rewards must be finite.")
    return StepOutcome(value, terminated, truncated)


def parse_traces(value: Any, plans: list[EpisodePlan], record: str) -> list[EpisodeTrace]:
    """Check an ``episodes`` reply against the plans it answers."""
    if type(value) is not list or len(value) != len(plans):
        raise EnvCrashError("the backend sent a malformed reply to episodes()")
    traces: list[EpisodeTrace] = []
    for plan, item in zip(plans, value):
        if type(item) is not dict or type(item.get("steps")) is not list or len(item["steps"]) > len(plan.actions):
            raise EnvCrashError("the backend sent a malformed episode trace")
        first = parse_reset(item.get("first")) if record != "outcome" else None
        if record == "full":
            steps = tuple(parse_step(step) for step in item["steps"])
            outcomes = tuple(StepOutcome(s.reward, s.terminated, s.truncated) for s in steps)
        else:
            steps, outcomes = (), tuple(_outcome(step) for step in item["steps"])
        if any(o.done for o in outcomes[:-1]):
            raise EnvCrashError("the backend sent an episode trace that goes on after the episode ended")
        after_end = None
        expected = plan.after_end and record == "full" and bool(outcomes) and outcomes[-1].done
        if ("after_end" in item) != expected:
            raise EnvCrashError("the backend sent an episode trace with a wrong step after the end")
        if expected:
            after_end = parse_step(item["after_end"])
        traces.append(EpisodeTrace(plan, first, outcomes, steps, after_end))
    return traces


def parse_oracle(value: Any, seeds: list[int | None]) -> list[OracleRecord]:
    """Check an ``oracle`` reply: one record per seed, each with a valid first observation."""
    if type(value) is not list or len(value) != len(seeds):
        raise EnvCrashError("the backend sent a malformed reply to the oracle request")
    records = []
    for seed, item in zip(seeds, value):
        if type(item) is not dict:
            raise EnvCrashError("the backend sent a malformed oracle record")
        hint, tools = item.get("hint"), item.get("get_tools")
        records.append(OracleRecord(
            seed=seed, first=parse_reset(item.get("first")), solution=item.get("solution"),
            hint=hint if isinstance(hint, str) else None, tools=tools if isinstance(tools, list) else None))
    return records


@dataclass(frozen=True)
class FuzzTrace:
    """A fuzz example that an episode program played, as the host understands it.

    ``example`` is the host's own run of the program over the recorded replies: its header and its
    trace's actions are what the host computed, never what the sandbox said. ``faithful`` tells whether
    the sandbox's account agrees (the same actions, every reply used); an unfaithful trace says nothing
    and is played again step by step. Parsing stops at the first reply that breaks the contract
    (``violation``); ``steps`` holds the replies before it.
    """

    example: FuzzExample
    faithful: bool
    first: ResetResult | None
    steps: tuple[StepResult, ...]
    after_end: StepResult | None
    again: EpisodeTrace | None
    """For an audited example: the same actions played again after ``reset(seed)``."""
    rechecked: bool
    recheck_first: ResetResult | None
    solution: Any
    violation: ContractViolation | None

    @property
    def actions(self) -> list[str]:
        return list(self.example.trace.get("actions", []))


def parse_fuzz_traces(value: Any, setup: FuzzSetup, plans: list[tuple[int, bool]]) -> list[FuzzTrace]:
    """Check an ``episodes`` reply to fuzz plans ((generator seed, simplest) pairs) by replaying each."""
    if type(value) is not list or len(value) != len(plans):
        raise EnvCrashError("the backend sent a malformed reply to the fuzz examples")
    return [_fuzz_trace(item, FuzzExample(setup, seed, simplest=simplest)) for (seed, simplest), item
            in zip(plans, value)]


def _fuzz_trace(item: Any, example: FuzzExample) -> FuzzTrace:
    if type(item) is not dict or type(item.get("steps")) is not list or type(item.get("actions")) is not list:
        raise EnvCrashError("the backend sent a malformed fuzz trace")
    steps, actions = item["steps"], item["actions"]
    limit = example.setup.turn_limit + 1
    if len(steps) != len(actions) or len(steps) > limit or not all(type(a) is str for a in actions):
        raise EnvCrashError("the backend sent a malformed fuzz trace")
    rechecked = "solution" in item
    again = item.get("again") if "again" in item else None
    if again is not None and (type(again) is not list or len(again) > len(actions)):
        raise EnvCrashError("the backend sent a malformed fuzz trace")
    replies = [item.get("first"), *steps]
    if "after_end" in item:
        replies.append(item["after_end"])
    if again is not None:
        replies += [item.get("again_first"), *again]
    if rechecked:
        replies += [item.get("recheck_first"), item.get("solution")]
    made = replay(example, replies)
    faithful = made is not None and len(made) == len(replies) and example.trace.get("actions") == actions \
        and all((key in item) == (key in example.trace) for key in ("after_end", "again", "solution"))
    parsed: dict[str, Any] = {"first": None, "steps": [], "after_end": None, "recheck_first": None, "again": None}
    violation = None
    try:
        parsed["first"] = parse_reset(item.get("first"))
        for step in steps:
            parsed["steps"].append(parse_step(step))
        if "after_end" in item:
            parsed["after_end"] = parse_step(item["after_end"])
        if again is not None:
            steps_again = tuple(parse_step(step) for step in again)
            outcomes = tuple(StepOutcome(s.reward, s.terminated, s.truncated) for s in steps_again)
            parsed["again"] = EpisodeTrace(EpisodePlan(example.header.seed if example.header else None,
                                                       tuple(actions)), parse_reset(item.get("again_first")),
                                           outcomes, steps_again)
        if rechecked:
            parsed["recheck_first"] = parse_reset(item.get("recheck_first"))
    except ContractViolation as broken:
        violation = broken
    return FuzzTrace(example, faithful, parsed["first"], tuple(parsed["steps"]), parsed["after_end"],
                     parsed["again"], rechecked, parsed["recheck_first"], item.get("solution"), violation)
