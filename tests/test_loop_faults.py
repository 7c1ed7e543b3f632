"""Fault injection: whatever an environment or a model does, an iteration finishes and records it.

Each faulty environment passes validation (the checker plays small seeds) and misbehaves only on the
large random seeds rollouts use: it raises, hangs, or allocates without bound. The designer also
writes garbage, and the agent's endpoint fails or times out. The loop must finish every iteration,
give the right rewards (a timeout costs the designer, as in the reference) and keep the records.
"""

from __future__ import annotations

import asyncio

import pytest

from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.loop import LoopConfig, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.rewards import DesignerRewardConfig
from spade_train.rollout import RolloutConfig
from tests.conftest import COUNTER_ENV
from tests.test_loop import agent_reply

ROLLOUT_ONLY = "seed is not None and seed >= 10**6"
"""Validation uses small seeds; rollouts draw seeds from [0, 2**31)."""


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


def run_faulty_iteration(tmp_path, designer_replies, agent=None, envs=None):
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=1.0, memory_mb=128))
    memory = EnvironmentMemory(tmp_path / "memory.sqlite3")
    config = LoopConfig(
        envs_per_iteration=envs or len(designer_replies), max_turns=3, concurrent_designs=2,
        validation=ValidatorConfig(tiers=("static", "contract", "feasibility")),
        rollout=RolloutConfig(episodes_per_condition=2), rewards=DesignerRewardConfig(variant="regret_based"),
        duplicate_threshold=None,
    )
    loop = SelfPlayLoop(designer=ScriptedPolicy(designer_replies, name="designer"),
                        agent=agent or ScriptedPolicy(agent_reply, name="agent"),
                        hinter=ScriptedPolicy(["Read the observation closely."], name="hinter"),
                        backend=backend, memory=memory, corpus=None, config=config)
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
        assert attempt.valid, attempt.rejection  # the faults hide from the checker's seeds
        episodes = attempt.evaluation.hinted + attempt.evaluation.unhinted
        assert episodes and all(e.error and e.error.startswith("environment:") for e in episodes)
        assert all(e.episode_return == 0.0 for e in episodes)
    assert hang.outcome.timed_out and hang.raw_reward == pytest.approx(-0.5)  # the reference's timeout penalty
    assert "memory" in hog.evaluation.unhinted[0].error.lower() or hog.evaluation.unhinted[0].timed_out
    assert garbage.rejection.startswith("unparseable") and garbage.raw_reward == 0.0
    assert good.valid and good.regret == pytest.approx(1.0)
    assert result.metrics["episode_errors"] == 12.0 and result.metrics["timeouts"] >= 1.0
    for attempt in (crash, hang, hog, good):  # every played environment is in the memory with its regret
        assert memory.latest_stats(attempt.spec.id) is not None
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
