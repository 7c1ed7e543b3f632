"""The GRPO update moves probability toward completions with positive advantage."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from spade_train.backends.embedded.grpo import GRPOTrainer, TrainingSample
from spade_train.config import GRPOSection
from spade_train.policies.transformers_local import load_tokenizer
from tests.tiny_model import tiny_model_dir  # noqa: F401


def _model_and_tokenizer(path):
    model = transformers.AutoModelForCausalLM.from_pretrained(path)
    tokenizer = load_tokenizer(path)
    model.eval()
    return model, tokenizer


def test_positive_advantage_raises_the_completion_probability(tiny_model_dir):  # noqa: F811
    torch.manual_seed(0)
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    prompt = tokenizer("Pick one:")["input_ids"]
    good, bad = tokenizer(" \\boxed{7}")["input_ids"], tokenizer(" \\boxed{3}")["input_ids"]
    trainer = GRPOTrainer(model, GRPOSection(learning_rate=1e-2, mini_batch=None), temperature=1.0, pad_token_id=0)

    def logprob(completion):
        with torch.no_grad():
            return float(trainer.token_logprobs([TrainingSample(prompt, completion, [0.0] * len(completion), 0.0)])[0].sum())

    before_good, before_bad = logprob(good), logprob(bad)
    for _ in range(5):
        samples = []
        for completion, advantage in ((good, 1.0), (bad, -1.0)):
            with torch.no_grad():
                old = trainer.token_logprobs([TrainingSample(prompt, completion, [0.0] * len(completion), 0.0)])[0]
            samples.append(TrainingSample(prompt, completion, old.tolist(), advantage))
        metrics = trainer.step(samples)
    # The completions share most tokens, so compare the gap: the rewarded one must gain on the other.
    assert logprob(good) - logprob(bad) > before_good - before_bad + 1.0
    assert metrics["tokens"] == len(good) + len(bad) and metrics["grad_norm"] > 0


def test_zero_advantage_and_empty_batches_change_nothing(tiny_model_dir):  # noqa: F811
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    trainer = GRPOTrainer(model, GRPOSection(learning_rate=1e-2, mini_batch=None))
    before = [p.detach().clone() for p in model.parameters()]
    ids = tokenizer("x")["input_ids"]
    assert trainer.step([TrainingSample(ids, ids, [0.0] * len(ids), 0.0)])["samples"] == 0.0
    assert trainer.step([])["tokens"] == 0.0
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))


def test_sample_lengths_must_match():
    with pytest.raises(ValueError, match="same length"):
        TrainingSample([1], [2, 3], [0.0], 1.0)


def test_mini_batches_take_one_optimizer_step_each(tiny_model_dir):  # noqa: F811
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    ids = tokenizer("a b")["input_ids"]
    samples = [TrainingSample(ids, ids, [-1.0] * len(ids), 1.0 if i % 2 else -1.0) for i in range(5)]
    trainer = GRPOTrainer(model, GRPOSection(learning_rate=1e-3, mini_batch=2, epochs=2, micro_batch=1))
    assert trainer.step(samples)["optimizer_steps"] == 6.0  # ceil(5 / 2) mini-batches, twice
    whole = GRPOTrainer(model, GRPOSection(learning_rate=1e-3, mini_batch=None, epochs=1))
    assert whole.step(samples)["optimizer_steps"] == 1.0


def test_role_epochs_give_one_role_more_passes(tiny_model_dir):  # noqa: F811
    """The designer's dozen samples make one mini-batch: ``role_epochs`` gives it more passes (optimizer
    steps) while the agent keeps ``epochs``; a batch mixing the two is refused."""
    from dataclasses import replace

    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    ids = tokenizer("a b")["input_ids"]
    samples = [TrainingSample(ids, ids, [-1.0] * len(ids), 1.0 if i % 2 else -1.0, role="designer") for i in range(4)]
    agent = [replace(sample, role="agent") for sample in samples]
    trainer = GRPOTrainer(model, GRPOSection(learning_rate=1e-3, mini_batch=None, role_epochs={"designer": 3}))
    assert trainer.step(samples)["optimizer_steps"] == 3.0
    assert trainer.step(agent)["optimizer_steps"] == 1.0
    with pytest.raises(ValueError, match="role_epochs"):
        trainer.step(samples + agent)


def test_entropy_bonus_spreads_its_role_even_with_zero_advantage(tiny_model_dir):  # noqa: F811
    """A collapsed designer batch has zero advantages; the bonus must still act on it, and only on
    the role it names."""
    torch.manual_seed(0)
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    prompt, completion = tokenizer("Pick one:")["input_ids"], tokenizer(" \\boxed{7}")["input_ids"]
    trainer = GRPOTrainer(model, GRPOSection(learning_rate=1e-2, mini_batch=None, entropy_bonus={"designer": 0.5}),
                          temperature=1.0, pad_token_id=0)

    def entropy() -> float:
        with torch.no_grad():
            _, penalties, _ = trainer._completion_logprobs([TrainingSample(prompt, completion, [0.0] * len(completion),
                                                                        0.0, role="designer")])
        return float(-penalties[0].mean() / 0.5)  # the penalty is -coef * entropy

    before = entropy()
    agent_only = trainer.step([TrainingSample(prompt, completion, [0.0] * len(completion), 0.0, role="agent")])
    assert agent_only["samples"] == 0.0 and entropy() == pytest.approx(before)
    for _ in range(5):
        metrics = trainer.step([TrainingSample(prompt, completion, [0.0] * len(completion), 0.0, role="designer")])
    assert metrics["samples"] == 1.0 and entropy() > before + 0.05


def test_kl_to_reference_pulls_a_role_back_even_with_zero_advantage(tiny_model_dir):  # noqa: F811
    """A designer pushed away from its reference (here by a rewarded completion) is pulled back by the KL
    term alone once its advantages are flat; a trainer asked for the term without a reference refuses."""
    import copy

    torch.manual_seed(0)
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    reference = copy.deepcopy(model).eval()
    prompt, completion = tokenizer("Pick one:")["input_ids"], tokenizer(" \\boxed{7}")["input_ids"]
    config = GRPOSection(learning_rate=1e-2, mini_batch=None, kl_to_reference={"designer": 1.0})
    with pytest.raises(ValueError, match="reference"):
        GRPOTrainer(model, config, temperature=1.0)
    trainer = GRPOTrainer(model, config, temperature=1.0, pad_token_id=0, reference=reference)
    pusher = GRPOTrainer(model, GRPOSection(learning_rate=1e-2, mini_batch=None), temperature=1.0, pad_token_id=0)

    def sample(advantage: float) -> TrainingSample:
        with torch.no_grad():
            old = trainer.token_logprobs([TrainingSample(prompt, completion, [0.0] * len(completion), 0.0)])[0]
        return TrainingSample(prompt, completion, old.tolist(), advantage, role="designer")

    def divergence() -> float:
        with torch.no_grad():
            _, penalties, _ = trainer._completion_logprobs([sample(0.0)])
        return float(penalties[0].sum())

    for _ in range(5):
        pusher.step([sample(1.0)])
    pushed = divergence()
    for _ in range(10):
        trainer.step([sample(0.0)])
    assert pushed > 0.05 and divergence() < pushed / 2


def test_the_turns_of_an_episode_share_one_forward_and_read_as_if_alone(tiny_model_dir):  # noqa: F811
    """Packing (``pack_sequences``) only shares computation: each sample's log-probabilities, regulariser
    penalties and KL are those it has in a row of its own, for turns of one episode, an unrelated sample,
    a turn at another temperature and roles with different regularisers."""
    import copy

    from spade_train.backends.embedded.grpo import pack_sequences

    torch.manual_seed(0)
    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    config = GRPOSection(mini_batch=None, kl_to_reference={"designer": 0.3, "agent": 0.1},
                         entropy_bonus={"agent": 0.2})
    trainer = GRPOTrainer(model, config, temperature=0.7, pad_token_id=0, reference=copy.deepcopy(model).eval())
    words = [tokenizer(text)["input_ids"] for text in ("Pick one:", " \\boxed{7}", " wrong, again", " \\boxed{3}",
                                                       " right", " \\boxed{5}")]
    first = TrainingSample(words[0], words[1], [0.0] * len(words[1]), 1.0)
    second = TrainingSample(words[0] + words[1] + words[2], words[3], [0.0] * len(words[3]), 1.0)
    third = TrainingSample(second.prompt_ids + words[3] + words[4], words[5], [0.0] * len(words[5]), 1.0)
    other = TrainingSample(words[2], words[1], [0.0] * len(words[1]), -1.0, role="designer")
    hotter = TrainingSample(words[0], words[1], [0.0] * len(words[1]), 1.0, temperature=1.3)
    samples = [second, other, first, hotter, third]
    packing = pack_sequences(samples, 0.7)
    assert len(packing.rows) == 3  # the episode's three turns, the unrelated sample, the hotter turn
    assert packing.row_of[0] == packing.row_of[2] == packing.row_of[4] != packing.row_of[3]
    with torch.no_grad():
        together = trainer._completion_logprobs(samples)
        alone = [trainer._completion_logprobs([sample]) for sample in samples]
    for index, single in enumerate(alone):
        for packed, own in zip(together, single):
            assert packed[index] is not None and own[0] is not None
            assert torch.allclose(packed[index], own[0], atol=1e-5)


@pytest.mark.parametrize("truncation", [{}, {"top_k": 20, "top_p": 0.95}], ids=["full", "truncated"])
def test_sampled_log_probs_match_the_trainers_only_without_truncation(tiny_model_dir, truncation):  # noqa: F811
    """Issue 36, item 4: the trainer recomputes log-probs at the temperature alone. Sampled without top-k/top-p
    (``semantics.trained_sampling = "full"``) the engine's processed log-probs are that distribution, token for
    token; sampled truncated (the release), every kept token's recomputed log-prob is lower by the mass cut
    away, so every importance ratio is below 1."""
    from spade_train.policies.base import GenerationRequest, SamplingParams
    from spade_train.policies.transformers_local import TransformersPolicy

    model, tokenizer = _model_and_tokenizer(tiny_model_dir)
    policy = TransformersPolicy(model, tokenizer)
    sampling = SamplingParams(temperature=0.6, max_tokens=24, seed=5, **truncation)
    generation = policy.generate_blocking(GenerationRequest(messages=[{"role": "user", "content": "Play."}],
                                                            sampling=sampling))
    sample = TrainingSample(list(generation.prompt_token_ids), list(generation.completion_token_ids),
                            list(generation.completion_logprobs), 1.0, temperature=0.6)
    with torch.no_grad():
        recomputed = GRPOTrainer(model, GRPOSection()).token_logprobs([sample])[0]
    log_ratio = recomputed - torch.tensor(sample.old_logprobs)
    assert len(sample.completion_ids) >= 3
    if truncation:
        assert bool((log_ratio < -1e-4).all()), log_ratio  # a random model's tail is wide: every token loses mass
    else:
        assert float(log_ratio.abs().max()) < 1e-4
