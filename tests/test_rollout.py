"""Agent rollouts through real sessions: chat history, hints, returns, failures recorded not raised."""

from __future__ import annotations

import asyncio
import re

import pytest

from spade_envs.contract.episode import inject_hint
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.threads import SessionThreads
from spade_train.policies.base import Generation, GenerationRequest, SamplingParams
from spade_train.rollout import LockstepBatcher, RolloutConfig, evaluate_environment
from tests.conftest import COUNTER_ENV


class ReadsTheNumber:
    """Answers with the number shown in the latest observation; if told a hint, says so first."""

    name = "reads-the-number"

    def __init__(self, fail_every: int = 0) -> None:
        self.requests: list[GenerationRequest] = []
        self.fail_every = fail_every

    async def generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        if self.fail_every and len(self.requests) % self.fail_every == 0:
            return Generation(text="", error="HTTP 503")
        observation = request.messages[-1]["content"]
        number = [str(int(a) + int(b)) for a, b in re.findall(r"It is (\d+) plus (\d+)", observation)]
        guess = number[-1] if number and "HINT" in observation else "0"
        return Generation(text=f"My answer: \\boxed{{{guess}}}")


@pytest.fixture
def backend():
    return create_backend("inprocess", ExecutionLimits(call_timeout_s=1.0))


def _evaluate(policy, backend, source, hint, k=4):
    async def main():
        with SessionThreads(backend, workers=2) as threads:
            config = RolloutConfig(episodes_per_condition=k, sampling=SamplingParams(), return_mode="terminal_clipped",
                                   seed=3)
            return await evaluate_environment(policy, backend, threads, source, hint=hint, config=config)
    return asyncio.run(main())


def test_hinted_and_unhinted_episodes_on_the_same_seeds(backend):
    policy = ReadsTheNumber()
    evaluation = _evaluate(policy, backend, COUNTER_ENV, hint="look at the number")
    assert [e.seed for e in evaluation.hinted] == [e.seed for e in evaluation.unhinted]
    assert evaluation.win_rate(hinted=True) == 1.0 and evaluation.win_rate(hinted=False) == 0.0
    assert evaluation.returns(True) == (1.0,) * 4 and evaluation.returns(False) == (0.0,) * 4
    hinted = evaluation.hinted[0]
    assert hinted.messages[0]["role"] == "system" and hinted.messages[1]["content"].endswith(
        "\n\nHINT: look at the number")
    unhinted = evaluation.unhinted[0]
    assert "HINT" not in unhinted.messages[1]["content"] and unhinted.truncated and len(unhinted.turns) == 5
    assert all(r.role == "agent" for r in policy.requests)


def test_an_empty_hint_is_played_and_no_hint_is_not(backend):
    """The empty hint (``semantics.blank_hints = "played"``) gives hinted plays; None gives none."""
    empty = _evaluate(ReadsTheNumber(), backend, COUNTER_ENV, hint="", k=2)
    assert len(empty.hinted) == 2 and all(e.hinted for e in empty.hinted)
    assert all(e.messages[1]["content"].endswith("\n\nHINT: ") for e in empty.hinted)  # the release's template
    assert _evaluate(ReadsTheNumber(), backend, COUNTER_ENV, hint=None, k=2).hinted == []


def test_episode_log_round_trip(backend):
    evaluation = _evaluate(ReadsTheNumber(), backend, COUNTER_ENV, hint="h", k=1)
    log = evaluation.hinted[0].to_log(env_id=None, hint="h")
    assert log.episode_return == 1.0 and log.actions[0].endswith("}") and len(log.observations) == 2


def test_policy_errors_and_environment_failures_are_recorded(backend):
    evaluation = _evaluate(ReadsTheNumber(fail_every=2), backend, COUNTER_ENV, hint="h")
    assert any(e.error and e.error.startswith("policy") for e in evaluation.hinted + evaluation.unhinted)
    # The in-process backend cannot interrupt a worker thread, so the hang runs in the sandbox.
    sandbox = create_backend("wasm", ExecutionLimits(call_timeout_s=0.5))
    hanging = COUNTER_ENV.replace("self.turn += 1", "self.turn += 1\n        while True:\n            pass")
    evaluation = _evaluate(ReadsTheNumber(), sandbox, hanging, hint=None, k=2)
    assert evaluation.timed_out and evaluation.hinted == []
    assert all(e.episode_return == 0.0 and e.error.startswith("environment") for e in evaluation.unhinted)


def test_inject_hint_format():
    assert inject_hint("obs", "think") == "obs\n\nHINT: think"
    assert inject_hint("obs", None) == "obs"


class ReadsInBatches(ReadsTheNumber):
    """``ReadsTheNumber`` as a batch policy that records every batch it is sent."""

    def __init__(self, fail_every: int = 0) -> None:
        super().__init__(fail_every)
        self.batches: list[list[bool]] = []

    async def generate_batch(self, requests):
        self.batches.append(["HINT" in r.messages[1]["content"] for r in requests])
        return [await self.generate(r) for r in requests]


def test_turns_of_concurrent_episodes_go_to_a_batch_policy_in_lock_step(backend):
    """Every round holds one turn of each episode still playing, in member order (hinted plays first):
    the hinted plays win at once, the unhinted ones play all five turns. The episodes are those a policy
    without batches gets, and a play that ends on a failed call leaves the later rounds."""
    batched, plain = ReadsInBatches(), ReadsTheNumber()
    evaluation = _evaluate(batched, backend, COUNTER_ENV, hint="look at the number")
    assert batched.batches == [[True] * 4 + [False] * 4] + [[False] * 4] * 4
    reference = _evaluate(plain, backend, COUNTER_ENV, hint="look at the number")
    assert [e.messages for e in evaluation.episodes()] == [e.messages for e in reference.episodes()]
    assert LockstepBatcher(plain, members=2).member(0) is plain  # a policy without batches is never held back
    failing = ReadsInBatches(fail_every=7)  # requests 7 and 14 fail: an unhinted play in rounds 1 and 3
    evaluation = _evaluate(failing, backend, COUNTER_ENV, hint="look at the number")
    assert [len(b) for b in failing.batches] == [8, 3, 3, 2, 2]
    assert sum(e.error is not None for e in evaluation.unhinted) == 2
