"""The generated corpus of environment programs (issue 32, item 1): varied, reproducible, and honest about
its defects: every valid program passes the real checker in the sandbox, and every deliberate defect is
rejected for its own reason."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from spade_envs.checks.validate import validate_source
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.pretraining.programs import DEFECTS, FAMILIES, generate_corpus, generate_program
from spade_train.similarity import fingerprint, jaccard
from tests.conftest import python_run_config

EXPECTED_CHECK = {
    "syntax_error": "syntax", "forbidden_import": "imports", "no_solution": "required_methods",
    "unseeded": "reset_deterministic", "answer_shown": "answer_leak", "four_values": "step_returns",
    "losing_solution": "feasible", "reward_out_of_range": "reward_range",
}


@pytest.fixture(scope="module")
def checker():
    backend = create_backend("wasm", ExecutionLimits())
    config = python_run_config(kinds=["single_answer", "multi_turn_game"]).loop.validator(plan_salt=0)
    return lambda code: validate_source(code, backend, config=config)


def test_a_corpus_is_reproducible_varied_and_a_quarter_defective() -> None:
    corpus = generate_corpus(300, seed=4)
    assert [p.code for p in corpus] == [p.code for p in generate_corpus(300, seed=4)]
    assert [p.code for p in corpus] != [p.code for p in generate_corpus(300, seed=5)]
    assert set(Counter(p.family for p in corpus)) == set(FAMILIES)
    assert {p.defect for p in corpus if p.defect} == set(DEFECTS)
    assert 0.15 < sum(not p.valid for p in corpus) / len(corpus) < 0.35
    assert len({p.code for p in corpus}) >= 0.97 * len(corpus)
    # Programs of one family share their rules, but the styles they are written in keep most pairs apart
    # by the memory's own measure (which ignores names and numbers): measured 0.15-0.19 of a family's pairs
    # near-duplicates (similarity >= 0.9), 0.54 for the grid walk; programs of two families never are.
    shares = {}
    for family in FAMILIES:
        prints = [fingerprint(p.code) for p in corpus if p.family == family and p.valid][:30]
        pairs = list(itertools.combinations(prints, 2))
        shares[family] = sum(jaccard(a, b) >= 0.9 for a, b in pairs) / len(pairs)
    assert max(shares.values()) <= 0.6 and sum(shares.values()) / len(shares) <= 0.3, shares
    firsts = {family: fingerprint(next(p.code for p in corpus if p.family == family)) for family in FAMILIES}
    assert all(jaccard(a, b) < 0.9 for a, b in itertools.combinations(firsts.values(), 2))


def test_a_drawn_corpus_is_what_it_says(checker) -> None:
    """Each program of a drawn corpus: valid ones pass the checker, defective ones fail it (measured on
    200: 147 valid passed, 2 of them with a warning, and 53 defective failed)."""
    for program in generate_corpus(24, seed=11):
        assert checker(program.code).ok == program.valid, (program.family, program.defect, program.params)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_writes_programs_the_checker_accepts(family, checker) -> None:
    for seed in (0, 7):
        program = generate_program(random.Random(seed), family=family)
        report = checker(program.code)
        assert report.ok, (family, seed, [f.message for f in report.failures])


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_every_defect_is_rejected_for_its_own_reason(defect, checker) -> None:
    family = "arithmetic" if defect in ("answer_shown", "losing_solution") else "walk"
    program = generate_program(random.Random(3), family=family, defect=defect)
    assert not program.valid
    report = checker(program.code)
    assert not report.ok and EXPECTED_CHECK[defect] in {f.check for f in report.failures}, \
        [f.check for f in report.failures]


def test_a_family_without_a_place_for_a_defect_says_so() -> None:
    with pytest.raises(ValueError, match="no place for the answer_shown defect"):
        generate_program(random.Random(0), family="walk", defect="answer_shown")
    with pytest.raises(ValueError):
        generate_corpus(5, defect_share=1.5)


def test_pretraining_teaches_the_programs_and_reproduces() -> None:
    """A few steps on a small corpus: the loss on the replies falls, the same seed gives the same model, and
    a sampled reply opens with the code fence the parser reads (``benchmarks/python_designer_pretrain.py``
    measures what the default budget writes)."""
    pytest.importorskip("torch")
    from spade_train.config.sections import PretrainingSection
    from spade_train.pretraining.pretrain import pretrain, sample_programs

    settings = PretrainingSection(programs=40, steps=25, batch_size=4, hidden_size=32, num_layers=1, num_heads=2,
                                  vocab_size=400, max_positions=640, learning_rate=1e-2, agent_share=0)
    first = pretrain(settings, seed=1)
    assert sum(first.losses[-5:]) / 5 < 0.6 * sum(first.losses[:5]) / 5
    assert pretrain(settings, seed=1).losses == first.losses
    with pytest.raises(ValueError, match="must leave a share for the programs"):
        PretrainingSection(hint_share=0.5, agent_share=0.5)
    with pytest.raises(ValueError, match="pass a backend, or set pretraining.agent_share = 0"):
        pretrain(settings.model_copy(update={"agent_share": 0.2}), seed=1)
    replies = sample_programs(first.model, first.tokenizer, ["single_answer"], temperature=1.0, max_tokens=20)
    assert replies[0]


def test_pretraining_asks_as_self_play_s_compact_designer_call_does() -> None:
    """The pretrained designer is asked in self-play by ``design.prompt = "compact"``: the prompt tokens the
    policy renders for that call are the ones pretraining trained the replies after."""
    pytest.importorskip("torch")
    from spade_train.backends.embedded.model import train_bpe_tokenizer
    from spade_train.designer.language import design_language
    from spade_train.designer.prompts import DesignerPrompt
    from spade_train.policies.base import SamplingParams
    from spade_train.policies.transformers_local import TransformersPolicy
    from spade_train.pretraining.pretrain import request_messages

    tokenizer = train_bpe_tokenizer(["<design kind=multi_turn_game>\nclass A: pass"], 300)
    request = design_language("python", "compact").request(DesignerPrompt(kind="multi_turn_game", skill="Logic"),
                                                           SamplingParams())
    assert request.role == "designer" and request.messages == request_messages("multi_turn_game")
    trained = tokenizer.apply_chat_template(request_messages("multi_turn_game"), add_generation_prompt=True,
                                            tokenize=False)
    policy = TransformersPolicy.__new__(TransformersPolicy)
    policy.tokenizer = tokenizer
    assert policy.render_prompt(request) == tokenizer(trained, add_special_tokens=False)["input_ids"]
    full = design_language("python").request(DesignerPrompt(kind="multi_turn_game", skill="Logic"), SamplingParams())
    assert sum(len(m["content"]) for m in full.messages) > 2000  # the full prompt, for models that can read it


def test_the_pretrain_command_saves_a_loadable_model_and_its_figures(tmp_path, capsys) -> None:
    """``spade-train pretrain``: the model and tokenizer in a new directory, loadable as a checkpoint, the
    figures in pretrain.json; an --out that holds files is refused in one line, nothing written."""
    pytest.importorskip("torch")
    import json
    from pathlib import Path

    from spade_train.cli import main
    from spade_train.policies.transformers_local import TransformersPolicy

    config = Path(__file__).resolve().parent.parent / "configs" / "embedded.toml"
    small = ["--set", "pretraining.programs=30", "--set", "pretraining.steps=10", "--set", "pretraining.hidden_size=32",
             "--set", "pretraining.num_layers=1", "--set", "pretraining.num_heads=2", "--set",
             "pretraining.vocab_size=400", "--set", "pretraining.max_positions=640"]
    out = tmp_path / "pretrained"
    assert main(["pretrain", "--config", str(config), "--out", str(out), "--samples", "2", *small]) == 0
    printed = capsys.readouterr().out
    assert "pretraining step 10/10" in printed and "of 2 sampled programs" in printed
    report = json.loads((out / "pretrain.json").read_text())
    assert report["programs"] == 30 and report["samples"]["samples"] == 2 and report["loss_last"] < report["loss_first"]
    assert TransformersPolicy(str(out / "model")).name  # a checkpoint transformers loads
    assert not list(tmp_path.glob(".*staging"))
    capsys.readouterr()  # transformers' own loading bar
    assert main(["pretrain", "--config", str(config), "--out", str(out), *small]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds files" in err
