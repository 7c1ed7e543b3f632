"""The embedded run fails loudly and reproduces: one seed decides a run, a designer out of its format
stops it, a warm-up that did not teach hint-following stops it, a frozen designer stays frozen, and the
designer probe reads a run directory (all on tiny budgets, with the real model, sandbox and checker)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from spade_train.cli import main
from spade_train.config import ConfigError, parse_run_config
from spade_train.run.plots import centred_mean, plot_metrics
from tests.tiny_runs import tiny_run_config

pytest.importorskip("torch")
pytest.importorskip("transformers")



def _config(tmp_path: Path, *, iterations: int = 2, agent_steps: int = 40, designer_steps: int = 60) -> Path:
    return tiny_run_config(tmp_path, f"tiny-{iterations}-{agent_steps}-{designer_steps}", **{
        "run.iterations": iterations, "warmup.agent_steps": agent_steps, "warmup.designer_steps": designer_steps})


@pytest.fixture(scope="module")
def played_runs(tmp_path_factory) -> tuple[Path, Path, Path]:
    """Two runs of one config and seed, and one of another seed (designs parse and some are played)."""
    root = tmp_path_factory.mktemp("embedded")
    config = _config(root)
    runs = []
    for name, seed in (("first", 0), ("again", 0), ("other", 1)):
        out = root / name
        assert main(["run", "--config", str(config), "--out", str(out), "--set", f"run.seed={seed}",
                     "--set", f"probe.at_end={'true' if name == 'first' else 'false'}"]) == 0
        runs.append(out)
    return runs[0], runs[1], runs[2]


def test_the_same_config_and_seed_give_the_same_metrics(played_runs):
    first, again, other = played_runs
    assert (first / "metrics.jsonl").read_bytes() == (again / "metrics.jsonl").read_bytes()
    assert (first / "attempts.jsonl").read_bytes() == (again / "attempts.jsonl").read_bytes()
    assert (first / "metrics.jsonl").read_bytes() != (other / "metrics.jsonl").read_bytes()
    rows = [json.loads(line) for line in (first / "metrics.jsonl").read_text().splitlines()]
    assert sum(row["played"] for row in rows) > 0  # the comparison covers played, trained iterations
    timings = [json.loads(line) for line in (first / "timings.jsonl").read_text().splitlines()]
    assert [t["step"] for t in timings] == [1, 2] and all("seconds" in t and "train_seconds" in t for t in timings)
    assert not any(key.endswith("seconds") for row in rows for key in row)


def test_the_run_ends_with_the_designer_probe(played_runs):
    first, _, _ = played_runs
    report = json.loads((first / "probe.json").read_text())
    distributions = report["distributions"]
    assert set(distributions) == {"final", "post_warmup", "uniform_valid"}
    assert distributions["final"]["samples"] == distributions["post_warmup"]["samples"] == 6
    assert distributions["uniform_valid"]["valid"] == 1.0  # drawn from the run's valid designs
    played = [d for d in report["designs"] if d["valid"]]
    assert played and all(d["regret"] is not None and d["win_rate_unhinted"] is not None for d in played)
    for figures in distributions.values():
        if figures["regret"] is not None:
            low, high = figures["regret_ci"]
            assert low <= figures["regret"] <= high
    assert (first / "plots" / "probe.png").stat().st_size > 10_000
    # Design hints name each design's family, so the probe reports how the designer followed the agent.
    assert report["tracking"]["window"] == 3 and report["tracking"]["iterations"] <= 2


def test_probe_command_reprobes_a_run_directory(played_runs, capsys, tmp_path):
    first, _, _ = played_runs
    before = json.loads((first / "probe.json").read_text())
    assert main(["probe", str(first), "--set", "probe.designer_samples=6"]) == 0
    out = capsys.readouterr().out
    assert "designer probe" in out and "uniform_valid" in out and "eff.)" in out
    # A later probe writes a file of its own: the end-of-run probe.json is kept as it was.
    assert (first / "probe.json").read_text() == json.dumps(before, indent=1) + "\n"
    later = json.loads((first / "probe-1.json").read_text())
    assert later["distributions"] == before["distributions"] and (first / "plots" / "probe-1.png").is_file()
    # --json prints the report itself (and writes the next file).
    assert main(["probe", str(first), "--set", "probe.designer_samples=6", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((first / "probe-2.json").read_text()) and printed["distributions"]["final"]
    for figures in printed["distributions"].values():
        assert figures["distinct_valid"] <= figures["valid_samples"]
        assert figures["effective_designs"] is None or 1.0 <= figures["effective_designs"] <= figures["distinct_valid"]
    assert main(["probe", str(tmp_path)]) == 2
    assert "holds no run" in capsys.readouterr().err


def test_a_designer_out_of_its_format_stops_the_run(tmp_path, capsys):
    # Four warm-up steps do not teach the reply format: every design is malformed.
    config = _config(tmp_path, iterations=5, agent_steps=2, designer_steps=2)
    out = tmp_path / "run"
    # Format recovery needs valid replies to recover toward: a designer that never had one still stops.
    assert main(["run", "--config", str(config), "--out", str(out), "--set", "run.stop_after_malformed=2",
                 "--set", "grpo.designer_format_recovery=true", "--set", "grpo.role_epochs={designer = 2}"]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "every design of the last 2 iterations was malformed" in err
    assert "run.stop_after_malformed" in err and "Traceback" not in err
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [row["step"] for row in rows] == [1, 2] and all(row["malformed_rate"] == 1.0 for row in rows)
    assert all(row["designer_format_recovery"] == 0.0 for row in rows)
    # Nothing was played: the means over plays are null, not 0.0.
    assert all(row["regret_mean"] is None and row["return_unhinted"] is None for row in rows)
    assert not (out / "probe.json").exists()


def test_a_warm_up_that_did_not_teach_hints_stops_the_run(tmp_path, capsys):
    config = _config(tmp_path, agent_steps=2, designer_steps=2)
    out = tmp_path / "run"
    assert main(["run", "--config", str(config), "--out", str(out), "--set", "warmup.min_hinted_win_rate=0.99",
                 "--set", "warmup.check_episodes=4", "--set", "warmup.extra_rounds=1"]) == 1
    captured = capsys.readouterr()
    assert "warm-up round 2" in captured.out
    assert "did not teach the agent to follow hints" in captured.err and "warmup.min_hinted_win_rate" in captured.err
    assert not (out / "metrics.jsonl").exists()  # the directory can be used again


def test_a_frozen_designer_needs_train_designer_off():
    with pytest.raises(ConfigError, match="set loop.train_designer = false as well"):
        parse_run_config({"loop": {"frozen_designer": True}})


def test_a_frozen_designer_samples_from_the_post_warm_up_model(tmp_path):
    import asyncio

    import torch

    from spade_envs.runtime.backend import create_backend
    from spade_envs.runtime.limits import ExecutionLimits
    from spade_train.backends.embedded.trainer import EmbeddedTrainer
    from spade_train.config import load_run_config
    from spade_train.run.directory import RunDirectory
    from spade_train.run.driver import SelfPlayRun

    config = load_run_config(_config(tmp_path), ["loop.train_designer=false", "loop.frozen_designer=true"])
    directory = RunDirectory.open(tmp_path / "run", resume=False)
    backend = create_backend("wasm", ExecutionLimits())
    with open(tmp_path / "log.txt", "w") as out:
        trainer = EmbeddedTrainer.build(config, directory.checkpoints, backend, out)
        designer, agent = trainer.policies.designer, trainer.policies.agent
        assert designer is not agent
        before = [p.detach().clone() for p in designer.model.parameters()]
        agent_before = [p.detach().clone() for p in agent.model.parameters()]
        asyncio.run(SelfPlayRun(config, trainer.policies, trainer, directory=directory, out=out,
                                backend=backend).run())
    assert all(torch.equal(a, b) for a, b in zip(before, designer.model.parameters()))
    rows = directory.metrics()
    assert all(row["train_designer_samples"] == 0 for row in rows)
    if sum(row["train_agent_optimizer_steps"] for row in rows):  # the agent did learn: the designer did not
        assert any(not torch.equal(a, b) for a, b in zip(agent_before, agent.model.parameters()))


def test_plots_leave_gaps_where_nothing_was_measured(tmp_path):
    assert centred_mean([1.0, None, 3.0, 5.0], 3) == [1.0, None, 4.0, 4.0]
    rows = [{"step": s, "valid_rate": 0.5, "regret_mean": None if s % 3 == 0 else 0.1 * s,
             "win_rate_unhinted": None, "win_rate_hinted": None, "return_unhinted": None} for s in range(1, 14)]
    assert plot_metrics(rows, tmp_path / "curves.png") is not None


def test_the_warm_up_learning_rate_ramps_up_then_decays_each_round() -> None:
    """Each warm-up round starts a fresh optimizer: at a constant rate its first full-size steps undid what
    the round before had taught (seed 3 of the default lost hint-following round by round). The cosine
    schedule ramps up over the first tenth of a round and decays to a tenth of the peak."""
    from spade_train.backends.embedded.warmup import learning_rate_at

    rates = [learning_rate_at(step, 500, 3e-3, "cosine") for step in range(500)]
    assert rates[0] == pytest.approx(3e-3 / 50) and max(rates) == pytest.approx(3e-3)
    assert rates.index(max(rates)) == 49  # the ramp ends after 50 of 500 steps
    assert all(a >= b for a, b in itertools.pairwise(rates[49:]))  # then it only decays
    assert rates[-1] == pytest.approx(3e-4, rel=0.01)
    assert {learning_rate_at(step, 500, 3e-3, "constant") for step in range(500)} == {3e-3}
    with pytest.raises(ValueError, match="unknown warm-up schedule"):
        learning_rate_at(0, 10, 1e-3, "linear")


def test_a_warm_up_batch_in_slices_has_the_whole_batch_gradient() -> None:
    """The warm-up runs each batch in length-sorted slices to save padding (``_accumulate_batch``); the
    gradient and loss must be those of the batch in one piece, whatever the slicing."""
    torch = pytest.importorskip("torch")
    from spade_train.backends.embedded.model import TinyModelConfig, build_causal_lm, train_word_tokenizer
    from spade_train.backends.embedded.warmup import _accumulate_batch

    tokenizer = train_word_tokenizer(["a b c d e f g h"])
    model = build_causal_lm(tokenizer, TinyModelConfig(hidden_size=32, num_layers=1, num_heads=2), seed=0)
    words = [tokenizer(text, add_special_tokens=False)["input_ids"]
             for text in ("a b", "c d e f g h a b", "c", "d e f", "g h a b c")]
    batch = [(words[i], words[(i + 2) % 5][: 1 + i % 3]) for i in range(5)]
    gradients, losses = [], []
    for parts in (1, 2, 3, 5):
        model.zero_grad(set_to_none=True)
        losses.append(_accumulate_batch(model, batch, tokenizer.pad_token_id, parts=parts))
        gradients.append(torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None]))
    for loss, gradient in zip(losses[1:], gradients[1:]):
        assert loss == pytest.approx(losses[0], rel=1e-5)
        assert torch.allclose(gradient, gradients[0], atol=1e-6, rtol=1e-4)
