"""Episode programs: whole fuzz examples played inside the sandbox, without a round trip per step.

A scripted episode fixes its actions in advance; a fuzz example cannot, because its actions are drawn
from what the environment shows. A *program* is such an example written as a generator of calls
(``("reset", seed)``, ``("step", action)``, ...): the dispatcher's one loop (``EnvHost._run``) makes
each call and appends the reply to a list the generator reads before it draws the next action. So the
environment meets a program exactly as it meets single requests: the same calls, from the same frames,
and nothing running in between that it could observe.

The same generator runs on the host over the replies the sandbox sent back (``replay``): the host
recomputes every action from the seed and the recorded observations and compares them with the
actions the sandbox reports. Only a trace that agrees is used; any other is played again, step by step.

This module runs inside the sandbox too, so it uses the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from spade_envs.contract.fuzz_actions import ActionMix, ExampleHeader, SeededChooser, draw_header

Call = tuple[str, Any]
MAX_PROGRAM_MOVES = 1_000


@dataclass
class FuzzSetup:
    """What every example of one fuzz run shares: where seeds come from, the turn limit, the moves."""

    pool: list[int]
    turn_limit: int
    audit_every: int
    seed_range: tuple[int, int] | None
    moves: dict[int, list[str]]
    tools: list[Any] | None = None
    mix: ActionMix = field(init=False)

    def __post_init__(self) -> None:
        self.mix = ActionMix(self.tools)

    def to_wire(self) -> dict[str, Any]:
        return {"pool": list(self.pool), "turn_limit": self.turn_limit, "audit_every": self.audit_every,
                "seed_range": list(self.seed_range) if self.seed_range else None,
                "moves": [[seed, list(moves)] for seed, moves in self.moves.items()], "tools": self.tools}

    @classmethod
    def from_wire(cls, value: Any) -> FuzzSetup:
        """The setup of a request (it comes from the host; a malformed one is a protocol error)."""
        if type(value) is not dict:
            raise ValueError("a fuzz program needs its setup")
        pool, turn_limit, audit_every = value.get("pool"), value.get("turn_limit"), value.get("audit_every")
        seed_range, moves, tools = value.get("seed_range"), value.get("moves"), value.get("tools")
        if type(pool) is not list or not all(type(s) is int for s in pool) or type(turn_limit) is not int \
                or type(audit_every) is not int or not 1 <= turn_limit <= 10_000 or audit_every < 1:
            raise ValueError("malformed fuzz setup")
        if seed_range is not None and not (type(seed_range) is list and len(seed_range) == 2
                                           and all(type(x) is int for x in seed_range)):
            raise ValueError("malformed fuzz seed range")
        if not pool and seed_range is None:
            raise ValueError("a fuzz setup needs seeds")
        table = {}
        for item in moves if type(moves) is list else []:
            if type(item) is list and len(item) == 2 and type(item[0]) is int and type(item[1]) is list:
                table[item[0]] = [m for m in item[1][:MAX_PROGRAM_MOVES] if type(m) is str]
        return cls(pool, turn_limit, audit_every, tuple(seed_range) if seed_range else None, table,
                   tools if type(tools) is list else None)


@dataclass
class FuzzExample:
    """One fuzz example (see ``fuzz/runner.py`` for the properties it is checked against).

    ``calls`` is the program: reset(seed), then one drawn action per turn until the episode ends, its
    drawn length is reached or the turn limit is, one more step with the last action once the episode
    ended; then, for an example drawn for an audit, reset(seed) and the same actions again, and for one
    drawn for a recheck, reset(seed) and solution(). ``trace`` is filled in as it runs.
    """

    setup: FuzzSetup
    example_seed: int
    simplest: bool = False
    header: ExampleHeader | None = None
    choices: list[int | str] = field(default_factory=list)
    """Every choice the example made, in order, once it has run (what Hypothesis replays)."""
    trace: dict[str, Any] = field(default_factory=dict)

    def chooser(self) -> SeededChooser:
        return SeededChooser(self.example_seed, mode="simplest" if self.simplest else None)

    def calls(self, results: list[tuple[str, Any]]) -> Iterator[Call]:
        setup = self.setup
        chooser = self.chooser()
        self.choices = chooser.choices
        header = self.header = draw_header(chooser, pool=setup.pool, turn_limit=setup.turn_limit,
                                           audit_every=setup.audit_every, seed_range=setup.seed_range)
        moves = setup.moves.get(header.seed, [])
        trace = self.trace
        trace.update(example=self.example_seed, seed=header.seed, actions=[], steps=[])
        yield "reset", header.seed
        trace["first"] = results[-1][1]
        observation = _observation(trace["first"])
        for turn in range(1, header.length + 1):
            action = setup.mix.draw(chooser, observation, moves)
            trace["actions"].append(action)
            yield "step", action
            reply = results[-1][1]
            trace["steps"].append(reply)
            observation = _observation(reply)
            if episode_ended(reply):
                yield "step_after_end", action
                trace["after_end"] = results[-1][1]
                break
            if turn >= setup.turn_limit:
                break  # still running at the turn limit: that is the finding, no need to go on
        if header.audit and trace["actions"]:  # the same actions again after a reset: reset isolation
            yield "reset", header.seed
            trace["again_first"], trace["again"] = results[-1][1], []
            for action in trace["actions"]:
                yield "step", action
                trace["again"].append(results[-1][1])
                if episode_ended(results[-1][1]):
                    break
        if header.recheck and trace["actions"]:
            yield "reset", header.seed
            trace["recheck_first"] = results[-1][1]
            yield "solution", None
            trace["solution"] = results[-1][1]


def _observation(reply: Any) -> str:
    """The observation of a reset or step reply as the program reads it ("" when it is malformed)."""
    if type(reply) is list and reply and type(reply[0]) is str:
        return reply[0]
    return ""


def episode_ended(reply: Any) -> bool:
    """Whether a step reply ends the episode, read exactly as ``EnvHost._run`` reads it."""
    return type(reply) is list and len(reply) == 5 and (reply[2] is True or reply[3] is True)


def replay(example: FuzzExample, replies: list[Any]) -> list[Call] | None:
    """Drive ``example`` over recorded replies (in call order); the calls it makes, or None if the replies
    run out before it is done (the trace was cut short or forged)."""
    results: list[tuple[str, Any]] = []
    made: list[Call] = []
    feed = iter(replies)
    for call in example.calls(results):
        made.append(call)
        try:
            results.append((call[0], next(feed)))
        except StopIteration:
            return None
    return made
