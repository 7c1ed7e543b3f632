"""Format recovery (``grpo.designer_format_recovery``): an iteration whose designer replies were all
malformed trains the designer toward its last valid replies; any other iteration is left alone."""

from __future__ import annotations

import io
import json
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from spade_train.backends.embedded.grpo import TrainingSample
from spade_train.backends.embedded.trainer import (
    VALID_REPLIES_FILE,
    EmbeddedTrainer,
    designer_replies,
    recovery_samples,
)
from spade_train.config import parse_run_config
from spade_train.loop.design import Outcome
from spade_train.policies.base import Generation
from spade_train.policies.transformers_local import load_tokenizer
from spade_train.run.directory import Checkpoints
from tests.tiny_model import tiny_model_dir  # noqa: F401


def _attempt(outcome: Outcome, completion: list[int], ok: bool = True) -> SimpleNamespace:
    generation = Generation(text="x", prompt_token_ids=[1, 2], completion_token_ids=completion,
                            completion_logprobs=[-1.0] * len(completion), error=None if ok else "timeout")
    return SimpleNamespace(outcome=outcome, generation=generation)


def _result(*attempts: SimpleNamespace) -> SimpleNamespace:
    return SimpleNamespace(attempts=list(attempts))


def test_only_an_iteration_of_malformed_replies_is_a_recovery_iteration():
    valid, malformed = designer_replies(_result(_attempt(Outcome.PLAYED, [5, 6]), _attempt(Outcome.MALFORMED, [7]),
                                                _attempt(Outcome.INVALID, [8])), 1.0)
    assert [s.completion_ids for s in valid] == [[5, 6]] and malformed == []
    valid, malformed = designer_replies(_result(_attempt(Outcome.MALFORMED, [7]), _attempt(Outcome.MALFORMED, [9])), 1.0)
    assert valid == [] and [s.completion_ids for s in malformed] == [[7], [9]]
    assert designer_replies(_result(), 1.0) == ([], [])  # nothing asked is not "all malformed"
    # A failed call is not the designer leaving its format.
    assert designer_replies(_result(_attempt(Outcome.DESIGNER_FAILED, [], ok=False)), 1.0) == ([], [])


def test_recovery_pushes_valid_replies_up_from_ratio_one_and_malformed_down():
    valid = [TrainingSample([1], [5, 6], [-9.0, -9.0], 0.0, "designer", 1.0)]
    malformed = [TrainingSample([1], [7], [-0.1], 0.0, "designer", 1.0)]
    batch = recovery_samples(valid, malformed, [[-2.0, -3.0]])
    assert [(s.advantage, s.old_logprobs) for s in batch] == [(1.0, [-2.0, -3.0]), (-1.0, [-0.1])]
    assert all(s.role == "designer" for s in batch)


def test_the_trainer_recovers_only_after_valid_replies_and_keeps_them_in_its_checkpoint(tiny_model_dir, tmp_path):  # noqa: F811
    model = transformers.AutoModelForCausalLM.from_pretrained(tiny_model_dir).eval()
    tokenizer = load_tokenizer(tiny_model_dir)
    config = parse_run_config({"grpo": {"designer_format_recovery": True}})
    trainer = EmbeddedTrainer(config, model, tokenizer)
    prompt, good, bad = (tokenizer(text)["input_ids"] for text in ("design:", " code=oak signals=3", " \\boxed{"))
    played = _attempt(Outcome.PLAYED, good)
    played.generation = Generation(text="x", prompt_token_ids=prompt, completion_token_ids=good,
                                   completion_logprobs=[-1.0] * len(good))
    lost = _attempt(Outcome.MALFORMED, bad)
    # Out of format before any valid reply was seen: nothing to recover toward.
    assert trainer._recover_format(_result(lost), [])[1] is False
    assert trainer._recover_format(_result(played, lost), [])[1] is False  # a normal iteration: unchanged
    batch, recovering = trainer._recover_format(_result(lost, lost), [])
    assert recovering and [s.advantage for s in batch] == [1.0, -1.0, -1.0]
    with torch.no_grad():
        now = trainer.grpo.token_logprobs([batch[0]])[0].tolist()
    assert batch[0].completion_ids == good and batch[0].old_logprobs == pytest.approx(now)
    checkpoints = Checkpoints(tmp_path / "checkpoints")
    saved = checkpoints.save({"step": 1, "loop": None}, trainer.save)
    rows = json.loads((saved / VALID_REPLIES_FILE).read_text())
    assert [TrainingSample(**row) for row in rows] == trainer.valid_replies
    resumed = EmbeddedTrainer.build(config, checkpoints, None, io.StringIO())  # type: ignore[arg-type]
    assert resumed.valid_replies == trainer.valid_replies  # a resumed run recovers as the first would have
    stats = trainer.grpo.step(batch)
    assert stats["samples"] == 3.0 and stats["grad_norm"] > 0
