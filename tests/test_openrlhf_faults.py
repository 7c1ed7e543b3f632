"""What used to kill an OpenRLHF job from inside the agent executor, each reproduced on CPU.

OpenRLHF gathers a row's samples with ``asyncio.gather`` and its trainer ``ray.get``s them without a
try, so any exception out of ``execute`` ends the run. Each test here makes one thing fail for real (a
hostile designer reply, a failing or hanging shared-state actor, a sandbox that cannot be built, a bad
label, a slow design) and checks that every sample still comes back well-formed, with the cause
counted, and scored so that OpenRLHF's dynamic filtering does the right thing with its group.

The engine is scripted (every generation answers one fixed text, in vLLM's output shape) over the tiny
test tokenizer: these failures need no model, and the checker, sandbox and shared state are real.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from spade_envs.runtime.wasm.build import SandboxBuildError
from spade_train.backends.openrlhf.command import DYNAMIC_FILTERING_RANGE
from spade_train.backends.openrlhf.executor import (
    LOG_KEYS,
    NO_CONTRAST_SCORE,
    UNTRAINED_SCORE,
    SampleOutcome,
    SpadeAgentExecutor,
    TrainedSample,
    describe_fault,
    kept_score,
    score_group,
)
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.backends.openrlhf.local_engine import CompletionOutput, RequestOutput, TokenLogprob
from spade_train.backends.openrlhf.ray_actor import RayStateClient
from spade_train.backends.openrlhf.shared_state import LocalStateClient, SharedState
from tests.conftest import COUNTER_ENV
from tests.test_openrlhf_executor import (
    make_config,
    openrlhf_function,
    openrlhf_namespace,
    sampling_params,
    write_seed_pool,
)
from tests.tiny_model import build_tiny_model

transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

DEEP_CODE = {
    # About 8k tokens, inside a 16k designer budget: Python's parser raised RecursionError.
    "chained additions": "class DeepEnv:\n    LIMIT = 1" + " + 1" * 4000 + "\n",
    # Python's parser raised MemoryError.
    "unary minus": "class DeepEnv:\n    LIMIT = " + "-" * 20000 + "1\n",
}
COMMON = {"samples": 2, "actor": "test-state", "namespace": "spade"}
DESIGNER = RowLabel(role="designer", row=0, skill="Logical Deduction", kind="single_answer", **COMMON)
AGENT = RowLabel(role="agent", row=1, **COMMON)


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return transformers.AutoTokenizer.from_pretrained(build_tiny_model(tmp_path_factory.mktemp("tiny")))


class ScriptedEngine:
    """An ``llm_engine`` whose every generation is ``reply`` (after ``delay_s``), in vLLM's output shape."""

    def __init__(self, tokenizer: Any, reply: str, *, delay_s: float = 0.0) -> None:
        self.tokenizer, self.reply, self.delay_s = tokenizer, reply, delay_s

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any, multi_modal_data: Any = None
                       ) -> RequestOutput:
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        ids = list(self.tokenizer(self.reply, add_special_tokens=False)["input_ids"]) + [self.tokenizer.eos_token_id]
        completion = CompletionOutput(token_ids=ids, text=self.reply, finish_reason="stop",
                                      logprobs=[{token: TokenLogprob(-0.5)} for token in ids])
        return RequestOutput(prompt_token_ids=list(prompt_token_ids), outputs=[completion])


def make_state(tmp_path: Path, **openrlhf: Any) -> SharedState:
    seed = write_seed_pool(tmp_path / "seed", {"CounterEnv": COUNTER_ENV})
    return SharedState(make_config(tmp_path, seed, **openrlhf), tmp_path / "run", local_dir=tmp_path / "local")


def run_rows(executor: SpadeAgentExecutor, engine: Any, *labels: RowLabel | str) -> list[list[dict[str, Any]]]:
    """Each row as OpenRLHF's rollout actor runs it: ``samples`` concurrent executions, gathered."""

    async def rows() -> list[list[dict[str, Any]]]:
        results = []
        for label in labels:
            text = label if isinstance(label, str) else label.to_json()
            count = 2 if isinstance(label, str) else label.samples
            results.append(list(await asyncio.gather(*(
                executor.execute("prompt", text, sampling_params(), 6000, engine.tokenizer, engine)
                for _ in range(count)))))
        return results

    try:
        return asyncio.run(rows())
    finally:
        executor.close()


def check_well_formed(response: dict[str, Any]) -> None:
    """What ``SamplesGenerator._process_response_into_experience`` needs, whatever happened."""
    tokens, ranges = response["observation_tokens"], response["action_ranges"]
    assert tokens and all(type(t) is int for t in tokens) and len(response["rollout_log_probs"]) == len(tokens)
    assert all(0 <= start < end <= len(tokens) for start, end in ranges)
    assert set(response["extra_logs"]) == set(LOG_KEYS)
    assert all(type(v) is float for v in response["extra_logs"].values())
    assert type(response["reward"]) is float and type(response["scores"]) is float


def dropped(responses: list[dict[str, Any]]) -> bool:
    """OpenRLHF's rule (``_generate_vllm``): a group is kept when low < mean score < high."""
    low, high = DYNAMIC_FILTERING_RANGE
    mean = sum(r["scores"] for r in responses) / len(responses)
    return not low < mean < high


# ---------------------------------------------------------------------------------- hostile designer replies
@pytest.mark.parametrize("name", sorted(DEEP_CODE))
def test_a_designer_reply_nested_too_deep_to_parse_is_an_invalid_design_not_a_crash(name, tokenizer, tmp_path):
    state = make_state(tmp_path)
    engine = ScriptedEngine(tokenizer, f"```python\n{DEEP_CODE[name]}```")
    executor = SpadeAgentExecutor(connect=lambda label: LocalStateClient(state))
    (responses,) = run_rows(executor, engine, DESIGNER)
    for response in responses:
        check_well_formed(response)
        assert response["extra_logs"]["spade/fault"] == 0.0 and response["extra_logs"]["spade/design_valid"] == 0.0
        assert response["action_ranges"]  # the reply is the model's own doing: it is trained (rewarded 0)
    assert executor.faults == {}
    # Two equally invalid designs: no contrast, the group is dropped; it still counts as a finished row.
    assert dropped(responses) and [r["scores"] for r in responses] == [NO_CONTRAST_SCORE] * 2
    attempts = (tmp_path / "run" / "attempts.jsonl").read_text().splitlines()
    assert len(attempts) == 2 and all('"outcome": "invalid"' in line for line in attempts)


# ---------------------------------------------------------------------------------- the shared state failing
class FailingClient(LocalStateClient):
    """The real shared state, with one call failing as a dead or erroring actor's does."""

    def __init__(self, state: SharedState, method: str, error: Exception) -> None:
        super().__init__(state)
        self.method, self.error = method, error

    def __getattribute__(self, name: str) -> Any:
        if name == object.__getattribute__(self, "method"):
            async def fail(*args: Any, **kwargs: Any) -> Any:
                raise object.__getattribute__(self, "error")
            return fail
        return object.__getattribute__(self, name)


@pytest.mark.parametrize(("method", "label"), [("plan_row", DESIGNER), ("record_design", DESIGNER),
                                               ("lease", AGENT), ("report_episode", AGENT)])
def test_an_error_from_the_shared_state_fails_its_samples_only(method, label, tokenizer, tmp_path):
    state = make_state(tmp_path)
    error = RuntimeError(f"The actor died unexpectedly before finishing this task \x1b[31m{method}")
    executor = SpadeAgentExecutor(connect=lambda _: FailingClient(state, method, error))
    engine = ScriptedEngine(tokenizer, "```python\nclass BrokenEnv:\n    pass\n```")
    (responses,) = run_rows(executor, engine, label)
    for response in responses:
        check_well_formed(response)
        assert response["action_ranges"] == [] and response["scores"] == UNTRAINED_SCORE
        assert response["extra_logs"]["spade/fault"] == 1.0
    assert dropped(responses) and executor.faults == {"RuntimeError": 2}
    assert state.faults == 2 and state.groups_kept == 0  # the state was told of the dropped row


class HangingHandle:
    """A Ray actor handle whose ``method`` never answers (a stuck or unreachable actor); the other calls
    go to the real state."""

    def __init__(self, state: SharedState, method: str) -> None:
        self.state, self.method = state, method

    def __getattr__(self, name: str) -> Any:
        async def never() -> Any:
            await asyncio.Event().wait()

        async def answer(*args: Any, **kwargs: Any) -> Any:
            return getattr(self.state, name)(*args, **kwargs)

        def remote(*args: Any, **kwargs: Any) -> Any:
            # A call that changes the state comes as answer(request, method, ...); a read by its own name.
            called = args[1] if name == "answer" else name
            return never() if called == self.method else answer(*args, **kwargs)

        return SimpleNamespace(remote=remote)


def test_a_shared_state_call_that_never_answers_times_out(tokenizer, tmp_path):
    state = make_state(tmp_path, state_timeout_s=0.5)
    executor = SpadeAgentExecutor(connect=lambda _: RayStateClient(HangingHandle(state, "lease")))
    started = time.perf_counter()
    (responses,) = run_rows(executor, ScriptedEngine(tokenizer, "\\boxed{1}"), AGENT)
    assert time.perf_counter() - started < 30
    assert all(r["scores"] == UNTRAINED_SCORE for r in responses) and executor.faults == {"TimeoutError": 2}
    assert state.faults == 2  # finish_row still got through


# ---------------------------------------------------------------------------------- the sandbox and the label
class UnbuildableSandbox(SpadeAgentExecutor):
    """An executor on a node where the sandbox build fails the first time (a full disk, a missing tool)."""

    builds = 0

    def _backend(self, name: str) -> Any:
        type(self).builds += 1
        if type(self).builds == 1:
            from concurrent.futures import Future

            future: Future[Any] = Future()
            future.set_exception(SandboxBuildError("componentize-py failed to build the sandbox guest: disk full"))
            return future
        return super()._backend(name)


def test_a_sandbox_build_failure_fails_those_samples_and_the_next_row_builds_again(tokenizer, tmp_path):
    state = make_state(tmp_path)
    executor = UnbuildableSandbox(connect=lambda _: LocalStateClient(state))
    engine = ScriptedEngine(tokenizer, "\\boxed{1}")
    failed, played = run_rows(executor, engine, AGENT, RowLabel(role="agent", row=2, **COMMON))
    assert all(r["extra_logs"]["spade/fault"] == 1.0 and r["scores"] == UNTRAINED_SCORE for r in failed)
    assert executor.faults == {"SandboxBuildError": 2}
    assert all(r["extra_logs"]["spade/fault"] == 0.0 and r["action_ranges"] for r in played)


def test_an_unreadable_label_gives_dropped_placeholders(tokenizer, tmp_path):
    executor = SpadeAgentExecutor(connect=lambda _: pytest.fail("no state for a bad label"))
    (responses,) = run_rows(executor, ScriptedEngine(tokenizer, "x"), '{"spade": 2, "role": "nobody"')
    for response in responses:
        check_well_formed(response)
        assert response["scores"] == UNTRAINED_SCORE and response["extra_logs"]["spade/fault"] == 1.0
    assert executor.faults == {"LabelError": 2}


def test_fault_lines_are_bounded_and_terminal_safe():
    line = describe_fault(RecursionError("maximum depth \x1b[2J" + "x" * 5000 + "\nmore"))
    assert line.startswith("RecursionError: maximum depth \\x1b[2J") and len(line) < 340 and "\n" not in line


# ---------------------------------------------------------------------------------- budgets
def test_a_design_over_its_wall_clock_budget_is_masked_and_the_row_goes_on(tokenizer, tmp_path):
    state = make_state(tmp_path, design_budget_s=0.2)
    engine = ScriptedEngine(tokenizer, f"```python\n{COUNTER_ENV}```", delay_s=2.0)
    executor = SpadeAgentExecutor(connect=lambda _: LocalStateClient(state))
    started = time.perf_counter()
    (responses,) = run_rows(executor, engine, DESIGNER)
    assert time.perf_counter() - started < 10
    for response in responses:
        check_well_formed(response)
        assert response["action_ranges"] == [] and response["extra_logs"]["spade/design_timeout"] == 1.0
        assert response["extra_logs"]["spade/fault"] == 0.0
    assert dropped(responses) and executor.faults == {}


def test_rows_left_over_after_the_last_step_are_skipped_at_once(tokenizer, tmp_path):
    state = make_state(tmp_path)
    state.groups_kept = state.config.run.iterations * state.config.openrlhf.rollout_batch_size
    engine = ScriptedEngine(tokenizer, "unused", delay_s=30.0)
    executor = SpadeAgentExecutor(connect=lambda _: LocalStateClient(state))
    started = time.perf_counter()
    rows = run_rows(executor, engine, DESIGNER, AGENT)
    assert time.perf_counter() - started < 20
    assert all(r["extra_logs"]["spade/left_over"] == 1.0 and dropped(row) for row in rows for r in row)
    assert state.rows_started == 0


# ---------------------------------------------------------------------------------- scores and masks
def outcome(reward: float, **flags: Any) -> SampleOutcome:
    return SampleOutcome(TrainedSample(tokens=[1, 2], action_ranges=[(1, 2)], logprobs=[0.0, -0.1],
                                       reward=reward), **flags)


def test_group_scores_keep_every_group_whose_rewards_differ():
    scored, kept = score_group([outcome(-1.0), outcome(0.0)])  # clipping to [0, 1] dropped this group
    assert kept and not dropped([{"scores": s.score} for s in scored])
    assert 0 < scored[0].score < scored[1].score < 1
    for rewards in ([0.0, 0.0], [1.0, 1.0], [-1.0, -1.0], [0.3, 0.3, 0.3]):
        scored, kept = score_group([outcome(r) for r in rewards])
        assert not kept and dropped([{"scores": s.score} for s in scored])
    # Masked samples (environment errors) take the mean of the rest and have no say in the contrast.
    scored, kept = score_group([outcome(1.0), outcome(0.0), outcome(0.0, masked=True)])
    assert kept and scored[2].reward == pytest.approx(0.5) and scored[2].score == pytest.approx(kept_score(0.5))
    scored, kept = score_group([outcome(1.0), outcome(0.0, masked=True)])
    assert not kept and scored[1].reward == 1.0
    # One fault, or an untrained designer group: dropped whatever the rewards.
    for flags in ({"fault": "RuntimeError"}, {"trainable": False}):
        scored, kept = score_group([outcome(1.0), outcome(0.0, **flags)])
        assert not kept and all(s.score == UNTRAINED_SCORE for s in scored)


def test_openrlhf_trains_nothing_of_a_masked_sample(tokenizer):
    from spade_train.backends.openrlhf.executor import placeholder_sample

    namespace = openrlhf_namespace()
    process = openrlhf_function("trainer/ppo_utils/samples_generator.py",
                                "SamplesGenerator._process_response_into_experience", namespace)
    masked = placeholder_sample(tokenizer, "environment error", reward=0.5).response("p", "l")
    experience = process(None, masked, max_len=6000)
    assert int(experience.action_mask.sum()) == 0 and int(experience.response_length) == 0
    assert experience.sequences.shape[1] == len(masked["observation_tokens"])


def test_the_thinking_switch_reaches_every_prompt_the_executor_renders(tokenizer):
    """Qwen3's template reads ``enable_thinking``; openrlhf.enable_thinking = false must reach the first
    prompt and every continuation of a trained episode alike."""
    import copy

    from spade_train.backends.openrlhf.engine_policy import continuation_ids, render_prompt

    qwen_like = copy.deepcopy(tokenizer)
    qwen_like.chat_template = (
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n"
        "{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n{% endif %}{% endif %}")
    messages = [{"role": "user", "content": "play"}]
    off = qwen_like.decode(render_prompt(qwen_like, messages, None, {"enable_thinking": False}))
    default = qwen_like.decode(render_prompt(qwen_like, messages, None, {}))
    assert off.endswith("<think>\n\n</think>\n\n") and "<think>" not in default
    follow = qwen_like.decode(continuation_ids(qwen_like, "wrong", previous_reply_ids=[],
                                               options={"enable_thinking": False}))
    assert follow.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")


def dr_grpo(rewards: list[float]) -> list[float]:
    """OpenRLHF 0.11.2's dr_grpo on one group (experience_maker: rewards - rewards.mean(-1)), in torch."""
    import torch

    group = torch.tensor([rewards], dtype=torch.float32)
    return (group - group.mean(-1, keepdim=True)).reshape(-1).tolist()


@pytest.mark.parametrize("recipe", ["qwen3-4b-games", "qwen3-8b-tool-use"])
def test_the_release_s_advantages_come_through_openrlhfs_centering(recipe):
    """Issue 33: the release z-scores an agent's plays of one game with the population std and scales the
    designer's centred reward by 32 (games) or 50 (tool use); the recipes' group_norm gave the designer
    |advantage| about 0.8 against 10. With advantage = "release" the executor forms them and OpenRLHF's
    dr_grpo, which only subtracts the group mean, leaves them as formed, masked samples included."""
    from pathlib import Path

    from spade_train.advantages import Sample, group_advantages
    from spade_train.backends.openrlhf.executor import release_advantages
    from spade_train.config import load_run_config

    config = load_run_config(Path(__file__).resolve().parent.parent / "configs" / "recipes" / f"{recipe}.toml")
    assert config.openrlhf.advantage == "release"
    returns = [1.0, 0.0, -1.0, 0.5, 1.0, 0.0, 0.25]
    scored, kept = score_group([outcome(r) for r in returns] + [outcome(0.0, masked=True)],
                               release_advantages(config, "agent"))
    release = group_advantages([Sample("agent", "game", r) for r in returns], normalize_std=True).advantages
    assert kept and [s.reward for s in scored[:-1]] == list(release)  # bit-equal before OpenRLHF
    assert dr_grpo([s.reward for s in scored])[:-1] == pytest.approx(list(release), abs=1e-6)
    assert scored[-1].action_ranges == [(1, 2)]  # (a masked sample's placeholder has none in a real run)

    scale = 32.0 if "games" in recipe else 50.0
    rewards = [0.3, -0.1, 0.2, 0.0, -0.4, 0.1, 0.05, -0.15]  # a row's window rewards, centred already
    scored, kept = score_group([outcome(r) for r in rewards], release_advantages(config, "designer"))
    assert kept and [s.reward for s in scored] == pytest.approx([scale * r for r in rewards])
    assert dr_grpo([s.reward for s in scored]) == pytest.approx([scale * r for r in rewards], abs=1e-5)
    # Scores (dynamic filtering) still read the rewards, not the advantages.
    assert scored[0].score == pytest.approx(kept_score(0.3))
    toolkit = config.model_copy(update={"openrlhf": config.openrlhf.model_copy(update={"advantage": "group_norm"})})
    assert release_advantages(toolkit, "agent") is None


class FlakyEngine(ScriptedEngine):
    """A ScriptedEngine whose first ``failures`` generations raise (a hiccup of the engine)."""

    def __init__(self, tokenizer: Any, reply: str, failures: int) -> None:
        super().__init__(tokenizer, reply)
        self.failures = failures

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any, multi_modal_data: Any = None
                       ) -> RequestOutput:
        if self.failures > 0:
            self.failures -= 1
            raise RuntimeError("the engine hiccuped")
        return await super().generate(prompt_token_ids, sampling_params, multi_modal_data)


class RecordingClient(LocalStateClient):
    def __init__(self, state: SharedState, reports: list[dict[str, Any]]) -> None:
        super().__init__(state)
        self.reports = reports

    async def report_episode(self, env_id: str, episode_return: float, won: bool, env_error: bool, **kwargs: Any) -> None:
        self.reports.append({"return": episode_return, **kwargs})
        await super().report_episode(env_id, episode_return, won, env_error, **kwargs)


@pytest.mark.parametrize("failures", [1, 2])
def test_a_failed_agent_play_is_retried_once_and_dropped_from_the_window_as_the_release_does(tokenizer, tmp_path,
                                                                                          failures):
    """Issue 33: with failed_plays = "retry_then_drop" (reference mode) an agent row's play that the harness
    could not finish (here the engine failed) is played once more, and the retry is the trained sample; if
    that fails too, the play is reported as dropped, so no design's window counts it as a return of 0."""
    state = make_state(tmp_path)
    state.config = state.config.model_copy(update={"semantics": state.config.semantics.model_copy(
        update={"failed_plays": "retry_then_drop"})})
    reports: list[dict[str, Any]] = []
    executor = SpadeAgentExecutor(connect=lambda _: RecordingClient(state, reports))
    one_sample = RowLabel(role="agent", row=1, samples=1, actor="test-state", namespace="spade")
    (responses,) = run_rows(executor, FlakyEngine(tokenizer, "\\boxed{1}", failures), one_sample)
    assert len(reports) == 1 and reports[0]["dropped"] == (failures == 2)
    trained = any(end > start for start, end in responses[0]["action_ranges"])
    assert trained == (failures == 1)


@pytest.mark.parametrize("train_unfinished", [True, False])
def test_a_play_that_ran_out_of_turns_is_not_trained_under_the_release_s_compact_filter(tokenizer, tmp_path,
                                                                                      train_unfinished):
    """Issue 33: the release's tool-use scripts pass --spade-compact-filter: a play that did not terminate
    keeps its return (its group's advantages count it: not masked) but trains no token. Every reply here
    is wrong, so each play runs out of turns."""
    from spade_train.config import load_run_config

    recipes = Path(__file__).resolve().parent.parent / "configs" / "recipes"
    for name in ("qwen3-4b-tool-use", "qwen3-8b-tool-use", "qwen3-30b-a3b-tool-use"):
        assert not load_run_config(recipes / f"{name}.toml").grpo.train_unfinished
    assert load_run_config(recipes / "qwen3-4b-games.toml").grpo.train_unfinished
    state = make_state(tmp_path)
    state.config = state.config.model_copy(update={"grpo": state.config.grpo.model_copy(
        update={"train_unfinished": train_unfinished})})
    executor = SpadeAgentExecutor(connect=lambda _: LocalStateClient(state))
    (responses,) = run_rows(executor, ScriptedEngine(tokenizer, "\\boxed{1}"), AGENT)
    for response in responses:
        check_well_formed(response)
        assert response["reward"] == 0.0 and response["extra_logs"]["spade/episode_turns"] > 0
        trained = any(end > start for start, end in response["action_ranges"])
        assert trained == train_unfinished
        assert response["extra_logs"]["spade/unfinished_untrained"] == float(not train_unfinished)
        assert response["extra_logs"]["spade/masked"] == 0.0  # its return still counts in the group


def test_the_designer_thinks_where_the_release_s_8b_recipes_have_it_think(tokenizer):
    """Issue 33: the release's 8B scripts pass --spade-env-enable-thinking; the agent's thinking stays off
    in the recipes (25 turns of it overflow max_len). The designer's policy gets its own switch."""
    from pathlib import Path

    from spade_train.backends.openrlhf.engine_policy import EnginePolicy
    from spade_train.backends.openrlhf.executor import chat_options
    from spade_train.config import load_run_config

    recipes = Path(__file__).resolve().parent.parent / "configs" / "recipes"
    for name in ("qwen3-8b-games", "qwen3-8b-tool-use"):
        config = load_run_config(recipes / f"{name}.toml")
        assert chat_options(config, "designer") == {"enable_thinking": True}
        assert chat_options(config, "agent") == {"enable_thinking": False} == chat_options(config, "hinter")
    four_b = load_run_config(recipes / "qwen3-4b-games.toml")
    assert chat_options(four_b, "designer") == {} == chat_options(four_b, "agent")
    policy = EnginePolicy(ScriptedEngine(tokenizer, "x"), tokenizer, sampling_params(), max_length=100,
                          chat_options={"enable_thinking": False})
    assert policy.with_chat_options({"enable_thinking": False}) is policy
    thinking = policy.with_chat_options({"enable_thinking": True})
    assert thinking.chat_options == {"enable_thinking": True} and thinking.engine is policy.engine


def test_zero_variance_groups_are_kept_at_advantage_zero_as_the_release_keeps_them():
    """Issue 33: the release trains groups whose plays all scored alike (advantage 0); with
    grpo.drop_zero_variance = false (every paper recipe) such a group gets a score inside dynamic filtering's
    range and is trained, while groups that must not be trained are still dropped by it."""
    from pathlib import Path

    from spade_train.backends.openrlhf.executor import FLAT_KEPT_SCORE
    from spade_train.config import load_run_config

    recipe = load_run_config(Path(__file__).resolve().parent.parent / "configs" / "recipes" / "qwen3-4b-games.toml")
    assert not recipe.grpo.drop_zero_variance
    for rewards in ([0.0, 0.0], [1.0, 1.0, 1.0]):
        scored, kept = score_group([outcome(r) for r in rewards], keep_flat=True)
        assert kept and all(s.score == FLAT_KEPT_SCORE for s in scored) and not dropped(
            [{"scores": s.score} for s in scored])
        assert dr_grpo([s.reward for s in scored]) == [0.0] * len(rewards)  # trained at advantage 0
        assert not score_group([outcome(r) for r in rewards])[1]  # drop_zero_variance = true drops it
    for flags in ({"fault": "RuntimeError"}, {"trainable": False}):
        scored, kept = score_group([outcome(1.0), outcome(1.0, **flags)], keep_flat=True)
        assert not kept and all(s.score == UNTRAINED_SCORE for s in scored)
    assert not score_group([outcome(1.0), outcome(0.0, masked=True)], keep_flat=True)[1]  # one live sample
