"""What pretraining teaches besides programs (``spade_train/pretraining/lessons.py``): a signal program's
hint is its table, and episodes of it are played in the sandbox with the moves a hint reader would make.
Then the embedded Python run end to end with a very small budget: pretraining, then self-play in which the
model's own modules go through the checker (issue 32)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from spade_envs.contract.episode import HINT_SEPARATOR, TEXT_AGENT_PROMPT
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_train.designer.language import compact_hint_request, design_language
from spade_train.pretraining.lessons import agent_lessons, hint_lessons, table_hint
from spade_train.pretraining.programs import generate_corpus, generate_program

REPO = Path(__file__).resolve().parent.parent


def test_a_signal_program_s_hint_is_its_table_in_one_sentence() -> None:
    assert table_hint({"red": "left", "blue": "up"}) == "blue means up, red means left."
    corpus = generate_corpus(120, seed=3)
    lessons = hint_lessons(corpus)
    signals = [p for p in corpus if p.family == "signals" and p.valid]
    assert len(lessons) == len(signals) > 0
    for lesson, program in zip(lessons, signals):
        assert lesson.messages == [{"role": "user", "content": compact_hint_request(program.code)}]
        assert lesson.target == table_hint(program.params["table"]) and lesson.target.count(".") == 1
    # The Python language asks its compact hint writer the same way; the full prompt keeps its own.
    assert design_language("python", "compact").hint_messages("x = 1\n") == [
        {"role": "user", "content": compact_hint_request("x = 1\n")}]
    assert design_language("python").hint_messages("x = 1\n") is None


def test_agent_lessons_follow_the_hint_s_table_and_play_at_chance_without_it() -> None:
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=2.0))
    rng = random.Random(0)
    corpus = [generate_program(rng, family="signals") for _ in range(3)] + [generate_program(rng, family="walk")]
    lessons = agent_lessons(corpus, backend, random.Random(1), system_prompt=TEXT_AGENT_PROMPT, programs=3,
                            episodes=8)
    assert lessons and all(lesson.messages[0] == {"role": "system", "content": TEXT_AGENT_PROMPT}
                           for lesson in lessons)
    tables = {table_hint(p.params["table"]): p.params["table"] for p in corpus[:3]}
    hinted = unhinted = 0
    for lesson in lessons:
        move = re.fullmatch(r"\\boxed\{(\w+)\}", lesson.target).group(1)
        first = lesson.messages[1]["content"]
        shown = re.findall(r"Signal: (\w+)", lesson.messages[-1]["content"])[-1]
        if HINT_SEPARATOR in first:
            table = tables[first.split(HINT_SEPARATOR)[1]]
            assert move == table[shown]  # a hinted move is the one the hint's table gives the colour shown
            hinted += 1
        else:
            assert move in {m for t in tables.values() for m in t.values()}
            unhinted += 1
    assert hinted and unhinted


def test_the_python_run_pretrains_its_designer_then_checks_what_it_writes(tmp_path, capsys) -> None:
    """``configs/embedded-python.toml`` with everything made tiny: the run pretrains first, then each module
    the model writes is read and judged by the checker, and the run ends with its curves and probe."""
    pytest.importorskip("torch")
    from spade_train.cli import main

    tiny = {"run.iterations": 1, "pretraining.programs": 40, "pretraining.steps": 4, "pretraining.hidden_size": 32,
            "pretraining.num_layers": 1, "pretraining.num_heads": 2, "pretraining.vocab_size": 400,
            "pretraining.max_positions": 640, "loop.envs_per_iteration": 2, "loop.episodes_per_condition": 1,
            "sampling.designer_max_tokens": 48, "probe.designer_samples": 2, "probe.uniform_designs": 2,
            "probe.episodes_per_condition": 1}
    overrides = [arg for key, value in tiny.items() for arg in ("--set", f"{key}={value}")]
    out = tmp_path / "run"
    assert main(["run", "--config", str(REPO / "configs" / "embedded-python.toml"), "--out", str(out),
                 *overrides]) == 0
    printed = capsys.readouterr().out
    assert "pretraining on 40 programs: loss" in printed
    attempts = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert len(attempts) == 2 and all(a["detail"] for a in attempts)
    assert (out / "probe.json").is_file() and (out / "checkpoints" / "latest" / "tokenizer.json").is_file()
