"""``spade-train run``: configuration files, the embedded trainer end to end, checkpoints and resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spade_train.backends.embedded.trainer import training_samples
from spade_train.cli import main
from spade_train.config import ConfigError, RunConfig, load_run_config, override_config, parse_run_config
from spade_train.designer.prompts import DesignerPrompt
from spade_train.environments import EnvironmentRecord
from spade_train.loop import DesignAttempt, DesignerScore, DesignPlan, IterationResult, Outcome
from spade_train.policies.base import Generation
from spade_train.rollout import AgentTurn, EnvEvaluation, Episode
from spade_train.run.directory import Checkpoints, RunDirectory
from spade_train.run.resume import prepare_resume
from tests.tiny_model import tiny_model_dir  # noqa: F401 - a session fixture

REPO = Path(__file__).resolve().parent.parent
CONFIGS = sorted((REPO / "configs").glob("*.toml"))

TINY_RUN = """
[run]
iterations = 2
sandbox = "wasm"

[model.tiny]
hidden_size = 32
num_layers = 1
num_heads = 2

[warmup]
agent_steps = 4
designer_steps = 4
batch_size = 4

[loop]
envs_per_iteration = 4
episodes_per_condition = 2
validation_workers = 0

[grpo]
drop_zero_variance = false
kl_to_reference = { designer = 0.1 }
"""


@pytest.mark.parametrize("path", CONFIGS, ids=[p.name for p in CONFIGS])
def test_every_shipped_config_loads(path):
    assert isinstance(load_run_config(path), RunConfig)


def test_config_errors_name_the_key_and_are_one_line(tmp_path):
    with pytest.raises(ConfigError, match=r"loop\.envs_per_iteraton: Extra inputs are not permitted"):
        parse_run_config({"loop": {"envs_per_iteraton": 3}})
    with pytest.raises(ConfigError, match=r"run\.iterations: Input should be greater than or equal to 1"):
        parse_run_config({"run": {"iterations": 0}})
    with pytest.raises(ConfigError, match=r"^config: the signal design language writes multi_turn_game"):
        parse_run_config({"loop": {"kinds": ["tool_use"]}})
    with pytest.raises(ConfigError, match=r'design\.prompt = "compact" asks for a Python module'):
        parse_run_config({"design": {"prompt": "compact"}})
    broken = tmp_path / "broken.toml"
    broken.write_text("[run\niterations = 2\n")
    with pytest.raises(ConfigError, match="is not valid TOML"):
        load_run_config(broken)


def test_set_overrides_any_key_in_toml_syntax_and_is_validated_again(tmp_path):
    path = tmp_path / "run.toml"
    path.write_text("[run]\niterations = 2\n[loop]\nenvs_per_iteration = 4\n")
    config = load_run_config(path, ["run.iterations=3", "loop.skills=['Optimization']", "loop.corpus=hf:x/y",
                                    "grpo.kl_to_reference={designer = 0.2}", "model.tiny.hidden_size=16"])
    assert (config.run.iterations, config.loop.envs_per_iteration, config.loop.skills) == (3, 4, ["Optimization"])
    assert config.loop.corpus == "hf:x/y" and config.grpo.kl_to_reference == {"designer": 0.2}
    assert config.model.tiny.hidden_size == 16
    assert override_config(config, ["loop.reward=solve_rate"]).loop.reward == "solve_rate"
    with pytest.raises(ConfigError, match=r"loop\.envs: Extra inputs are not permitted"):
        load_run_config(path, ["loop.envs=3"])
    with pytest.raises(ConfigError, match="write KEY=VALUE"):
        load_run_config(path, ["run.iterations"])
    with pytest.raises(ConfigError, match="the signal design language writes multi_turn_game"):
        load_run_config(path, ["loop.kinds=['tool_use']"])
    with pytest.raises(ConfigError, match="run.iterations is a value, not a table"):
        load_run_config(path, ["run.iterations.x=1"])


@pytest.mark.parametrize(("setup", "argv", "message"), [
    ("", ["--config", "missing.toml"], "cannot read config"),
    ("bad", ["--config", "bad.toml"], "loop.nonsense: Extra inputs are not permitted"),
    ("", ["--config", "ok.toml", "--resume"], "has no checkpoints to resume from"),
    ("existing", ["--config", "ok.toml"], "already holds a run (metrics.jsonl); pass --resume"),
    ("", ["--config", "ok.toml", "--set", "run.iterations=0"], "run.iterations: Input should be greater than"),
    ("", ["--config", "ok.toml", "--set", "policies.designer=http://127.0.0.1:9/v1"], "spade-train run trains"),
    ("", ["--config", str(REPO / "configs" / "transformers-local.toml")], "is not a directory"),
    ("", ["--config", "empty.toml"], "sets nothing (it is empty or holds only comments"),
    ("", ["--config", "comments.toml"], "sets nothing (it is empty or holds only comments"),
    ("", ["--config", "binary.toml"], "is not UTF-8 text (byte 0x80 at offset 128)"),
    ("", ["--config", "latin1.toml"], "is not UTF-8 text (byte 0xe9"),
    ("", ["--config", "."], "cannot read config"),
    ("", ["--config", "ok.toml", "--set", 'run.iterations="3"'], "run.iterations: Input should be a valid integer, not str '3'"),
    ("", ["--config", "ok.toml", "--set", "run.iterations=3.0"], "Input should be a valid integer, not float 3.0"),
    ("", ["--config", "ok.toml", "--set", "loop.use_memory=1"], "loop.use_memory: Input should be a valid boolean"),
    ("", ["--config", "ok.toml", "--set", "run.seed=99999999999999999999"], "99999999999999999999 is out of range"),
    ("", ["--config", "ok.toml", "--set", "run.seed=4294967296"], "less than or equal to 4294967295"),
    ("", ["--config", "ok.toml", "--set", "run.seed=-1"], "run.seed: Input should be greater than or equal to 0"),
    ("", ["--config", "ok.toml", "--set", "grpo.learning_rate=nan"], "grpo.learning_rate: Input should be a finite"),
    ("", ["--config", "ok.toml", "--set", "warmup.learning_rate=inf"], "warmup.learning_rate: Input should be"),
    ("", ["--config", "ok.toml", "--set", "loop.envs_per_iteration=-9223372036854775809"], "is out of range"),
    ("", ["--config", "ok.toml", "--repair"], "--repair goes with --resume"),
])
def test_run_usage_errors_are_one_line_exit_2(tmp_path, monkeypatch, capsys, setup, argv, message):
    monkeypatch.chdir(tmp_path)
    Path("ok.toml").write_text(TINY_RUN)
    Path("bad.toml").write_text("[loop]\nnonsense = 1\n")
    Path("empty.toml").write_text("")
    Path("comments.toml").write_text("# a run\n[run]\n# iterations = 3\n[loop]\n")
    Path("binary.toml").write_bytes(bytes(range(256)))
    Path("latin1.toml").write_bytes("[run]\n# caf\u00e9\niterations = 2\n".encode("latin-1"))
    if setup == "existing":
        Path("out").mkdir()
        Path("out/metrics.jsonl").write_text('{"step": 1}\n')
    assert main(["run", *argv, "--out", "out"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_embedded_run_trains_checkpoints_and_resumes(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    config = tmp_path / "tiny.toml"
    config.write_text(TINY_RUN)
    out = tmp_path / "run"
    assert main(["run", "--config", str(config), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [row["step"] for row in rows] == [1, 2]
    assert all(row["designs"] == 4 and "train_agent_loss" in row and "valid_rate" in row for row in rows)
    assert sum(row["train_designer_samples"] + row["train_agent_samples"] for row in rows) > 0
    assert (out / "plots" / "curves.png").stat().st_size > 10_000
    assert json.loads((out / "pool" / "manifest.json").read_text())["entries"] is not None
    resolved = json.loads((out / "config.json").read_text())
    assert resolved["loop"]["envs_per_iteration"] == 4 and resolved["grpo"]["learning_rate"] > 0
    state = json.loads((out / "checkpoints" / "latest" / "trainer_state.json").read_text())
    assert state["step"] == 2 and state["loop"]["slot"] == 8
    assert (out / "checkpoints" / "latest" / "optimizer.pt").is_file()
    assert (out / "checkpoints" / "reference" / "config.json").is_file()  # the KL anchor, kept for resume
    assert len((out / "attempts.jsonl").read_text().splitlines()) == 8

    assert main(["run", "--config", str(config), "--out", str(out), "--resume", "--set", "run.iterations=3"]) == 0
    assert "resuming after iteration 2" in capsys.readouterr().out
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [row["step"] for row in rows] == [1, 2, 3]
    assert json.loads((out / "checkpoints" / "latest" / "trainer_state.json").read_text())["step"] == 3


def test_resume_drops_records_of_iterations_after_the_checkpoint(tmp_path):
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps({"step": s}) + "\n" for s in (1, 2, 3)) + '{"st')
    (tmp_path / "timings.jsonl").write_text("".join(json.dumps({"step": s}) + "\n" for s in (1, 2, 3)))
    (tmp_path / "attempts.jsonl").write_text("".join(json.dumps({"step": s}) + "\n" for s in (1, 2, 2, 3)))
    notes = prepare_resume(tmp_path, tmp_path / "checkpoints" / "latest", {"step": 2})  # an older checkpoint
    assert [row["step"] for row in RunDirectory(tmp_path).metrics()] == [1, 2]
    assert len((tmp_path / "attempts.jsonl").read_text().splitlines()) == 3
    assert notes[0] == ("metrics.jsonl: dropped 1 row(s) of iterations after 2 and 1 unreadable last line(s) "
                        "(a write cut short)")


def test_a_checkpoint_interrupted_mid_swap_is_still_found(tmp_path):
    checkpoints = Checkpoints(tmp_path / "checkpoints")
    assert checkpoints.find() is None
    checkpoints.previous.mkdir(parents=True)
    (checkpoints.previous / "trainer_state.json").write_text('{"step": 4}')
    assert checkpoints.find() == checkpoints.previous  # killed between the two renames
    checkpoints.latest.mkdir()
    (checkpoints.latest / "trainer_state.json").write_text('{"step": 5}')
    assert checkpoints.find() == checkpoints.latest and checkpoints.state() == {"step": 5}


# ------------------------------------------------------------------------------ samples
def _generation(token: int) -> Generation:
    return Generation(text="x", prompt_token_ids=[1, 2], completion_token_ids=[token, 9],
                      completion_logprobs=[-0.5, -0.1])


def _episode(won: bool, hinted: bool, turns: int = 1) -> Episode:
    episode = Episode(seed=0, hinted=hinted, messages=[])
    episode.turns = [AgentTurn("obs", _generation(5), 0.0) for _ in range(turns)]
    episode.episode_return = 1.0 if won else 0.0
    return episode


def _attempt(skill: str, reward: float, evaluation: EnvEvaluation | None) -> tuple[DesignAttempt, DesignerScore]:
    from spade_envs.spec.models import EnvSpec, env_id_for

    plan = DesignPlan(kind="multi_turn_game", skill=skill, step=1, seed=0,
                      prompt=DesignerPrompt(kind="multi_turn_game", skill=skill))
    environment = None
    if evaluation is not None:
        code = f"class XEnv:  # {skill}\n    pass\n"
        environment = EnvironmentRecord(EnvSpec(id=env_id_for(code), class_name="XEnv", kind="multi_turn_game",
                                                skill=skill, max_turns=5), code)
    attempt = DesignAttempt(plan=plan, prompt=[], generation=_generation(7),
                            outcome=Outcome.PLAYED if evaluation is not None else Outcome.INVALID, detail="",
                            environment=environment, evaluation=evaluation)
    return attempt, DesignerScore(raw=reward, reward=reward, baseline=0.0)


def _result(*scored: tuple[DesignAttempt, DesignerScore]) -> IterationResult:
    return IterationResult(step=1, attempts=tuple(a for a, _ in scored), scores=tuple(s for _, s in scored),
                           seconds=0.0)


def test_training_samples_use_role_groups_and_drop_flat_ones():
    mixed = EnvEvaluation(hinted=[_episode(True, True, turns=2), _episode(False, True)],
                          unhinted=[_episode(False, False), _episode(False, False)])
    attempts = [_attempt("Logic", 0.3, mixed), _attempt("Logic", -0.3, None), _attempt("Pattern", 0.0, None)]
    batch = training_samples(_result(*attempts))
    # Unhinted plays all lost (a flat group: dropped); the single "Pattern" design is a flat group too.
    assert batch.designer == 2 and batch.zero_variance_groups == 2
    assert batch.agent == 3  # the winning hinted episode has two turns, each a sample
    agent = [s for s in batch.samples if s.role == "agent"]
    assert sorted(s.advantage for s in agent) == pytest.approx([-1.0, 1.0, 1.0])
    designer = [s for s in batch.samples if s.role == "designer"]
    assert sorted(s.advantage for s in designer) == pytest.approx([-0.3, 0.3])
    only_unhinted = training_samples(_result(*attempts), agent_conditions=("unhinted",),
                                     train_designer=False)
    assert only_unhinted.samples == [] and only_unhinted.zero_variance_groups == 1
    # With an entropy bonus for the designer, its flat group stays in the batch at advantage 0 (the
    # bonus is what acts on a collapsed designer); the agent's flat group is still dropped.
    with_bonus = training_samples(_result(*attempts), regularised_roles=("designer",))
    assert with_bonus.designer == 3 and with_bonus.agent == 3
    assert sorted(s.advantage for s in with_bonus.samples if s.role == "designer") == pytest.approx([-0.3, 0.0, 0.3])


def test_an_unfinished_play_counts_in_its_group_but_trains_nothing_without_train_unfinished():
    """``grpo.train_unfinished = false`` (the release's compact filter): the play that ran out of turns
    keeps its say in the advantages of its group, and gives no sample."""
    won, lost = _episode(True, True, turns=2), _episode(False, True)
    won.terminated = lost.terminated = True
    unfinished = _episode(False, True, turns=3)  # ran out of turns: not terminated
    evaluation = EnvEvaluation(hinted=[won, lost, unfinished], unhinted=[])
    result = _result(_attempt("Logic", 0.0, evaluation))
    everything = training_samples(result, agent_conditions=("hinted",), train_designer=False)
    filtered = training_samples(result, agent_conditions=("hinted",), train_designer=False, train_unfinished=False)
    assert everything.agent == 6 and filtered.agent == 3
    z = [-(2 ** 0.5) / 2, 2 ** 0.5]  # returns 1, 0, 0 z-scored: the unfinished play's 0 counts
    assert sorted({round(s.advantage, 6) for s in filtered.samples}) == pytest.approx(sorted(z), abs=1e-6)
    assert {round(s.advantage, 6) for s in filtered.samples} <= {round(s.advantage, 6) for s in everything.samples}


def test_python_design_language_runs_with_a_local_checkpoint(tmp_path, tiny_model_dir, capsys):  # noqa: F811
    """The recipe for real models, exercised with the tiny random model: its context is too short for the
    designer prompt, so every designer call fails. The run records the iteration, then stops with the
    cause in one line (exit 1) instead of carrying on with nothing to show."""
    config = tmp_path / "python.toml"
    config.write_text(f"""
[run]
iterations = 3
[model]
path = "{tiny_model_dir}"
[design]
language = "python"
hinter = "model"
[loop]
envs_per_iteration = 2
episodes_per_condition = 1
validation_workers = 0
return_mode = "terminal_clipped"
[sampling]
designer_max_tokens = 12
agent_max_tokens = 4
[grpo]
drop_zero_variance = false
""")
    out = tmp_path / "run"
    assert main(["run", "--config", str(config), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("spade-train: error: iteration 1: all 2 designer calls failed; the first: the designer "
                          "call failed:") and "the run stops" in err
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["designs"] == 2 and rows[0]["valid_rate"] == 0.0
    attempts = [json.loads(line) for line in (out / "attempts.jsonl").read_text().splitlines()]
    assert [a["outcome"] for a in attempts] == ["designer_failed"] * 2 and all(a["detail"] for a in attempts)


def test_committed_run_config_schema_is_current(capsys):
    assert main(["schema", "--out", str(REPO / "schemas"), "--check"]) == 0, "regenerate with `make schemas`"
    schema = json.loads((REPO / "schemas" / "run_config.schema.json").read_text())
    assert schema["additionalProperties"] is False and "loop" in schema["properties"]


def test_the_public_api_is_importable_from_the_package():
    import spade_train

    assert all(getattr(spade_train, name) is not None for name in spade_train.__all__)
    with pytest.raises(AttributeError, match="no attribute 'LoopConfig'"):
        spade_train.LoopConfig  # noqa: B018 - the settings live in RunConfig only
