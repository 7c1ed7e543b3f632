"""The embedded design language: parsing, rendering into real environments, and the hint writer."""

from __future__ import annotations

import asyncio
import random

import pytest

from spade_envs.checks.validate import ValidatorConfig, validate_source
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.designer.prompts import DesignerPrompt
from spade_train.designer.signal_language import (
    CLASS_NAME,
    CODES,
    COLOURS,
    DesignHinter,
    SignalDesign,
    SignalDesignLanguage,
    all_designs,
    design_of_code,
    parse_design,
    render_environment,
    vocabulary_text,
)
from spade_train.hints import write_hint

QUICK = ValidatorConfig(tiers=("static", "contract", "feasibility"))


def test_parse_is_lenient_about_noise_and_strict_about_values():
    design = parse_design("sure! code=oak junk signals=3 length=4 lives=1 code=ash")
    assert design == SignalDesign("oak", 3, 4, 1)  # the first value of a slot counts
    assert "no lives" in parse_design("code=oak signals=3 length=4")
    assert "signals=9 is not a value" in parse_design("code=oak signals=9 length=4 lives=1")
    assert parse_design(str(design)) == design


def test_every_design_renders_to_a_module_that_reads_back_to_it():
    designs = all_designs()
    assert len(designs) == 4 * 4 * 5 * 3 == len(set(designs))
    for design in designs:
        code = render_environment(design)
        compile(code, "<rendered>", "exec")
        assert design_of_code(code) == design
    assert design_of_code("class OtherEnv: pass") is None


def test_codes_overlap_but_no_two_are_the_same():
    def differences(a, b):
        return sum(x != y for x, y in zip(CODES[a], CODES[b]))

    names = list(CODES)
    assert all(differences(a, b) >= 2 for i, a in enumerate(names) for b in names[i + 1:])
    assert differences("ash", "yew") == len(COLOURS)  # a code the agent must relearn entirely


@pytest.fixture(scope="module")
def backend():
    return create_backend("wasm", ExecutionLimits())


@pytest.mark.parametrize(("design", "failing"), [
    (SignalDesign("oak", 4, 3, 0), set()),
    (SignalDesign("ash", 3, 5, 2), set()),
    (SignalDesign("elm", 1, 3, 0), {"seeds_vary"}),  # one colour: every seed is the same game
    # two colours, one move: two tasks in all, and every option in turn wins (wrong moves cost nothing)
    (SignalDesign("yew", 2, 1, 1), {"distinct_tasks", "trivially_solvable"}),
])
def test_the_real_checker_decides_validity(backend, design, failing):
    report = validate_source(render_environment(design), backend, config=QUICK)
    assert report.class_name == CLASS_NAME
    assert {f.check for f in report.failures} == failing


def test_moves_follow_the_code_lives_forgive_and_rewards_are_dense(backend):
    design = SignalDesign("elm", 4, 3, 1)
    with backend.open_session(render_environment(design), class_name=CLASS_NAME) as session:
        session.reset(5)
        moves = session.solution()
        assert len(moves) == 3 and all(m in CODES["elm"] for m in moves)
        wrong = next(m for m in CODES["ash"] if m != moves[0])
        step = session.step(f"\\boxed{{ {wrong} }}")
        assert (step.reward, step.done) == (0.0, False) and "lives : 0" in step.observation
        assert session.step(f"\\boxed{{{moves[0]}}}").reward == 0.2
        assert session.step(f"\\boxed{{ {moves[1]} }}").reward == 0.2
        last = session.step(f"\\boxed{{ {moves[2]} }}")
        assert (last.reward, last.terminated) == (1.0, True)


def test_designer_prompt_shows_memory_designs_and_language_reads_replies():
    language = SignalDesignLanguage()
    good = type("Example", (), {"code": render_environment(SignalDesign("oak", 4, 3, 0)), "label": "positive",
                                "skill": "Logical Deduction", "win_rate": 0.5, "regret": 0.2})()
    prompt = DesignerPrompt(kind="multi_turn_game", skill="Logical Deduction", examples=(good,))
    user = language.messages(prompt)[-1]["content"]
    assert user.startswith("skill : logical") and "good : code=oak signals=4 length=3 lives=0" in user
    parsed = language.read("code=yew signals=2 length=5 lives=0")
    assert parsed.ok and parsed.class_name == CLASS_NAME
    assert design_of_code(parsed.code) == SignalDesign("yew", 2, 5, 0)
    assert not language.read("signals=2").ok


def test_design_hinter_names_the_code_and_passes_the_leak_check():
    design = SignalDesign("oak", 4, 3, 0)
    code = render_environment(design)
    result = asyncio.run(write_hint(DesignHinter(), code, "signal : red .", solutions=[["up", "down", "left"]]))
    assert result.accepted and result.hint == design.hint
    empty = asyncio.run(write_hint(DesignHinter(), "class OtherEnv: pass", "obs", solutions=["1"]))
    assert not empty.accepted


def test_the_tokenizer_knows_every_word_the_model_reads(backend):
    pytest.importorskip("tokenizers")
    pytest.importorskip("transformers")
    from spade_train.backends.embedded.model import train_word_tokenizer

    tokenizer = train_word_tokenizer(vocabulary_text(("Logical Deduction",)))
    rng = random.Random(3)
    for design in rng.sample([d for d in all_designs() if d.signals > 1], 8):
        with backend.open_session(render_environment(design), class_name=CLASS_NAME) as session:
            words = [session.reset(rng.randrange(2**31)).observation, design.hint, str(design)]
            for move in session.solution():
                words.append(session.step(f"\\boxed{{ {move} }}").observation)
        text = "\n\nHINT: ".join(words)
        assert tokenizer.unk_token_id not in tokenizer(text, add_special_tokens=False)["input_ids"], text
