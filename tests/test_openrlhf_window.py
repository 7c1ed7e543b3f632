"""Window scoring on the OpenRLHF backend (``semantics.design_scoring = "window"``, reference mode).

A designer sample writes a design, which waits in the shared state while agent rows play it; once its
window of R steps has closed, a later designer sample returns its stored tokens with the window's score.
The shared-state tests drive ``SharedState`` directly; the executor test runs the real executor over the
tiny transformers model with the WebAssembly sandbox (as ``test_openrlhf_executor``), forcing the
designer's replies so that an invalid design is re-sampled.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import threading
from dataclasses import replace
from typing import Any

import pytest

from spade_envs.spec.models import EnvSpec, Provenance, env_id_for
from spade_train.backends.openrlhf.executor import UNTRAINED_SCORE, SpadeAgentExecutor
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.backends.openrlhf.pending import StoredSample
from spade_train.backends.openrlhf.shared_state import LocalStateClient, SharedState
from spade_train.config import RunConfig, parse_run_config
from spade_train.environments import EnvironmentRecord
from spade_train.loop import AttemptSummary, DesignerScore, Outcome
from spade_train.semantics import SEMANTICS
from spade_train.window import BlendWeights, WindowDesign, score_window
from tests.conftest import COUNTER_ENV

SKILL = "Logical Deduction"
HINT = "Read the number."


def window_config(**openrlhf: Any) -> RunConfig:
    return parse_run_config({
        "run": {"backend": "openrlhf", "iterations": 20},
        "model": {"path": "Qwen/Qwen3-4B-Instruct-2507"},
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": 2, "episodes_per_condition": 2, "skills": [SKILL], "use_corpus": False,
                 "agent_train_conditions": ["unhinted"]},
        "sampling": {"designer_temperature": 0.6, "temperature": 0.6},
        "openrlhf": {"rollout_batch_size": 2, "n_samples_per_prompt": 2, "designer_delay_steps": 0,
                     "designer_every": 2, "nodes": 1, "gpus_per_node": 1, "vllm_engines": 1, **openrlhf},
        "semantics": {"mode": "reference"},
    })


def variant(name: str) -> str:
    """COUNTER_ENV under another class name: other code, so another environment id."""
    return COUNTER_ENV.replace("CounterEnv", name)


def accepted(code: str, name: str, step: int) -> AttemptSummary:
    """What the executor sends for a valid design under window scoring: checked and hinted, not played."""
    spec = EnvSpec(id=env_id_for(code), class_name=name, kind="single_answer", skill=SKILL, max_turns=5,
                   hint=HINT, provenance=Provenance(author="test", step=step))
    return AttemptSummary(step=step, kind="single_answer", skill=SKILL, outcome=Outcome.ACCEPTED, detail="",
                          environment=EnvironmentRecord(spec, code), failures=(), repairs=0, hint=HINT,
                          hint_accepted=True, regret=None, regret_ci=None, win_rate_hinted=None,
                          win_rate_unhinted=None, plays=0, unhinted_wins=(),
                          score=DesignerScore(raw=0.0, reward=None, baseline=None))


def stored(seed: int) -> StoredSample:
    tokens = tuple(range(seed, seed + 12))
    return StoredSample(tokens=tokens, action_ranges=((5, 12),), logprobs=tuple([0.0] * 5 + [-0.5] * 7))


def close_step(state: SharedState) -> None:
    for _ in range(state.config.openrlhf.rollout_batch_size):
        state.finish_row(999, kept=True)


def play_window(state: SharedState, returns: dict[int, list[float]]) -> dict[str, dict[int, list[float]]]:
    """Agent rows play the open designs for two steps (offsets 0 and 1), one return per lease from ``returns``
    by offset; every hint play they are handed wins. Returns what was reported: env id -> offset -> returns."""
    reported: dict[str, dict[int, list[float]]] = {}
    row = itertools.count(100)
    for offset in (0, 1):
        for value in returns[offset]:
            lease = state.lease(next(row), samples=1, hinted=False)
            state.report_episode(lease.environment.id, value, value == 1.0, False, step=lease.step)
            reported.setdefault(lease.environment.id, {}).setdefault(offset, []).append(value)
            if lease.hint_play is not None:
                state.report_hint_play(lease.hint_play.environment.id, 1.0)
        close_step(state)
    return reported


def test_reference_mode_scores_designs_over_their_window_and_the_toolkit_by_their_attempt():
    assert SEMANTICS["reference"].design_scoring == "window" and SEMANTICS["toolkit"].design_scoring == "attempt"
    assert window_config().semantics.resolved().design_scoring == "window"


def test_a_ripe_design_comes_back_with_its_stored_tokens_and_its_window_score(tmp_path):
    state = SharedState(window_config(), tmp_path)
    a, b = variant("AlphaEnv"), variant("BetaEnv")
    assert state.record_window_design(0, 0, accepted(a, "AlphaEnv", state.step), stored(1))
    assert state.record_window_design(0, 1, accepted(b, "BetaEnv", state.step), stored(50))
    # Both joined the rotation at once, with their hints.
    assert state.environments[env_id_for(a)].environment.spec.hint == HINT
    # Nothing is ripe yet: every sample of the asking row hears so.
    assert state.ripe_sample(5, 0, 2) is None and state.ripe_sample(5, 1, 2) is None

    reported = play_window(state, {0: [1.0, 0.0, 1.0, 0.0], 1: [1.0, 1.0, 0.0, 1.0]})
    # Unhinted rows played only the open designs, evenly (the least leased first).
    assert set(reported) == {env_id_for(a), env_id_for(b)}
    assert all(len(plays[0]) == 2 and len(plays[1]) == 2 for plays in reported.values())
    # A hinted row's plays and a play outside the window do not count.
    state.report_episode(env_id_for(a), -1.0, False, False, step=state.step, hinted=True)
    state.report_episode(env_id_for(a), -1.0, False, False, step=state.step)  # offset 2 = R: closed
    hinted = {env_id: state._pending_designs[env_id].hinted_returns for env_id in reported}
    assert all(len(h) == 2 for h in hinted.values())  # K = 2 hint plays each, then no more

    expected = score_window([WindowDesign(skill=SKILL, plays=reported[env_id_for(code)], hinted_mean=1.0)
                             for code in (a, b)], "blend", weights=BlendWeights())
    first, second = state.ripe_sample(7, 0, 2), state.ripe_sample(7, 1, 2)
    assert first is not None and second is not None
    assert (first.sample, second.sample) == (stored(1), stored(50))
    assert (first.reward, second.reward) == expected.rewards and (first.raw, second.raw) == expected.raw
    assert first.plays == 4 and first.hinted_mean == 1.0
    # The ripe row is handed out once; the memory records each design's window.
    assert state.pending == {} and state.ripe_sample(8, 0, 2) is None
    stats = state.memory.latest_stats(env_id_for(a))
    assert stats is not None and stats.plays == 6 and stats.regret == pytest.approx(first.regret)


def test_a_design_with_the_empty_hint_is_given_hinted_plays_and_one_without_a_hint_is_not(tmp_path):
    """``semantics.blank_hints = "played"``: the empty hint is a hint, played as the release plays it."""
    state = SharedState(window_config(), tmp_path)
    blank, none = variant("BlankEnv"), variant("NoneEnv")
    for slot, (code, name, hint) in enumerate([(blank, "BlankEnv", ""), (none, "NoneEnv", None)]):
        summary = accepted(code, name, state.step)
        summary = replace(summary, environment=summary.environment.with_hint(hint), hint=hint)
        state.record_window_design(0, slot, summary, stored(slot))
    plays = [state.lease(100 + row, samples=1, hinted=False).hint_play for row in range(6)]
    assert {play.environment.id for play in plays if play is not None} == {env_id_for(blank)}
    assert sum(play is not None for play in plays) == 2  # episodes_per_condition hinted plays, then none


def test_a_claim_left_by_a_faulted_sample_is_released_when_its_row_finishes(tmp_path):
    state = SharedState(window_config(), tmp_path)
    a, b = variant("AlphaEnv"), variant("BetaEnv")
    state.record_window_design(0, 0, accepted(a, "AlphaEnv", state.step), stored(1))
    state.record_window_design(0, 1, accepted(b, "BetaEnv", state.step), stored(50))
    play_window(state, {0: [1.0, 0.0, 1.0, 0.0], 1: [1.0, 1.0, 0.0, 1.0]})
    # Row 7's first sample claims row 0; its second faults before it asks, and the row finishes dropped.
    assert state.ripe_sample(7, 0, 2) is not None and 0 in state.pending
    state.finish_row(7, kept=False, faults=1)
    # The claim is gone with its row: row 0 is retired instead of staying pending and claimed for good.
    assert state.pending == {} and state._claimed == {} and state.ripe_sample(8, 0, 2) is None


def test_resume_keeps_pending_designs_and_their_plays(tmp_path):
    state = SharedState(window_config(), tmp_path)
    a, b = variant("AlphaEnv"), variant("BetaEnv")
    state.record_window_design(0, 0, accepted(a, "AlphaEnv", 1), stored(1))
    state.record_window_design(0, 1, accepted(b, "BetaEnv", 1), stored(50))
    lease = state.lease(100, samples=1, hinted=False)
    state.report_episode(lease.environment.id, 1.0, True, False, step=lease.step)
    assert lease.hint_play is not None
    state.report_hint_play(lease.hint_play.environment.id, 1.0)
    state.checkpoint()
    saved = copy.deepcopy(state.pending[0].state())
    state.close()

    restored = SharedState(window_config(), tmp_path, restore="latest")
    assert restored.pending[0].state() == saved
    assert restored.pending[0].slots[0].sample == stored(1)  # type: ignore[union-attr]
    # The restored state goes on recording plays and scores the window as the first would have.
    reported = play_window(restored, {0: [0.0, 1.0], 1: [1.0, 0.0]})
    ripe = [restored.ripe_sample(9, i, 2) for i in range(2)]
    assert all(r is not None and r.sample is not None for r in ripe)
    plays = {env_id_for(a): {0: [], 1: []}, env_id_for(b): {0: [], 1: []}}
    plays[lease.environment.id][0].append(1.0)
    for env_id, by_offset in reported.items():
        for offset, values in by_offset.items():
            plays[env_id][offset].extend(values)
    # Scoring recorded each design's window in the memory.
    assert all(restored.memory.latest_stats(env_id) is not None for env_id in plays)
    expected = score_window([WindowDesign(skill=SKILL, plays={o: v for o, v in plays[env_id_for(code)].items() if v},
                                          hinted_mean=1.0) for code in (a, b)], "blend")
    assert tuple(r.reward for r in ripe) == expected.rewards  # type: ignore[union-attr]
    restored.close()


def test_a_format_3_checkpoint_still_loads(tmp_path):
    state = SharedState(window_config(), tmp_path)
    state.checkpoint()
    state.close()
    path = tmp_path / "state" / "latest" / "shared_state.json"
    data = json.loads(path.read_text())
    data["format"] = 3
    del data["pending"]
    path.write_text(json.dumps(data))
    assert SharedState(window_config(), tmp_path, restore="latest").pending == {}


def test_a_re_sampled_attempt_gets_a_fresh_plan_without_starting_a_row(tmp_path):
    state = SharedState(window_config(), tmp_path)
    plan = state.plan_row(0, 2, SKILL, "single_answer")
    fresh = state.replan_row(0, plan.step, SKILL, "single_answer", sample=1)
    assert fresh.step == plan.step and fresh.seed != plan.seed and fresh.sample == 1
    assert state.rows_started == 1


# ---------------------------------------------------------------------------------- the executor, end to end
class WindowReplies:
    """Designer: an invalid design, then valid ones, each under a new class name (distinct environments).
    Hint writer: a hint. Agent: right when hinted; unhinted, right on the second turn for odd targets."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.designs = 0
        self.agent_turns = 0

    def __call__(self, prompt: str) -> str | None:
        from spade_train.rollout import TEXT_AGENT_PROMPT
        from tests.test_openrlhf_executor import counter_agent_reply

        if "<ENVIRONMENT_SOURCE>" in prompt:
            return "Read the number the observation shows."
        if TEXT_AGENT_PROMPT in prompt:
            with self._lock:
                self.agent_turns += 1
            return counter_agent_reply(prompt)
        with self._lock:
            self.designs += 1
            if self.designs == 1:
                return "```python\nimport os\nclass BrokenEnv:\n    pass\n```"
            return f"Here it is:\n```python\n{variant(f'Counter{self.designs}Env')}```\n"


def test_the_executor_re_samples_invalid_designs_and_returns_ripe_ones_a_window_later(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from spade_train.backends.openrlhf.local_engine import TransformersEngine
    from tests.test_openrlhf_executor import (
        check_alignment,
        make_config,
        openrlhf_function,
        openrlhf_namespace,
        run_row,
        write_seed_pool,
    )
    from tests.tiny_model import build_tiny_model

    model_dir = build_tiny_model(tmp_path / "tiny", max_positions=8192)
    base = make_config(model_dir, write_seed_pool(tmp_path / "seed", {"CounterEnv": COUNTER_ENV}),
                       designer_every=1, rollout_batch_size=3)
    config = parse_run_config({**json.loads(base.model_dump_json()), "semantics": {"mode": "reference"}})
    state = SharedState(config, tmp_path / "run")
    client = LocalStateClient(state)
    replies = WindowReplies()
    engine = TransformersEngine(model_dir, respond=replies)
    executor = SpadeAgentExecutor(connect=lambda label: client)
    common = {"samples": 2, "actor": "test-state", "namespace": "spade"}

    def designer(row: int) -> RowLabel:
        return RowLabel(role="designer", row=row, skill=SKILL, kind="single_answer", **common)

    async def first_window() -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
        written = await run_row(executor, designer(0), engine)
        # The designer row wrote, checked and hinted its designs and played none of them: the plays are
        # the agent rows' work, spread over whichever engines serve those rows (issue 24's stalled rows).
        assert replies.agent_turns == 0
        agents = [await run_row(executor, RowLabel(role="agent", row=row, **common), engine) for row in (1, 2)]
        return written, agents

    try:
        written, agents = asyncio.run(first_window())
        # Nothing was ripe: the row's samples are untrained placeholders, dropped by filtering.
        assert all(r["action_ranges"] == [] and r["scores"] == UNTRAINED_SCORE for r in written)
        assert all(r["extra_logs"]["spade/design_valid"] == 1.0 for r in written)
        # The invalid first design was re-sampled for its slot: three attempts, two valid designs pending.
        attempts = [json.loads(line) for line in (tmp_path / "run" / "attempts.jsonl").read_text().splitlines()]
        assert replies.designs == 3 and [a["valid"] for a in attempts].count(True) == 2 and len(attempts) == 3
        pending = state.pending[0]
        assert all(slot is not None and slot.sample is not None for slot in pending.slots.values())
        # The agent rows played the two pending designs (one row each) and made the hint plays beside them.
        plays = {d.env_id: copy.deepcopy(d.plays) for d in pending.slots.values() if d is not None}
        assert sorted(len(p.get(0, [])) for p in plays.values()) == [2, 2]
        assert sorted(r for p in plays.values() for r in p[0]) == sorted(r["reward"] for row in agents for r in row)
        hinted = [d.hinted_returns for d in pending.slots.values() if d is not None]
        assert all(len(h) == 2 and h == [1.0, 1.0] for h in hinted)
        designs = [pending.slots[i] for i in range(2)]
        expected = score_window([d.window_design() for d in designs if d is not None], "blend")
        stored_tokens = [d.sample.tokens for d in designs if d is not None and d.sample is not None]

        # Three kept groups make a step, so the two agent rows played in step 1; now it closes, and with
        # R = 1 the window of row 0's designs.
        assert state.step == 1
        while state.step == 1:
            state.finish_row(99, kept=True)
        later = asyncio.run(run_row(executor, designer(3), engine))
    finally:
        executor.close()
    # Row 3 returns row 0's designs, sample for sample, with their stored tokens and window scores.
    by_tokens = {tuple(r["observation_tokens"]): r for r in later}
    assert set(by_tokens) == set(stored_tokens)
    for index, tokens in enumerate(stored_tokens):
        response = by_tokens[tokens]
        check_alignment(response)
        reward = expected.rewards[index]
        assert reward is not None  # the floored blend is never below 0: nothing is masked here
        assert response["reward"] == pytest.approx(reward)
    assert 0 not in state.pending and 3 in state.pending  # row 3's own designs now wait their turn

    # OpenRLHF's own experience code takes the returned samples as they are.
    process = openrlhf_function("trainer/ppo_utils/samples_generator.py",
                                "SamplesGenerator._process_response_into_experience", openrlhf_namespace())
    for response in later:
        experience = process(None, response, max_len=8192)
        assert experience.action_mask.shape == experience.rollout_log_probs.shape
        assert int(experience.action_mask.sum()) == sum(e - s for s, e in response["action_ranges"])
        assert torch.all(experience.rollout_log_probs[experience.action_mask.bool()] < 0)


@pytest.mark.parametrize("mode", ["reference", "toolkit"])
def test_the_memory_records_a_design_as_the_release_does_in_reference_mode(tmp_path, mode):
    """Issue 33: the release records a design's win rate from the plays of the step it was written in (the
    share with a return above 0), and regret 0 where no hint could be played; the toolkit counts the won
    plays of the whole window. Before, both read the whole window and remembered 0 - mean for a failed hint."""
    config = window_config()
    config = config.model_copy(update={"semantics": config.semantics.model_copy(
        update={"mode": mode, "design_scoring": "window", "failed_plays": None})})
    state = SharedState(config, tmp_path)
    a, b = variant("AlphaEnv"), variant("BetaEnv")
    assert state.record_window_design(0, 0, accepted(a, "AlphaEnv", state.step), stored(1))
    no_hint = accepted(b, "BetaEnv", state.step)
    no_hint = replace(no_hint, hint=None, hint_accepted=False,
                      environment=EnvironmentRecord(no_hint.environment.spec.model_copy(update={"hint": None}),
                                                    no_hint.environment.code))
    assert state.record_window_design(0, 1, no_hint, stored(50))
    reported = play_window(state, {0: [1.0, 0.0, 0.5, 0.0], 1: [1.0, 1.0, 1.0, 1.0]})
    assert sum(reported[env_id_for(b)][0]) > 0  # so "0 - mean" would not be 0
    assert state.ripe_sample(7, 0, 2) is not None
    for code in (a, b):
        plays = reported[env_id_for(code)]
        stats = state.memory.latest_stats(env_id_for(code))
        assert stats is not None
        if mode == "reference":
            assert stats.unhinted_win_rate == sum(r > 0 for r in plays[0]) / len(plays[0])
        else:
            every = plays[0] + plays[1]
            assert stats.unhinted_win_rate == sum(r == 1.0 for r in every) / len(every)
    assert state.memory.latest_stats(env_id_for(b)).regret == 0.0  # no hint, no regret remembered


@pytest.mark.parametrize("mode", ["reference", "toolkit"])
def test_a_timeout_flags_a_design_from_the_plays_the_release_counts(tmp_path, mode):
    """Issue 33: the release flags a design whose hinted plays, or unhinted plays at the regeneration step,
    timed out (it clears its timeout set each step and stamps only that step's new games); a timeout at a
    later offset does not count there. The toolkit counts every play of the window."""
    config = window_config()
    config = config.model_copy(update={"semantics": config.semantics.model_copy(
        update={"mode": mode, "design_scoring": "window", "failed_plays": None})})
    state = SharedState(config, tmp_path)
    code = variant("AlphaEnv")
    assert state.record_window_design(0, 0, accepted(code, "AlphaEnv", state.step), stored(1))
    design = state._pending_designs[env_id_for(code)]
    state.report_episode(env_id_for(code), 0.0, False, False, step=design.step + 1, timed_out=True)
    assert design.timed_out == (mode == "toolkit")
    state.report_hint_play(env_id_for(code), 0.0, timed_out=True)
    assert design.timed_out
