"""Fault injection: whatever an environment or a model does, an iteration finishes and records it.

Each faulty environment passes validation (the checker plays small seeds) and misbehaves only on the
large random seeds rollouts use: it raises, hangs, or allocates without bound. The designer also
writes garbage, and the agent's endpoint fails or times out. The loop must finish every iteration,
give the right rewards (a timeout costs the designer, as in the reference) and keep the records.
"""

from __future__ import annotations

import asyncio

import pytest

from spade_envs.checks.dynamic import CheckConfig
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.loop import Outcome, SelfPlayLoop
from spade_train.loop.checker import Checker
from spade_train.memory import EnvironmentMemory
from spade_train.policies.roles import Policies
from spade_train.policies.scripted import ScriptedPolicy
from tests.conftest import COUNTER_ENV, python_run_config
from tests.test_loop import agent_reply

CHECKED_SEEDS = sorted(CheckConfig().seed_plan())
ROLLOUT_ONLY = f"seed is not None and seed >= 10**6 and seed not in {set(CHECKED_SEEDS)!r}"
"""Rollouts and the checker both draw seeds from [0, 2**31), so a fault that only rollouts meet must avoid
the checker's own seeds (which it can only know from the checker's configuration, as this test does)."""


def faulty(name: str, method: str, fault: str) -> str:
    """COUNTER_ENV renamed, with ``fault`` injected at the top of ``method`` for rollout seeds only."""
    code = COUNTER_ENV.replace("class CounterEnv", f"class {name}Env")
    if method == "reset":
        anchor = "        self.rng = random.Random(seed)\n"
        return code.replace(anchor, f"        if {ROLLOUT_ONLY}:\n            {fault}\n" + anchor)
    code = code.replace("        self.rng = random.Random(seed)\n",
                        f"        self.rng = random.Random(seed)\n        self.rollout = {ROLLOUT_ONLY}\n")
    anchor = "        if self.done:\n            return \"over\""
    return code.replace(anchor, f"        if self.rollout:\n            {fault}\n" + anchor, 1)


CRASHES = faulty("Crash", "reset", "raise RuntimeError('boom')")
HANGS = faulty("Hang", "step", "while True:\n                pass")
EXHAUSTS_MEMORY = faulty("Hog", "step", "self.hog = [bytearray(1 << 20) for _ in range(10**6)]")


def fenced(code: str) -> str:
    return f"```python\n{code}```"


def run_faulty_iteration(tmp_path, designer_replies, agent=None, envs=None, known_plan=True):
    """One iteration; ``known_plan``: with a checker on the fixed plan the faults are written to avoid
    (the loop's own draws its seeds per environment, where they cannot hide)."""
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=1.0, memory_mb=128))
    memory = EnvironmentMemory(tmp_path / "memory.sqlite3")
    config = python_run_config(envs_per_iteration=envs or len(designer_replies), max_turns=3,
                               episodes_per_condition=2, fuzz_examples=0, duplicate_threshold=None,
                               use_corpus=False)
    policies = Policies(designer=ScriptedPolicy(designer_replies, name="designer"),
                        agent=agent or ScriptedPolicy(agent_reply, name="agent"),
                        hinter=ScriptedPolicy(["Read the observation closely."], name="hinter"))
    checker = Checker(backend, config.loop.validator(), workers=config.loop.validation_workers,
                      reuse_verdicts=config.loop.reuse_verdicts) if known_plan else None
    loop = SelfPlayLoop(config, policies, backend=backend, memory=memory, checker=checker)
    try:
        return asyncio.run(loop.run_iteration(step=1)), memory
    finally:
        loop.close()


def test_faulty_environments_are_played_recorded_and_scored(tmp_path):
    replies = [fenced(CRASHES), fenced(HANGS), fenced(EXHAUSTS_MEMORY), "no code, just words",
               fenced(COUNTER_ENV)]
    result, memory = run_faulty_iteration(tmp_path, replies)
    crash, hang, hog, garbage, good = result.attempts
    for attempt in (crash, hang, hog):
        assert attempt.valid, attempt.detail  # the faults hide from the checker's seeds
        episodes = attempt.evaluation.hinted + attempt.evaluation.unhinted
        assert episodes and all(e.error and e.error.startswith("environment:") for e in episodes)
        assert all(e.episode_return == 0.0 for e in episodes)
    raw = {attempt.environment.spec.class_name if attempt.environment else "garbage": score.raw
           for attempt, score in result.scored()}
    assert hang.env_outcome().timed_out and raw["HangEnv"] == pytest.approx(-0.5)  # the reference's timeout penalty
    assert "memory" in hog.evaluation.unhinted[0].error.lower() or hog.evaluation.unhinted[0].timed_out
    assert garbage.outcome is Outcome.MALFORMED and raw["garbage"] == 0.0
    assert good.valid and good.regret == pytest.approx(1.0)
    assert result.metrics["episode_errors"] == 12.0 and result.metrics["timeouts"] >= 1.0
    for attempt in (crash, hang, hog, good):  # every played environment is in the memory with its regret
        assert memory.latest_stats(attempt.environment.id) is not None
    memory.close()


def test_agent_endpoint_errors_and_timeouts_end_episodes_not_the_run(tmp_path):
    agent = ScriptedPolicy(agent_reply, name="agent", fail_every=3, hang_every=4, timeout_s=0.05)
    result, memory = run_faulty_iteration(tmp_path, [fenced(COUNTER_ENV)], agent=agent)
    attempt = result.attempts[0]
    episodes = attempt.evaluation.hinted + attempt.evaluation.unhinted
    errors = [e.error for e in episodes if e.error]
    assert errors and all(error.startswith("policy:") for error in errors)
    assert any("injected failure" in error for error in errors)
    assert len(episodes) == 4 and attempt.regret is not None
    memory.close()


def test_reference_mode_resamples_an_invalid_design_for_the_same_skill(tmp_path):
    """The release re-samples an invalid design (a fresh call for the same skill) up to 5 times and never
    trains the failed attempts; the toolkit's mode scores each attempt and moves on."""
    from spade_train.config import parse_run_config

    def run(mode: str) -> tuple[object, ...]:
        base = python_run_config(envs_per_iteration=1, max_turns=3, episodes_per_condition=2, fuzz_examples=0,
                                 duplicate_threshold=None, use_corpus=False)
        config = parse_run_config({**base.model_dump(mode="json"), "semantics": {"mode": mode}})
        memory = EnvironmentMemory(tmp_path / f"{mode}.sqlite3")
        invalid = ("class BadEnv:\n    def reset(self, seed=None):\n        return 'no info dict'\n\n"
                   "    def step(self, action):\n        return 'x', 0.0, True, False, {}\n\n"
                   "    def solution(self):\n        return 1\n")
        replies = ["no code, just words", fenced(invalid), fenced(COUNTER_ENV)]
        policies = Policies(designer=ScriptedPolicy(replies, name="designer"),
                            agent=ScriptedPolicy(agent_reply, name="agent"),
                            hinter=ScriptedPolicy(["Read the observation closely."], name="hinter"))
        loop = SelfPlayLoop(config, policies, backend=create_backend("inprocess", ExecutionLimits(call_timeout_s=2.0)),
                            memory=memory)
        try:
            result = asyncio.run(loop.run_iteration(step=1))
        finally:
            loop.close()
            memory.close()
        return result.attempts, result.scores

    attempts, scores = run("reference")
    assert [a.outcome for a in attempts] == [Outcome.MALFORMED, Outcome.INVALID, Outcome.PLAYED]
    assert len({a.skill for a in attempts}) == 1 and len({a.plan.seed for a in attempts}) == 3
    assert [s.reward is None for s in scores] == [True, True, False]  # failed attempts are never trained
    attempts, scores = run("toolkit")
    assert [a.outcome for a in attempts] == [Outcome.MALFORMED] and scores[0].reward == 0.0


def test_faults_written_for_a_known_plan_do_not_hide_from_the_loops_own_checker(tmp_path):
    """The loop's checker draws each environment's seeds from its code and the run's seed: an environment
    written to misbehave off the fixed plan's seeds is caught there (issue 47, item 5)."""
    result, _ = run_faulty_iteration(tmp_path, [fenced(CRASHES), fenced(HANGS)], known_plan=False)
    assert [attempt.valid for attempt in result.attempts] == [False, False]
    assert [attempt.detail for attempt in result.attempts] == [
        "the checker rejected it: feasible, validation_aware", "the checker rejected it: timeout"]
