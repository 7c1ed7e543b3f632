"""The self-play loop end to end with scripted policies: real checker, sandbox, hints, regret, memory."""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from pathlib import Path

import pytest

from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.spec.models import env_id_for
from spade_train.config import override_config
from spade_train.corpus import Corpus
from spade_train.loop import Outcome, SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.base import Generation, GenerationRequest, SamplingParams
from spade_train.policies.roles import Policies
from spade_train.policies.scripted import ScriptedPolicy
from tests.conftest import COUNTER_ENV, python_run_config

GOOD = f"Here is my environment:\n```python\n{COUNTER_ENV}```\n"
BROKEN = "```python\nimport os\nclass BrokenEnv:\n    pass\n```"


def agent_reply(request: GenerationRequest) -> str:
    """Wins when hinted (reads the number the observation shows), guesses 0 otherwise."""
    observation = request.messages[-1]["content"]
    number = [str(int(a) + int(b)) for a, b in re.findall(r"It is (\d+) plus (\d+)", observation)]
    return f"\\boxed{{{number[-1] if number and 'HINT' in observation else 0}}}"


def scripted_policies(designer_replies) -> Policies:
    return Policies(designer=ScriptedPolicy(designer_replies, name="designer"),
                    agent=ScriptedPolicy(agent_reply, name="agent"),
                    hinter=ScriptedPolicy(["Read the observation closely."], name="hinter"))


def make_loop(tmp_path, designer_replies, *, repair_turns=0, envs=3, policies=None, **loop):
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=2.0))
    memory = EnvironmentMemory(tmp_path / "memory.sqlite3")
    config = python_run_config(envs_per_iteration=envs, repair_turns=repair_turns, **loop)
    return SelfPlayLoop(config, policies or scripted_policies(designer_replies), backend=backend, memory=memory,
                        corpus=Corpus.demo()), memory


def test_iteration_validates_plays_scores_and_remembers(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD, BROKEN, "no code at all"])
    result = asyncio.run(loop.run_iteration(step=1))
    good, broken, empty = result.attempts
    assert good.valid and good.hint.accepted and good.regret == pytest.approx(1.0)
    assert good.evaluation.win_rate(True) == 1.0 and good.evaluation.win_rate(False) == 0.0
    assert good.outcome is Outcome.PLAYED and good.environment.spec.hint == "Read the observation closely."
    assert good.environment.spec.kind == "single_answer" and good.environment.spec.reward_range == (-1.0, 1.0)
    assert broken.outcome is Outcome.INVALID and "imports" in {f.check for f in broken.report.failures}
    assert "imports" in broken.detail
    assert empty.outcome is Outcome.MALFORMED and empty.detail.startswith("no environment in the reply")
    good_score, broken_score, empty_score = result.scores
    assert good_score.raw > 0 and broken_score.raw == 0.0 == empty_score.raw
    assert empty.env_outcome().malformed and not broken.env_outcome().malformed  # no code at all vs. failing code
    assert result.metrics["valid_rate"] == pytest.approx(1 / 3) and result.metrics["regret_mean"] == pytest.approx(1.0)
    metrics = result.metrics
    # The counts behind each rate, the intervals the curves draw as bands, why designs were rejected.
    assert metrics["valid_n"] == 3 and metrics["played"] == 1 and metrics["episodes_unhinted"] == 3
    assert 0.0 < metrics["valid_rate_low"] < 1 / 3 < metrics["valid_rate_high"] < 1.0  # Wilson, n = 3
    low, high = good.regret_ci
    assert metrics["regret_mean_low"] == pytest.approx(1.0 - (high - low) / 2)  # one design: its own interval
    assert metrics["designer_reward_raw_mean_low"] < metrics["designer_reward_raw_mean"] < metrics[
        "designer_reward_raw_mean_high"]
    assert metrics["rejected/imports"] == 1 and metrics["rejected/malformed"] == 1
    skills = {a.skill for a in result.attempts}
    assert sum(metrics[f"skill/{skill}/designs"] for skill in skills) == 3
    assert metrics[f"skill/{good.skill}/regret_mean"] == pytest.approx(1.0)
    assert "<REFERENCE_DOCUMENT>" in good.prompt[-1]["content"]
    stats = memory.latest_stats(good.environment.id)
    assert stats.regret == pytest.approx(1.0) and stats.unhinted_win_rate == 0.0
    assert memory.get(good.environment.id).spec.hint == "Read the observation closely."
    loop.close()
    memory.close()


def test_repair_turn_uses_checker_feedback(tmp_path):
    loop, memory = make_loop(tmp_path, [BROKEN, GOOD], repair_turns=1, envs=1)
    attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
    assert attempt.valid and attempt.repairs == 1
    assert attempt.generation.text == BROKEN  # the designer is trained on its first turn only
    repair_request = loop.policies.designer.requests[1]
    assert "imports" in repair_request.messages[-1]["content"]
    loop.close()
    memory.close()


def test_near_duplicates_are_rejected_in_later_iterations(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD], envs=1)
    assert asyncio.run(loop.run_iteration(step=1)).attempts[0].valid
    second = asyncio.run(loop.run_iteration(step=2)).attempts[0]
    assert second.outcome is Outcome.DUPLICATE and second.detail.startswith("a near-duplicate of env-")
    loop.close()
    memory.close()


def test_designer_failures_are_recorded_not_raised(tmp_path):
    policies = scripted_policies([GOOD])
    policies = Policies(designer=ScriptedPolicy([GOOD], fail_every=1, name="designer"), agent=policies.agent,
                        hinter=policies.hinter)
    loop, memory = make_loop(tmp_path, [GOOD], envs=2, policies=policies)
    result = asyncio.run(loop.run_iteration(step=1))
    assert all(a.outcome is Outcome.DESIGNER_FAILED and "designer call failed" in a.detail for a in result.attempts)
    assert result.metrics["valid_rate"] == 0.0 and result.metrics["designer_errors"] == 2.0
    # Means over nothing are null (a gap in the curves), not zero: nothing was played.
    assert result.metrics["regret_mean"] is None and result.metrics["win_rate_unhinted"] is None
    assert result.metrics["return_unhinted"] is None and result.metrics["regret_mean_low"] is None
    assert result.metrics["played"] == 0.0 and result.metrics["rejected/designer_failed"] == 2.0
    assert result.model_failure().startswith("all 2 designer calls failed; the first: the designer call failed")
    loop.close()
    memory.close()


def test_validation_in_worker_processes_gives_the_same_verdicts(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD, BROKEN], envs=2, validation_workers=1)
    try:
        good, broken = asyncio.run(loop.run_iteration(step=1)).attempts
    finally:
        loop.close()
    assert good.valid and good.report.ok and not broken.valid
    assert "imports" in {f.check for f in broken.report.failures}
    memory.close()


def test_a_design_of_another_kind_than_asked_for_is_a_finding(tmp_path):
    """COUNTER_ENV's solution() is one answer: asked for a multi-turn game, the designer sees why it is
    not one (in its repair turn) and the design is not played."""
    loop, memory = make_loop(tmp_path, [GOOD, GOOD], envs=1, repair_turns=1, kinds=["multi_turn_game"])
    attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
    assert attempt.outcome is Outcome.INVALID and attempt.environment is None and attempt.evaluation is None
    assert [f.check for f in attempt.report.failures] == ["kind"]
    assert "single-answer puzzle" in attempt.report.failures[0].message
    assert "solution() returns one answer" in loop.policies.designer.requests[1].messages[-1]["content"]
    loop.close()
    memory.close()


def test_a_design_repeated_within_an_iteration_is_played_once(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD, GOOD, GOOD], envs=3)
    result = asyncio.run(loop.run_iteration(step=1))
    played = [(a, s) for a, s in result.scored() if a.evaluation is not None]
    repeats = [(a, s) for a, s in result.scored() if a.outcome is Outcome.REPEAT]
    assert len(played) == 1 and len(repeats) == 2
    assert played[0][1].raw > 0 and all(s.raw == 0.0 for _, s in repeats)
    assert all(a.env_outcome().repeat and not a.env_outcome().malformed for a, _ in repeats)
    loop.config = override_config(loop.config, ["loop.repeat_reward=-0.2"])
    again = asyncio.run(loop.run_iteration(step=2))
    assert [s.raw for a, s in again.scored() if a.outcome is Outcome.REPEAT] == [-0.2, -0.2]
    loop.close()
    memory.close()


FUZZ_ONLY_DEFECT = (Path(__file__).parent / "zoo" / "fuzz_post_win_reward.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("beside_play", [True, False])
def test_fuzz_tier_beside_play_gives_the_same_verdict(tmp_path, beside_play):
    """An environment that only the fuzz tier catches is rejected either way; run beside play, its
    rollouts are dropped so nothing trains on an invalid environment."""
    loop, memory = make_loop(tmp_path, [f"```python\n{FUZZ_ONLY_DEFECT}```", GOOD], envs=2,
                             fuzz_beside_play=beside_play, kinds=["multi_turn_game", "single_answer"])
    result = asyncio.run(loop.run_iteration(step=1))
    defect, good = result.attempts
    assert not defect.valid and defect.evaluation is None and defect.regret is None
    assert "fuzz_post_episode" in {f.check for f in defect.report.failures}
    assert {t.tier: t.status for t in defect.report.tiers}["fuzz"] == "failed"
    assert defect.env_outcome().valid is False and result.scores[0].raw == 0.0
    assert good.valid and good.evaluation is not None
    assert {t.tier: t.status for t in good.report.tiers} == dict.fromkeys(
        ("static", "contract", "feasibility", "fuzz"), "passed")
    assert memory.latest_stats(env_id_for(defect.code)) is None
    loop.close()
    memory.close()


PARTIAL_CREDIT_ENV = COUNTER_ENV.replace("class CounterEnv", "class PartialEnv").replace(
    'return "wrong", 0.0, False, truncated, {}', 'return "wrong", 0.25, False, truncated, {}')
"""Every wrong guess pays 0.25: four of them add up to a full sum_clipped return without a win."""


def test_designer_reward_and_memory_count_the_same_wins_under_sum_clipped(tmp_path):
    """Under the sum_clipped return an episode can be worth 1 without being won. The designer's reward
    (its win-rate terms), the metrics and the memory must all count the episode's own win, not the
    return: here the agent never wins, so every one of them says win rate 0."""
    from spade_envs.runtime.threads import SessionThreads
    from spade_train.designer.prompts import DesignerPrompt
    from spade_train.loop import AttemptSummary, DesignAttempt, DesignerScore, DesignPlan, remember
    from spade_train.rewards import DesignerRewardConfig, designer_reward, solve_rate, win_rate
    from spade_train.rollout import RolloutConfig, evaluate_environment

    backend = create_backend("inprocess", ExecutionLimits(call_timeout_s=2.0))

    async def play():
        with SessionThreads(backend, workers=2) as sessions:
            return await evaluate_environment(ScriptedPolicy(["\\boxed{0}"], name="agent"), backend, sessions,
                                              PARTIAL_CREDIT_ENV, hint=None, config=RolloutConfig(
                                                  episodes_per_condition=4, sampling=SamplingParams(),
                                                  return_mode="sum_clipped", seed=0))

    evaluation = asyncio.run(play())
    assert evaluation.returns(False) == (1.0,) * 4 and not any(e.won for e in evaluation.unhinted)
    plan = DesignPlan(kind="single_answer", skill="Logical Deduction", step=1, seed=0,
                      prompt=DesignerPrompt(kind="single_answer", skill="Logical Deduction"))
    attempt = DesignAttempt(plan=plan, prompt=[], generation=Generation(text="x"),
                            outcome=Outcome.PLAYED, detail="played", evaluation=evaluation, regret=0.0,
                            environment=python_record(PARTIAL_CREDIT_ENV))
    outcome = attempt.env_outcome()
    assert win_rate(outcome.unhinted_returns) == 1.0  # what reading wins off the returns would say
    assert outcome.unhinted_win_rate() == evaluation.win_rate(False) == 0.0
    config = DesignerRewardConfig(variant="solve_rate")
    assert designer_reward(outcome, config) == solve_rate(0.0, config.plateau_low, config.plateau_high,
                                                          config.plateau_ramp)
    summary = AttemptSummary.of(attempt, DesignerScore(raw=0.0, reward=0.0, baseline=0.0))
    with EnvironmentMemory(tmp_path / "memory.sqlite3") as memory:
        remember(memory, [summary])
        assert memory.latest_stats(attempt.environment.id).unhinted_win_rate == 0.0


def python_record(code: str):
    from spade_envs.spec.models import EnvSpec
    from spade_train.environments import EnvironmentRecord

    return EnvironmentRecord(EnvSpec(id=env_id_for(code), class_name="PartialEnv", kind="single_answer",
                                     skill="Logical Deduction", max_turns=5), code)


def test_a_played_design_replaces_what_the_memory_held_for_its_code(tmp_path):
    """The same code may first be stored as rejected (a near-duplicate, a seed environment without a hint)
    and later be played: the played attempt's record (its hint, its kind) and verdict win, and a later
    rejection of the same code does not undo them."""
    from spade_train.loop import AttemptSummary, DesignerScore, remember

    record = python_record(COUNTER_ENV.replace("class CounterEnv", "class PartialEnv"))

    def summary(outcome: Outcome, hint: str | None) -> AttemptSummary:
        played = outcome is Outcome.PLAYED
        return AttemptSummary(step=1, kind="single_answer", skill="Logical Deduction", outcome=outcome, detail="",
                              environment=record.with_hint(hint), failures=(), repairs=0, hint=hint,
                              hint_accepted=played or None, regret=0.5 if played else None, regret_ci=None,
                              win_rate_hinted=1.0 if played else None, win_rate_unhinted=0.5 if played else None,
                              plays=4 if played else 0, unhinted_wins=(True, False) if played else (),
                              score=DesignerScore(raw=0.0, reward=0.0, baseline=0.0))

    with EnvironmentMemory(tmp_path / "memory.sqlite3") as memory:
        remember(memory, [summary(Outcome.DUPLICATE, None)])
        assert memory.get(record.id).valid is False and memory.get(record.id).spec.hint is None
        remember(memory, [summary(Outcome.PLAYED, "Add the numbers.")])
        stored = memory.get(record.id)
        assert stored.valid is True and stored.spec.hint == "Add the numbers." and memory.latest_stats(record.id)
        remember(memory, [summary(Outcome.DUPLICATE, None)])
        assert memory.get(record.id).valid is True and memory.get(record.id).spec.hint == "Add the numbers."


class TimedLanguage:
    """The Python design language, noting when each reply was read and whether on the event loop's thread."""

    name = "python"
    agent_system_prompt = None

    def __init__(self) -> None:
        from spade_train.designer.language import PythonDesignLanguage

        self.inner = PythonDesignLanguage()
        self.reads: list[tuple[float, float, bool]] = []

    def request(self, prompt, sampling):
        return self.inner.request(prompt, sampling)

    def read(self, response: str):
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        started = time.perf_counter()
        parsed = self.inner.read(response)
        self.reads.append((started, time.perf_counter(), on_loop))
        return parsed

    def hint_messages(self, code: str):
        return self.inner.hint_messages(code)


def test_a_long_reply_is_read_without_blocking_the_event_loop(tmp_path):
    """Issue 36: on OpenRLHF the designer's reply is read on the rollout engine's event loop, which streams
    every sample and fires the design budget. A reply of 90,000 fence lines inside an open string (about a
    second to read, all of it) is read in a worker thread: while it is read, a heartbeat on the loop never
    waits half the reading time (read on the loop, it would wait all of it; both are measured in the same
    run, so a busy machine stretches both)."""
    from dataclasses import replace

    slow = "```python\nclass HelpEnv:\n    HELP = '''\n" + "```\n" * 90_000
    loop, memory = make_loop(tmp_path, [slow, GOOD], envs=2)
    language = TimedLanguage()
    loop.context = replace(loop.context, language=language)
    beats: list[float] = []

    async def iteration_with_heartbeat():
        done = asyncio.Event()

        async def heartbeat():
            while not done.is_set():
                beats.append(time.perf_counter())
                await asyncio.sleep(0.002)

        beating = asyncio.create_task(heartbeat())
        try:
            return await loop.run_iteration(step=1)
        finally:
            done.set()
            await beating

    result = asyncio.run(iteration_with_heartbeat())
    assert [a.outcome for a in result.attempts][1] is Outcome.PLAYED
    assert language.reads and not any(on_loop for *_, on_loop in language.reads)
    start, end, _ = max(language.reads, key=lambda read: read[1] - read[0])  # the long reply's reading
    gaps = [later - earlier for earlier, later in itertools.pairwise(beats) if later > start and earlier < end]
    assert gaps and max(gaps) < (end - start) / 2, (max(gaps), end - start)
    loop.close()
    memory.close()
