"""The OpenRLHF agent executor on CPU, end to end, and OpenRLHF's own code on what it returns.

The rollout engine is ``TransformersEngine`` over the tiny transformers model (``tests/tiny_model.py``):
the same ``generate(prompt_token_ids, sampling_params)`` call and vLLM output shape as OpenRLHF's rollout
actor. A tiny random model cannot write Python, so the engine forces the designer's reply (a valid and an
invalid environment) and the agent's moves (right when hinted); forced tokens are scored by the model, so
log-probabilities stay the model's. Everything else is real: the self-play loop, the checker and episodes
in the WebAssembly sandbox, hints, regret, designer rewards and the shared state with its memory.

OpenRLHF's experience-building (``SamplesGenerator._process_response_into_experience``) and advantage
code (``RemoteExperienceMaker.compute_advantages_and_returns``) live in modules that import vLLM and
flash-attn at the top, which cannot load on a CPU machine. The tests therefore compile those functions
from the installed OpenRLHF's source files and run them verbatim on the executor's responses.
"""

from __future__ import annotations

import ast
import asyncio
import itertools
import json
import re
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from spade_envs.pool import write_pool
from spade_envs.spec.models import EnvSpec, env_id_for
from spade_train.backends.openrlhf.executor import (
    LOG_KEYS,
    NO_CONTRAST_SCORE,
    UNTRAINED_SCORE,
    SpadeAgentExecutor,
    kept_score,
)
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.backends.openrlhf.local_engine import EngineSamplingParams, TransformersEngine
from spade_train.backends.openrlhf.shared_state import LocalStateClient, SharedState
from spade_train.backends.openrlhf.stops import RunStopped
from spade_train.config import RunConfig, parse_run_config
from spade_train.rewards import DesignerRewardConfig, EnvOutcome, designer_reward
from spade_train.rollout import TEXT_AGENT_PROMPT
from tests.conftest import COUNTER_ENV, dedent
from tests.tiny_model import build_tiny_model

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

GOOD = f"Here is my environment:\n```python\n{COUNTER_ENV}```\n"
BROKEN = "```python\nimport os\nclass BrokenEnv:\n    pass\n```"
HINT = "Read the number the observation shows."
MAX_LENGTH = 6000
FAILING_ENV = dedent(
    '''
    class FailingEnv:
        def __init__(self, max_turns=5, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            raise RuntimeError("this environment cannot start")

        def step(self, action):
            return "x", 0.0, True, False, {}

        def solution(self):
            return "x"

        def close(self):
            pass
    '''
)


def counter_agent_reply(prompt: str) -> str | None:
    """The forced agent of the counter game: the right number when the hint is in the prompt; otherwise 0 on
    the first turn and, on the second, the right number only when it is odd. None for another game (the
    model samples)."""
    numbers = [str(int(a) + int(b)) for a, b in re.findall(r"It is (\d+) plus (\d+)", prompt)]
    if not numbers:
        return None
    target, turn = numbers[-1], prompt.count("<|im_start|>assistant")
    if "HINT:" in prompt or (turn >= 2 and int(target) % 2 == 1):
        return f"\\boxed{{{target}}}"
    return "\\boxed{0}"


class ForcedReplies:
    """The replies the engine is made to give (see the module docstring).

    Designer: a valid environment and a broken one in turn. Hint writer: ``HINT``. Agent: the right
    number when the hint is in the prompt; otherwise 0 on the first turn and, on the second, the right
    number only when it is odd (so unhinted win rates sit between 0 and 1).
    """

    def __init__(self) -> None:
        self._designs = itertools.cycle([GOOD, BROKEN])
        self._lock = threading.Lock()
        self.designs = 0

    def __call__(self, prompt: str) -> str | None:
        if "<ENVIRONMENT_SOURCE>" in prompt:
            return HINT
        if TEXT_AGENT_PROMPT in prompt:
            return counter_agent_reply(prompt)
        with self._lock:
            self.designs += 1
            return next(self._designs)


def write_seed_pool(directory: Path, sources: dict[str, str]) -> Path:
    specs = [(EnvSpec(id=env_id_for(code), class_name=name, kind="multi_turn_game", skill="Logical Deduction",
                      max_turns=5), code) for name, code in sources.items()]
    write_pool(directory, "seed", specs, validated=True)
    return directory


def make_config(model_dir: Path, seed_pool: Path, **openrlhf: Any) -> RunConfig:
    return parse_run_config({
        "run": {"backend": "openrlhf", "iterations": 2, "sandbox": "wasm"},
        "model": {"path": str(model_dir)},
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": 2, "episodes_per_condition": 2, "skills": ["Logical Deduction"],
                 "max_turns": 5, "fuzz_examples": 0, "use_corpus": False, "malformed_reward": 0.0,
                 "return_mode": "terminal_clipped", "agent_train_conditions": ["unhinted"]},
        "sampling": {"temperature": 1.0, "designer_temperature": 1.0, "designer_max_tokens": 1200,
                     "agent_max_tokens": 24},
        "openrlhf": {"rollout_batch_size": 4, "n_samples_per_prompt": 2, "designer_delay_steps": 0, "nodes": 1,
                     "gpus_per_node": 1, "vllm_engines": 1, "seed_pool": str(seed_pool), **openrlhf},
    })


def sampling_params() -> EngineSamplingParams:
    """What OpenRLHF's SamplesGenerator passes (--rollout.temperature 1.0, logprobs for IS correction)."""
    return EngineSamplingParams(temperature=1.0, top_p=1.0, top_k=-1, max_tokens=None, min_tokens=1,
                                skip_special_tokens=False, logprobs=1)


async def run_row(executor: SpadeAgentExecutor, label: RowLabel, engine: TransformersEngine) -> list[dict[str, Any]]:
    """What OpenRLHF's rollout actor does for one row: ``samples`` concurrent executions."""
    return list(await asyncio.gather(*(
        executor.execute(label.prompt_text(), label.to_json(), sampling_params(), MAX_LENGTH, engine.tokenizer,
                         engine)
        for _ in range(label.samples))))


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Designer prompts run to a few thousand tokens of this tokenizer: give the model room.
    return build_tiny_model(tmp_path_factory.mktemp("tiny-8k"), max_positions=8192)


@pytest.fixture(scope="module")
def rollouts(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """One designer row and one agent row (two samples each) through the executor."""
    root = tmp_path_factory.mktemp("executor")
    config = make_config(model_dir, write_seed_pool(root / "seed", {"CounterEnv": COUNTER_ENV}))
    state = SharedState(config, root / "run")
    client = LocalStateClient(state)
    replies = ForcedReplies()
    engine = TransformersEngine(model_dir, respond=replies)
    executor = SpadeAgentExecutor(connect=lambda label: client)
    common = {"samples": 2, "actor": "test-state", "namespace": "spade"}
    # COUNTER_ENV is a single-answer puzzle: that is the kind the designer row asks for.
    designer = RowLabel(role="designer", row=0, skill="Logical Deduction", kind="single_answer", **common)
    agent = RowLabel(role="agent", row=1, **common)

    async def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return await run_row(executor, designer, engine), await run_row(executor, agent, engine)

    try:
        designer_responses, agent_responses = asyncio.run(both())
    finally:
        executor.close()
    attempts = [json.loads(line) for line in (root / "run" / "attempts.jsonl").read_text().splitlines()]
    return SimpleNamespace(designer=designer_responses, agent=agent_responses, state=state, attempts=attempts,
                           tokenizer=engine.tokenizer, config=config, replies=replies)


def check_alignment(response: dict[str, Any], *, sampled: bool = True) -> None:
    """Tokens, action ranges and log-probs line up; ``sampled``: every action token was drawn by the model."""
    tokens, ranges, logprobs = response["observation_tokens"], response["action_ranges"], response["rollout_log_probs"]
    assert len(tokens) == len(logprobs) <= MAX_LENGTH and ranges
    previous_end = 0
    in_action = [False] * len(tokens)
    for start, end in ranges:
        assert previous_end < start < end <= len(tokens)
        previous_end = end
        for index in range(start, end):
            in_action[index] = True
    assert all(value == 0.0 for value, action in zip(logprobs, in_action) if not action)
    assert all(value < 0.0 if sampled else value <= 0.0 for value, action in zip(logprobs, in_action) if action)
    assert set(response["extra_logs"]) == set(LOG_KEYS)
    assert all(type(value) is float for value in response["extra_logs"].values())
    assert type(response["reward"]) is float and type(response["scores"]) is float


def test_designer_rows_return_the_designers_reply_rewarded_by_the_loop(rollouts):
    assert rollouts.replies.designs == 2
    by_validity = {bool(r["extra_logs"]["spade/design_valid"]): r for r in rollouts.designer}
    assert set(by_validity) == {True, False}
    attempts = {a["valid"]: a for a in rollouts.attempts}
    for valid, response in by_validity.items():
        check_alignment(response)
        (start, end), = response["action_ranges"]
        assert end == len(response["observation_tokens"])
        prompt = rollouts.tokenizer.decode(response["observation_tokens"][:start])
        reply = rollouts.tokenizer.decode(response["observation_tokens"][start:end], skip_special_tokens=True)
        assert prompt.endswith("<|im_start|>assistant\n") and "Logical Deduction" in prompt
        assert ("CounterEnv" in reply) == valid and ("BrokenEnv" in reply) != valid
        assert response["extra_logs"]["spade/designer"] == 1.0 and response["extra_logs"]["spade/agent"] == 0.0
        attempt = attempts[valid]
        assert response["reward"] == pytest.approx(attempt["raw_reward"])
        # The two designs' rewards differ: the group is kept, each score inside (0, 1) and ordered by reward.
        assert response["scores"] == pytest.approx(kept_score(attempt["raw_reward"]))
    played = attempts[True]
    # The valid environment was played K=2 times with and without the hint, in the sandbox: hinted always
    # wins, unhinted only on odd targets. Its reward is the blend of exactly those plays.
    assert played["played"] and played["hint"] == HINT and played["win_rate_hinted"] == 1.0
    outcome = EnvOutcome(valid=True, timed_out=False, hinted_returns=(1.0, 1.0),
                         unhinted_returns=tuple([1.0] * round(2 * played["win_rate_unhinted"])
                                                + [0.0] * round(2 - 2 * played["win_rate_unhinted"])),
                         skill="Logical Deduction")
    assert played["raw_reward"] == pytest.approx(designer_reward(outcome, DesignerRewardConfig(variant="blend")))
    assert played["regret"] == pytest.approx(1.0 - played["win_rate_unhinted"])
    assert attempts[False]["raw_reward"] == 0.0 and attempts[False]["failures"]
    assert by_validity[True]["extra_logs"]["spade/design_regret"] == pytest.approx(played["regret"])
    # The shared state admitted the played environment with its hint; the memory recorded its plays.
    designed = [e for e in rollouts.state.environments.values() if e.origin == "designed"]
    assert len(designed) == 1 and designed[0].environment.spec.hint == HINT
    assert designed[0].environment.id == played["env_id"] and designed[0].environment.spec.kind == "single_answer"
    assert rollouts.state.memory.latest_stats(played["env_id"]).plays == 4
    assert rollouts.state.memory.get(played["env_id"]).spec.hint == HINT


def test_agent_rows_return_one_token_stream_per_episode(rollouts):
    first, second = rollouts.agent
    for response in rollouts.agent:
        check_alignment(response)
        tokens, ranges = response["observation_tokens"], response["action_ranges"]
        text = rollouts.tokenizer.decode(tokens)
        assert text.startswith(f"<|im_start|>system\n{TEXT_AGENT_PROMPT}<|im_end|>\n<|im_start|>user\nGuess the")
        # Between two replies sits exactly the template's next user turn (the reply ended with <|im_end|>).
        for (_, end), (start, _) in itertools.pairwise(ranges):
            assert rollouts.tokenizer.decode(tokens[end - 1:end]) == "<|im_end|>"
            assert rollouts.tokenizer.decode(tokens[end:start]) == "\n<|im_start|>user\nwrong<|im_end|>\n" \
                                                                   "<|im_start|>assistant\n"
        logs = response["extra_logs"]
        assert logs["spade/agent"] == 1.0 and logs["spade/episode_turns"] == len(ranges)
        assert response["reward"] == logs["spade/episode_return"] == logs["spade/episode_won"]
    # Both samples of the row played the same environment, on different seeds.
    first_observation = rollouts.tokenizer.decode(first["observation_tokens"][:first["action_ranges"][0][0]])
    second_observation = rollouts.tokenizer.decode(second["observation_tokens"][:second["action_ranges"][0][0]])
    assert first_observation != second_observation
    counter = rollouts.state.environments[env_id_for(COUNTER_ENV)]
    assert counter.plays == 2 and counter.wins == sum(r["reward"] == 1.0 for r in rollouts.agent)


# ---------------------------------------------------------------------------------- OpenRLHF's own code
def openrlhf_function(relative_path: str, qualified_name: str, namespace: dict[str, Any]) -> Any:
    """A function (or method) compiled from the installed OpenRLHF's source file, run as written."""
    import openrlhf

    path = Path(openrlhf.__file__).parent / relative_path
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owner, _, name = qualified_name.rpartition(".")
    body = tree.body
    if owner:
        body = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == owner).body
    function = next(node for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name == name)
    code = compile(ast.Module(body=[function], type_ignores=[]), str(path), "exec")
    exec(code, namespace)  # noqa: S102 - the installed OpenRLHF's own source, run as its module would
    return namespace[name]


def openrlhf_namespace() -> dict[str, Any]:
    import logging
    from typing import Optional, Union

    from openrlhf.trainer.ppo_utils.experience import Experience
    from openrlhf.trainer.ppo_utils.length_penalty import apply_length_penalties

    # The module-level names those functions use (their annotations included).
    namespace = {"torch": torch, "itertools": itertools, "Experience": Experience, "List": list, "Tuple": tuple,
                 "Optional": Optional, "Union": Union, "logger": logging.getLogger("openrlhf-test"),
                 "apply_length_penalties": apply_length_penalties}
    namespace["compute_reward"] = openrlhf_function("models/utils.py", "compute_reward", dict(namespace))
    return namespace


def test_openrlhf_builds_experiences_and_group_advantages_from_the_responses(rollouts):
    from openrlhf.trainer.ppo_utils import FixedKLController
    from openrlhf.trainer.ppo_utils.experience import make_experience_batch, split_experience_batch

    namespace = openrlhf_namespace()
    process = openrlhf_function("trainer/ppo_utils/samples_generator.py",
                                "SamplesGenerator._process_response_into_experience", namespace)
    maker_class = type("ExperienceMaker", (), {
        name: openrlhf_function("trainer/ppo_utils/experience_maker.py", f"RemoteExperienceMaker.{name}", namespace)
        for name in ("compute_advantages_and_returns", "get_cumulative_returns")})

    responses = rollouts.designer + rollouts.agent  # row after row, as OpenRLHF orders a batch
    experiences = [process(None, response, max_len=MAX_LENGTH) for response in responses]
    for index, experience in enumerate(experiences):
        experience.index = [index]
        experience.kl = torch.zeros_like(experience.action_mask, dtype=torch.float32)
        assert experience.sequences.shape == experience.attention_mask.shape
        assert experience.action_mask.shape == experience.rollout_log_probs.shape
        assert int(experience.action_mask.sum()) == sum(e - s for s, e in responses[index]["action_ranges"])
        assert set(LOG_KEYS) <= set(experience.info)

    n = rollouts.config.openrlhf.n_samples_per_prompt
    args = SimpleNamespace(
        rollout=SimpleNamespace(n_samples_per_prompt=n, max_new_tokens=None),
        data=SimpleNamespace(max_len=MAX_LENGTH),
        reward=SimpleNamespace(clip_range=(-10.0, 10.0), overlong_buffer_len=None, stop_properly_penalty_coef=None),
        algo=SimpleNamespace(advantage=SimpleNamespace(estimator="group_norm", gamma=1.0, lambd=1.0,
                                                       no_std_norm=False)))
    maker = maker_class()
    maker.strategy, maker.advantage_estimator, maker.kl_ctl = SimpleNamespace(args=args), "group_norm", \
        FixedKLController(0.0)
    experiences = maker.compute_advantages_and_returns(experiences)

    rewards = torch.tensor([r["reward"] for r in responses]).reshape(-1, n)
    expected = ((rewards - rewards.mean(-1, keepdim=True)) / (rewards.std(-1, keepdim=True) + 1e-9)).reshape(-1)
    assert expected[:n].abs().sum() > 0  # the designer group (a valid and a broken design) has contrast
    for experience, value in zip(experiences, expected):
        mask = experience.action_mask[0].bool()
        assert torch.allclose(experience.advantages[0][mask], torch.full((int(mask.sum()),), float(value)),
                              atol=1e-5)

    # Designer and agent samples batch together: their info carries the same keys.
    batch = make_experience_batch([item for e in experiences for item in split_experience_batch(e)])
    assert batch.sequences.shape[0] == len(responses)
    assert [float(value) for value in batch.info["spade/designer"]] == [1.0] * n + [0.0] * n


def test_openrlhf_loads_the_executor_file_and_dynamic_filtering_reads_its_scores(rollouts):
    from openrlhf.utils.agent import AgentExecutorBase

    from spade_train.backends.openrlhf.command import DYNAMIC_FILTERING_RANGE, agent_executor_path

    load = openrlhf_function("trainer/ray/vllm_engine.py", "_load_agent_executor",
                             {"AgentExecutorBase": AgentExecutorBase})
    executor = load(str(agent_executor_path()))
    assert isinstance(executor, AgentExecutorBase) and isinstance(executor, SpadeAgentExecutor)
    # _generate_vllm keeps a group when min < mean score < max (an open range).
    low, high = DYNAMIC_FILTERING_RANGE
    designer_mean = sum(r["scores"] for r in rollouts.designer) / 2
    assert low < designer_mean < high


class NoLeases(LocalStateClient):
    """A shared state whose every lease fails: each agent sample faults."""

    async def lease(self, row: int, samples: int, hinted: bool) -> Any:
        raise RuntimeError("the lease table is corrupt")


def test_a_step_of_faulted_samples_stops_the_run(model_dir, tmp_path):
    """Issue 36, item 1: a failure every sample shares used to be dropped sample by sample while dynamic
    filtering drew new rows, so the run "finished" having trained nothing. Faults in
    ``openrlhf.max_fault_share`` of a step's worth of samples (here 2 rows of 2) stop it, naming the cause."""
    config = make_config(model_dir, write_seed_pool(tmp_path / "seed", {"CounterEnv": COUNTER_ENV}),
                         rollout_batch_size=2)
    state = SharedState(config, tmp_path / "run")
    executor = SpadeAgentExecutor(connect=lambda label: NoLeases(state))
    engine = TransformersEngine(model_dir, respond=ForcedReplies())
    common = {"samples": 2, "actor": "test-state", "namespace": "spade"}
    first: list[dict[str, Any]] = []

    async def two_rows() -> None:
        first.extend(await run_row(executor, RowLabel(role="agent", row=1, **common), engine))
        await run_row(executor, RowLabel(role="agent", row=2, **common), engine)

    try:
        with pytest.raises(RunStopped, match=r"4 of the last 4 samples failed .* the lease table is corrupt"):
            asyncio.run(two_rows())
    finally:
        executor.close()
    assert len(first) == 2 and all(r["extra_logs"]["spade/fault"] == 1.0 for r in first)  # a half step: dropped


def test_untrained_designer_rows_and_broken_environments_still_give_valid_samples(model_dir, tmp_path):
    seed = write_seed_pool(tmp_path / "seed", {"FailingEnv": FAILING_ENV})
    config = make_config(model_dir, seed, designer_delay_steps=10)
    state = SharedState(config, tmp_path / "run")
    client = LocalStateClient(state)
    engine = TransformersEngine(model_dir, respond=ForcedReplies())
    executor = SpadeAgentExecutor(connect=lambda label: client)
    common = {"samples": 2, "actor": "test-state", "namespace": "spade"}

    async def rows() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        agent = await run_row(executor, RowLabel(role="agent", row=0, **common), engine)
        designer = RowLabel(role="designer", row=1, skill="Logical Deduction", kind="single_answer", **common)
        return await run_row(executor, designer, engine), agent

    try:
        designer, agent = asyncio.run(rows())
    finally:
        executor.close()
    # The state held only the failing environment: the episode ends before any turn, on an environment
    # error. The sample is a short placeholder with no action range (nothing of it is trained), and with
    # no sample left to compare the group is dropped.
    for response in agent:
        assert response["action_ranges"] == [] and len(response["rollout_log_probs"]) == len(
            response["observation_tokens"]) <= 65
        assert response["observation_tokens"][-1] == engine.tokenizer.eos_token_id
        assert response["reward"] == 0.0 and response["scores"] == NO_CONTRAST_SCORE
        assert response["extra_logs"]["spade/episode_env_error"] == 1.0 == response["extra_logs"]["spade/masked"]
    assert state.environments[env_id_for(FAILING_ENV)].errors == 2
    # Designer training is delayed 10 steps: the designs count (state, memory) but their group is filtered.
    assert [r["scores"] for r in designer] == [UNTRAINED_SCORE] * 2
    assert all(r["extra_logs"]["spade/design_trained"] == 0.0 for r in designer)
    assert any(e.origin == "designed" for e in state.environments.values())


def test_local_engine_log_probs_are_the_models(model_dir):
    engine = TransformersEngine(model_dir)
    prompt = list(engine.tokenizer("<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n",
                                   add_special_tokens=False)["input_ids"])
    params = EngineSamplingParams(temperature=0.7, max_tokens=12, logprobs=1, seed=3)
    output = asyncio.run(engine.generate(prompt, params))
    completion = output.outputs[0]
    assert output.prompt_token_ids == prompt and 0 < len(completion.token_ids) <= 12
    with torch.inference_mode():
        logits = engine.policy.model(input_ids=torch.tensor([prompt + completion.token_ids])).logits[0].float()
    expected = torch.log_softmax(logits[len(prompt) - 1:-1] / 0.7, dim=-1)
    for position, (token, entry) in enumerate(zip(completion.token_ids, completion.logprobs)):
        assert entry[token].logprob == pytest.approx(float(expected[position, token]), abs=1e-4)
