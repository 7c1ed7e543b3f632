"""The run's own model as the judge of its designs (``loop.judge = "self"``): the release's environment
validator (``--spade-use-env-validator``, on in its tool-use scripts), issue 33.

The loop is driven by scripted policies; the agent's policy (the run's own model) answers the judge too, so
its replies say what the judge decides. With a stand-in release checkout the release's validator prompt is asked and
its boxed verdict read; without one, the gate's judge questions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from spade_envs.checks.judge import ScriptedJudge
from spade_train.config import load_run_config
from spade_train.corpus import Corpus
from spade_train.loop import Outcome
from spade_train.loop.iteration import SelfPlayLoop
from spade_train.loop.self_judge import JUDGE_ROLE, RELEASE_CHECK, judge_design, release_verdict
from spade_train.memory import EnvironmentMemory
from spade_train.policies.roles import Policies
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.release_prompts import ReleasePrompts
from tests.test_loop import GOOD, agent_reply, make_loop
from tests.test_release_prompts import stand_in

HINT = "Read the observation closely."
GATE_NO = json.dumps({"solvable_from_view": {"answer": "no", "reason": "the target is never shown"}})
GATE_YES = json.dumps({"solvable_from_view": {"answer": "yes", "reason": "it is shown"},
                       "checker_matches_text": {"answer": "yes", "reason": "same"}})


@pytest.mark.parametrize("reply, accepted", [
    ("Tracing it... \\boxed{yes}", True), ("\\boxed{ No }", False), ("\\boxed{no} then \\boxed{yes}", False),
    ("\\boxed{True}", True), ("\\boxed{maybe}", False), ("it looks fine", True), ("", True), (None, True),
])
def test_the_release_s_verdict_is_its_first_boxed_answer_and_accepts_when_there_is_none(reply, accepted):
    assert release_verdict(reply)[0] is accepted


def test_the_release_s_validator_prompt_for_the_design_s_kind(tmp_path):
    release = ReleasePrompts.load(stand_in(tmp_path))
    judge = ScriptedJudge(["\\boxed{no}"])
    findings = asyncio.run(judge_design(judge, "class A: pass", first_observation="o", solutions=["1"],
                                        tool_use=True, release=release))
    (system, user), = judge.asked
    assert system == {"role": "system", "content": "Audit tool-use games."}
    assert user["content"] == "TOOL AUDIT class A: pass {yes}"
    assert [f.check for f in findings] == [RELEASE_CHECK] and findings[0].severity == "error"
    asyncio.run(judge_design(judge, "class A: pass", first_observation="o", solutions=["1"], tool_use=False,
                             release=release))
    assert judge.asked[-1][1]["content"] == "GAME CHECK class A: pass"
    warned = asyncio.run(judge_design(judge, "x", first_observation="o", solutions=[], tool_use=False,
                                      release=release, severity="warning"))
    assert [f.severity for f in warned] == ["warning"]


def _loop_with_judge(tmp_path: Path, judge_replies: list[str], release: Path | None = None):
    def agent(request):  # the run's own model: it plays, and it judges
        return judge_replies.pop(0) if request.role == JUDGE_ROLE else agent_reply(request)

    policies = Policies(designer=ScriptedPolicy([GOOD], name="designer"), agent=ScriptedPolicy(agent, name="agent"),
                        hinter=ScriptedPolicy([HINT], name="hinter"))
    loop, memory = make_loop(tmp_path, [GOOD], envs=1, policies=policies, judge="self", judge_max_tokens=64)
    if release is None:
        return loop, memory
    config = loop.config.model_copy(update={"semantics": loop.config.semantics.model_copy(
        update={"release_dir": str(release)})})
    loop.close()
    memory.close()
    memory = EnvironmentMemory(tmp_path / "memory-release.sqlite3")
    return SelfPlayLoop(config, policies, backend=loop.backend, memory=memory, corpus=Corpus.demo()), memory


@pytest.mark.parametrize("release", [False, True])
@pytest.mark.parametrize("solvable", [False, True])
def test_a_design_the_run_s_model_judges_unsolvable_is_invalid_and_one_it_accepts_is_played(tmp_path, release,
                                                                                           solvable):
    root = stand_in(tmp_path / "release") if release else None
    verdict = ("\\boxed{yes}" if solvable else "\\boxed{no}") if release else (GATE_YES if solvable else GATE_NO)
    loop, memory = _loop_with_judge(tmp_path, [verdict], root)
    try:
        attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
        asked = [r for r in loop.policies.agent.requests if r.role == JUDGE_ROLE]
        assert len(asked) == 1 and "class" in asked[0].messages[-1]["content"]
        assert asked[0].sampling.max_tokens == 64 and asked[0].sampling.temperature == 0.3
        if solvable:
            assert attempt.outcome is Outcome.PLAYED and attempt.report.ok and attempt.hint.accepted
            return
        assert attempt.outcome is Outcome.INVALID and attempt.detail.startswith("the model judge rejected it")
        assert not attempt.report.ok and attempt.hint is None  # rejected before any hint was written
        checks = {f.check for f in attempt.report.failures}
        assert checks == ({RELEASE_CHECK} if release else {"judge_solvable_from_view"})
    finally:
        loop.close()
        memory.close()


def test_judge_warnings_reject_a_design_where_the_checker_s_warnings_do(tmp_path):
    """``judge_severity = "warning"`` findings count as ``loop.warnings`` says: "rejected" makes them reject."""
    def agent(request):
        return GATE_NO if request.role == JUDGE_ROLE else agent_reply(request)

    for warnings, outcome in (("reported", Outcome.PLAYED), ("rejected", Outcome.INVALID)):
        policies = Policies(designer=ScriptedPolicy([GOOD], name="designer"),
                            agent=ScriptedPolicy(agent, name="agent"), hinter=ScriptedPolicy([HINT], name="hinter"))
        loop, memory = make_loop(tmp_path / warnings, [GOOD], envs=1, policies=policies, judge="self",
                                 judge_severity="warning", warnings=warnings)
        try:
            attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
            assert attempt.outcome is outcome, attempt.detail
            if outcome is Outcome.PLAYED:
                assert [w.check for w in attempt.report.warnings] == ["judge_solvable_from_view"]
        finally:
            loop.close()
            memory.close()


def test_without_a_judge_the_run_s_model_is_not_asked(tmp_path):
    loop, memory = make_loop(tmp_path, [GOOD], envs=1)
    try:
        attempt = asyncio.run(loop.run_iteration(step=1)).attempts[0]
        assert attempt.valid and all(r.role != JUDGE_ROLE for r in loop.policies.agent.requests)
    finally:
        loop.close()
        memory.close()


def test_the_tool_use_recipes_ask_the_run_s_model_as_the_release_s_tool_use_scripts_do():
    recipes = Path(__file__).resolve().parent.parent / "configs" / "recipes"
    for name in ("qwen3-4b-tool-use", "qwen3-8b-tool-use", "qwen3-30b-a3b-tool-use"):
        config = load_run_config(recipes / f"{name}.toml")
        assert config.loop.judge == "self" and config.loop.validator().judge is None  # asked by the design step
    assert load_run_config(recipes / "qwen3-4b-games.toml").loop.judge is None
