"""The self-play loop end to end with scripted policies: real checker, sandbox, hints, regret, memory."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path

import pytest

from spade_envs.checks.validate import ValidatorConfig
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.spec.models import env_id_for
from spade_train.corpus import Corpus
from spade_train.loop import LoopConfig, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.base import GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.rewards import DesignerRewardConfig
from spade_train.rollout import RolloutConfig
from tests.conftest import COUNTER_ENV

GOOD = f"Here is my environment:\n```python\n{COUNTER_ENV}```\n"
BROKEN = "```python\nimport os\nclass BrokenEnv:\n    pass\n```"


def agent_reply(request: GenerationRequest) -> str:
    """Wins when hinted (reads the number the observation shows), guesses 0 otherwise."""
    observation = request.messages[-1]["content"]
    number = re.findall(r"It is (\d+)", observation)
    return f"\\boxed{{{number[-1] if number and 'HINT' in observation else 0}}}"


def make_loop(tmp_path, designer_replies, *, repair_turns=0, envs=3):
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=2.0))
    memory = EnvironmentMemory(tmp_path / "memory.sqlite3")
    config = LoopConfig(
        envs_per_iteration=envs, max_turns=5, repair_turns=repair_turns, concurrent_designs=2,
        validation=ValidatorConfig(fuzz=FuzzConfig(examples=10)),
        rollout=RolloutConfig(episodes_per_condition=3),
        rewards=DesignerRewardConfig(variant="regret_based"),
    )
    loop = SelfPlayLoop(designer=ScriptedPolicy(designer_replies, name="designer"),
                        agent=ScriptedPolicy(agent_reply, name="agent"),
                        hinter=ScriptedPolicy(["Read the observation closely."], name="hinter"),
                        backend=backend, memory=memory, corpus=Corpus.demo(), config=config)
    return loop, memory


def test_iteration_validates_plays_scores_and_remembers(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD, BROKEN, "no code at all"])
    result = asyncio.run(loop.run_iteration(step=1))
    good, broken, empty = result.attempts
    assert good.valid and good.hint.accepted and good.regret == pytest.approx(1.0)
    assert good.evaluation.win_rate(True) == 1.0 and good.evaluation.win_rate(False) == 0.0
    assert broken.rejection == "invalid environment" and "imports" in {f.check for f in broken.report.failures}
    assert empty.rejection.startswith("unparseable")
    assert good.raw_reward > 0 and broken.raw_reward == 0.0 == empty.raw_reward
    assert empty.outcome.malformed and not broken.outcome.malformed  # no code at all vs. code that fails
    assert result.metrics["valid_rate"] == pytest.approx(1 / 3) and result.metrics["regret_mean"] == pytest.approx(1.0)
    assert "<REFERENCE_DOCUMENT>" in good.prompt[-1]["content"]
    stats = memory.latest_stats(good.spec.id)
    assert stats.regret == pytest.approx(1.0) and stats.unhinted_win_rate == 0.0
    memory.close()


def test_repair_turn_uses_checker_feedback(tmp_path):
    loop, memory = make_loop(tmp_path, [BROKEN, GOOD], repair_turns=1, envs=1)
    attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
    assert attempt.valid and attempt.repairs == 1
    assert attempt.generation.text == BROKEN  # the designer is trained on its first turn only
    repair_request = loop.designer.requests[1]
    assert "imports" in repair_request.messages[-1]["content"]
    memory.close()


def test_near_duplicates_are_rejected_in_later_iterations(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD], envs=1)
    assert asyncio.run(loop.run_iteration(step=1)).attempts[0].valid
    second = asyncio.run(loop.run_iteration(step=2)).attempts[0]
    assert second.rejection and second.rejection.startswith("near-duplicate")
    memory.close()


def test_designer_failures_are_recorded_not_raised(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD], envs=2)
    loop.designer = ScriptedPolicy([GOOD], fail_every=1, name="designer")
    result = asyncio.run(loop.run_iteration(step=1))
    assert all(a.rejection and "designer call failed" in a.rejection for a in result.attempts)
    assert result.metrics["valid_rate"] == 0.0
    memory.close()


def test_validation_in_worker_processes_gives_the_same_verdicts(tmp_path):
    from dataclasses import replace

    loop, memory = make_loop(tmp_path, [GOOD, BROKEN], envs=2)
    loop.close()
    loop = SelfPlayLoop(designer=loop.designer, agent=loop.agent, hinter=loop.hinter, backend=loop.backend,
                        memory=memory, corpus=loop.corpus, config=replace(loop.config, validation_workers=1))
    try:
        good, broken = asyncio.run(loop.run_iteration(step=1)).attempts
    finally:
        loop.close()
    assert good.valid and good.report.ok and not broken.valid
    assert "imports" in {f.check for f in broken.report.failures}
    memory.close()


def test_a_design_repeated_within_an_iteration_is_played_once(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD, GOOD, GOOD], envs=3)
    result = asyncio.run(loop.run_iteration(step=1))
    played = [a for a in result.attempts if a.evaluation is not None]
    repeats = [a for a in result.attempts if a.rejection and a.rejection.startswith("repeat")]
    assert len(played) == 1 and len(repeats) == 2
    assert played[0].raw_reward > 0 and all(a.raw_reward == 0.0 for a in repeats)
    assert all(a.outcome.repeat and not a.outcome.malformed for a in repeats)
    loop.config = replace(loop.config, rewards=DesignerRewardConfig(variant="regret_based", repeat_reward=-0.2))
    again = asyncio.run(loop.run_iteration(step=2)).attempts
    assert [a.raw_reward for a in again if a.repeat] == [-0.2, -0.2]
    loop.close()
    memory.close()


FUZZ_ONLY_DEFECT = (Path(__file__).parent / "zoo" / "fuzz_post_win_reward.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("beside_play", [True, False])
def test_fuzz_tier_beside_play_gives_the_same_verdict(tmp_path, beside_play):
    """An environment that only the fuzz tier catches is rejected either way; run beside play, its
    rollouts are dropped so nothing trains on an invalid environment."""
    loop, memory = make_loop(tmp_path, [f"```python\n{FUZZ_ONLY_DEFECT}```", GOOD], envs=2)
    loop.config = replace(loop.config, fuzz_beside_play=beside_play)
    defect, good = asyncio.run(loop.run_iteration(step=1)).attempts
    assert not defect.valid and defect.evaluation is None and defect.regret is None
    assert "fuzz_post_episode" in {f.check for f in defect.report.failures}
    assert {t.tier: t.status for t in defect.report.tiers}["fuzz"] == "failed"
    assert defect.outcome.valid is False and defect.raw_reward == 0.0
    assert good.valid and good.evaluation is not None
    assert {t.tier: t.status for t in good.report.tiers} == dict.fromkeys(
        ("static", "contract", "feasibility", "fuzz"), "passed")
    assert memory.latest_stats(env_id_for(defect.code)) is None
    loop.close()
    memory.close()
