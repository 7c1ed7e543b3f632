"""spade-train run with run.backend = "openrlhf": recipes, prompt rows, the train_ppo_ray command and its
flag check.

OpenRLHF's parser cannot be imported (it sits under ``__main__`` in a module that imports vLLM), so the
flags are checked against the ``add_argument`` calls read from the installed ``train_ppo_ray.py``.
"""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from spade_train.backends.openrlhf import driver
from spade_train.backends.openrlhf.command import (
    OPENRLHF_VERSION,
    RunPaths,
    agent_executor_path,
    installed_train_script,
    installed_version,
    parser_flags,
    train_flags,
)
from spade_train.backends.openrlhf.data import plan_rows, row_headroom
from spade_train.backends.openrlhf.labels import LabelError, RowLabel
from spade_train.backends.openrlhf.launcher import importance_line, with_absolute_paths
from spade_train.backends.openrlhf.ray_actor import state_actor_name
from spade_train.backends.openrlhf.resources import resources_line
from spade_train.backends.openrlhf.sizing import kv_sizing
from spade_train.cli import main
from spade_train.config import load_run_config, parse_run_config

REPO_ROOT = Path(__file__).resolve().parent.parent
RECIPES = sorted((REPO_ROOT / "configs" / "recipes").glob("*.toml"))
PAPER_MODELS = {"Qwen/Qwen3-4B-Instruct-2507", "Qwen/Qwen3-8B", "Qwen/Qwen3-30B-A3B-Instruct-2507"}


@pytest.fixture(scope="module")
def known_flags() -> frozenset[str]:
    script = installed_train_script()
    assert script is not None, f"make setup installs openrlhf=={OPENRLHF_VERSION} (--no-deps)"
    return parser_flags(script)


def dry_run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["run", *argv], out=out), out.getvalue()


def printed_command(output: str) -> list[str]:
    text = output.split("command (dry run, nothing started):\n", 1)[1]
    return shlex.split(text.replace(" \\\n", " "))


def value_of(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def test_the_flag_reader_sees_the_installed_parser(known_flags):
    assert installed_version() == OPENRLHF_VERSION
    assert {"--actor.model_name_or_path", "--train.agent_func_path", "--algo.dynamic_filtering_range",
            "--algo.advantage.is_correction_level", "--train.colocate_all"} <= known_flags
    # Flags declared in a loop through f-strings, for both prefixes.
    assert {"--actor.adam.lr", "--critic.adam.lr", "--actor.muon.no_nesterov"} <= known_flags
    # Renamed after 0.11.0: the check would catch a recipe written for the older release.
    assert "--algo.advantage.is_correction_enable" not in known_flags


def test_recipes_cover_the_paper_models_settings_baselines_and_ablations():
    names = {path.stem for path in RECIPES}
    configs = {path.stem: load_run_config(path) for path in RECIPES}
    assert {configs[name].model.path for name in names} == PAPER_MODELS
    for model in ("qwen3-4b", "qwen3-8b", "qwen3-30b-a3b"):
        assert configs[f"{model}-games"].loop.kinds == ["multi_turn_game"]
        assert configs[f"{model}-tool-use"].loop.kinds == ["tool_use"]
        tool_use = configs[f"{model}-tool-use"]
        # ref: tool use regenerates 24 games every 8 steps, trained 8 steps later (16 every 32 for 4B)
        cadence = (16, 32, 32) if model == "qwen3-4b" else (24, 8, 8)
        assert (tool_use.loop.envs_per_iteration, tool_use.openrlhf.designer_every,
                tool_use.openrlhf.designer_delay_steps) == cadence
        assert configs[f"{model}-tool-use"].openrlhf.kl_coef == 0.005  # ref: KL 0.005 for tool use
    assert configs["qwen3-8b-games"].openrlhf.kl_coef == 0.005 and configs["qwen3-30b-a3b-games"].openrlhf.kl_coef == 0
    assert {configs[n].openrlhf.environments for n in ("baseline-fixed-rlve", "baseline-fixed-frontier")} == {"fixed"}
    # The release's ablations (cmd/ablations/*_30b.sh): the 30B games recipe with one change each.
    base = configs["qwen3-30b-a3b-games"].model_dump()
    changes = {"ablation-no-corpus": {("loop", "use_corpus"): False},
               "ablation-no-memory": {("loop", "use_memory"): False},
               "ablation-no-designer-training": {("loop", "train_designer"): False, ("loop", "use_memory"): False},
               "ablation-learning-potential": {("loop", "reward"): "learning_potential"},
               "ablation-solve-rate": {("loop", "reward"): "solve_rate"},
               "ablation-two-skill": {("loop", "skills"): ["Mathematical Reasoning", "Pattern Recognition"]}}
    for name, change in changes.items():
        ablation = configs[name].model_dump()
        differs = {(section, key) for section in base for key in base[section]
                   if ablation[section][key] != base[section][key]}
        assert differs == set(change) and all(ablation[s][k] == v for (s, k), v in change.items()), name
    reference = configs["qwen3-30b-a3b-games"]
    assert (reference.run.iterations, reference.loop.episodes_per_condition, reference.loop.max_turns) == (400, 16, 25)
    assert (reference.grpo.learning_rate, reference.grpo.clip_low, reference.grpo.clip_high) == (1e-6, 0.2, 0.28)
    assert (reference.sampling.designer_max_tokens, reference.sampling.agent_max_tokens,
            reference.openrlhf.max_len) == (16384, 8192, 32768)


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda path: path.stem)
def test_dry_run_of_every_recipe_writes_the_rows_and_a_complete_checked_command(recipe, tmp_path, known_flags):
    out = tmp_path / "run"
    code, output = dry_run(["--config", str(recipe), "--out", str(out), "--dry-run"])
    assert code == 0, output
    config = load_run_config(recipe)
    argv = printed_command(output)
    assert argv[1:3] == ["-m", "spade_train.backends.openrlhf.driver"] and "--" in argv
    flags = argv[argv.index("--") + 1:]
    assert flags == train_flags(config, RunPaths(out.resolve()))
    assert not [f for f in flags if f.startswith("--") and f not in known_flags]
    assert f"all {sum(f.startswith('--') for f in flags)} flags exist in the installed OpenRLHF" in output
    # Each engine's KV cache against the sequences it holds (issue 36, item 6); the 30B recipes were sized to
    # hold every trained sequence at max_len.
    sizing = kv_sizing(config)
    assert sizing is not None and sizing.line() in output.splitlines()
    assert sizing.fits or "30b" not in recipe.stem
    # The trained rows' log-probs against the trainer's (issue 36, item 4): every recipe samples as the release
    # does, truncated, and the dry run says what that does to the importance ratios.
    assert importance_line(config) in output.splitlines()
    assert "truncated distribution's log-probs" in importance_line(config)
    assert resources_line(config) in output.splitlines()  # the engines' CPUs and sandbox memory (item 3)
    section = config.openrlhf
    expected = {
        "--actor.model_name_or_path": config.model.path,
        "--train.agent_func_path": str(agent_executor_path()),
        "--data.prompt_dataset": str(out.resolve() / "openrlhf" / "prompts.jsonl"),
        "--data.input_key": "prompt", "--data.label_key": "label",
        "--algo.advantage.estimator": "dr_grpo",  # the release's advantages, formed by the executor
        "--rollout.batch_size": str(section.rollout_batch_size),
        "--rollout.n_samples_per_prompt": str(section.n_samples_per_prompt),
        "--rollout.temperature": str(config.sampling.temperature),
        "--train.batch_size": str(config.grpo.mini_batch),
        "--data.max_len": "32768",
        "--actor.num_nodes": str(section.nodes),
        "--vllm.num_engines": str(section.vllm_engines),
        "--logger.tensorboard_dir": str(out.resolve() / "openrlhf" / "tensorboard"),
    }
    assert {flag: value_of(flags, flag) for flag in expected} == expected
    assert flags[flags.index("--actor.eps_clip_low_high") + 1:][:2] == ["0.2", "0.28"]
    assert flags[flags.index("--algo.dynamic_filtering_range") + 1:][:2] == ["0.0", "1.0"]
    assert {"--train.colocate_all", "--vllm.enable_sleep", "--ds.enable_sleep", "--algo.dynamic_filtering_enable",
            "--ckpt.save_hf"} <= set(flags)
    assert ("--algo.kl.use_loss" in flags) == (section.kl_coef > 0)
    # The rows: placeholders whose labels name the role and the run's shared-state actor.
    lines = [json.loads(line) for line in (out / "openrlhf" / "prompts.jsonl").read_text().splitlines()]
    # Headroom for dynamic filtering: at the expected pass rate (a quarter of the groups kept) the rows
    # last the configured steps; designer rows are spread over them so that the steps trained get the
    # reference's designs per step.
    assert row_headroom(config) == 4.0 and section.expected_pass_rate == 0.25
    assert len(lines) == config.run.iterations * section.rollout_batch_size * 4
    labels = [RowLabel.parse(line["label"]) for line in lines]
    designers = [label for label in labels if label.role == "designer"]
    designs_per_step = (0 if section.environments == "fixed"
                        else config.loop.envs_per_iteration / section.designer_every)
    # Rows are whole: the designs a run asks for, to within one row (4B tool use: 16 every 32 of 500 steps).
    assert abs(len(designers) * section.n_samples_per_prompt - designs_per_step * config.run.iterations) \
        < section.n_samples_per_prompt
    # Long sequences and multi-turn histories: ring attention, token-budget micro-batches, prefix caching.
    assert value_of(flags, "--ds.ring_attn_size") == "2" and "--train.dynamic_batch_enable" in flags
    assert value_of(flags, "--train.max_tokens_per_gpu") == "16384" and "--vllm.enable_prefix_caching" in flags
    assert config.openrlhf.enable_thinking is (False if config.model.path == "Qwen/Qwen3-8B" else None)
    assert {label.actor for label in labels} == {state_actor_name(out)}
    assert {label.skill for label in designers} == (set(config.loop.skills) if designers else set())
    written = with_absolute_paths(config)
    assert json.loads((out / "config.json").read_text()) == json.loads(written.model_dump_json())
    assert written.openrlhf.fixed_pool is None or Path(written.openrlhf.fixed_pool).is_absolute()
    if section.environments == "fixed":
        assert "is not a directory here" in output
    assert not (out / "state").exists()  # nothing started


def test_rows_spread_designers_evenly_and_cycle_skills_and_conditions():
    config = load_run_config(REPO_ROOT / "configs" / "recipes" / "qwen3-30b-a3b-games.toml")
    config = config.model_copy(update={"loop": config.loop.model_copy(
        update={"agent_train_conditions": ["hinted", "unhinted"]})})
    labels = plan_rows(config, actor="p", namespace="spade")
    cycle = 4 * 24 * 4  # 4 steps' worth of rows at the expected pass rate of 1/4
    for start in range(0, len(labels), cycle):
        assert sum(label.role == "designer" for label in labels[start:start + cycle]) == 3  # ref: 24 envs / 4 steps
    designers = [label for label in labels if label.role == "designer"]
    assert [label.skill for label in designers[:7]] == [*config.loop.skills, config.loop.skills[0]]
    agents = [label for label in labels if label.role == "agent"]
    assert [label.hinted for label in agents[:4]] == [True, False, True, False]
    assert all(label.samples == 8 for label in labels) and [label.row for label in labels] == list(range(len(labels)))


def test_command_options_follow_the_configuration(tmp_path, known_flags):
    base = json.loads(load_run_config(REPO_ROOT / "configs" / "recipes" / "qwen3-4b-games.toml").model_dump_json())
    base["openrlhf"].update(colocate=False, async_rollouts=True, logger="wandb", kl_coef=0.01, advantage="dr_grpo",
                            importance_correction="off", extra_flags=["--vllm.enforce_eager"])
    config = parse_run_config(base)
    flags = train_flags(config, RunPaths(tmp_path), resume=True)
    assert not [f for f in flags if f.startswith("--") and f not in known_flags]
    assert "--train.async_enable" in flags and "--train.colocate_all" not in flags
    assert value_of(flags, "--algo.advantage.estimator") == "dr_grpo"
    assert value_of(flags, "--ref.num_gpus_per_node") == "8" and "--algo.kl.use_loss" in flags
    assert "--algo.advantage.is_correction_level" not in flags
    assert "--ckpt.load_enable" in flags and flags[-1] == "--vllm.enforce_eager"
    assert "--logger.wandb.project" in flags and "--logger.wandb.key" not in flags  # the driver adds the key


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"loop": {"envs_per_iteration": 20}}, "must be a multiple of openrlhf.n_samples_per_prompt"),
        ({"design": {"language": "signal", "hinter": "design"}}, "design.language = \"python\""),
        ({"sampling": {"designer_temperature": 1.0}}, "designer_temperature equal to sampling.temperature"),
        ({"openrlhf": {"environments": "fixed"}}, "needs openrlhf.fixed_pool"),
        ({"openrlhf": {"async_rollouts": True}}, "set openrlhf.colocate = false"),
        ({"openrlhf": {"vllm_engines": 4}}, "must equal nodes * gpus_per_node"),
        ({"openrlhf": {"typo_key": 1}}, "openrlhf.typo_key"),
        ({"openrlhf": {"importance_correction": "seq"}}, "makes the loss NaN"),
        ({"openrlhf": {"dynamic_batch": False}}, "set openrlhf.dynamic_batch = true"),
        ({"openrlhf": {"packing_samples": False}}, "need packed samples"),
        ({"grpo": {"kl_to_reference": {"designer": 0.1}}}, "grpo.kl_to_reference is an embedded-backend option"),
        ({"grpo": {"entropy_bonus": {"agent": 0.01}}}, "grpo.entropy_bonus is an embedded-backend option"),
        ({"grpo": {"role_epochs": {"designer": 3}}}, "grpo.role_epochs is an embedded-backend option"),
    ],
)
def test_configuration_mistakes_are_one_line_errors(change, message, tmp_path, capsys):
    raw = json.loads(load_run_config(REPO_ROOT / "configs" / "recipes" / "qwen3-4b-games.toml").model_dump_json())
    for section, values in change.items():
        raw[section].update(values)
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(raw))
    code, _ = dry_run(["--config", str(config_file), "--out", str(tmp_path / "run"), "--dry-run"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "run").exists()


def test_command_line_mistakes_are_one_line_errors(tmp_path, capsys):
    recipe = str(REPO_ROOT / "configs" / "recipes" / "qwen3-4b-games.toml")
    embedded = str(REPO_ROOT / "configs" / "embedded.toml")
    out = tmp_path / "run"
    cases = [
        (["--config", embedded, "--out", str(out), "--dry-run"], "--dry-run and --address are for the openrlhf"),
        (["--config", embedded, "--out", str(out), "--set", "run.backend=openrlhf", "--dry-run"], "design.language"),
        (["--config", recipe, "--out", str(out), "--dry-run", "--resume"], "holds no started OpenRLHF run"),
        (["--config", recipe, "--out", str(out), "--address", "http://127.0.0.1:9"], "could not submit"),
    ]
    for argv, message in cases:
        code, _ = dry_run(argv)
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and message in err, (argv, err)
    (out / "state").mkdir()  # the run has started: its shared state has a checkpoint
    code, _ = dry_run(["--config", recipe, "--out", str(out), "--dry-run"])
    assert code == 2 and "pass --resume" in capsys.readouterr().err
    code, output = dry_run(["--config", recipe, "--out", str(out), "--dry-run", "--resume"])
    assert code == 0 and "--ckpt.load_enable" in printed_command(output)


def test_the_driver_checks_flags_and_the_wandb_key_before_starting_ray(tmp_path, capsys):
    recipe = REPO_ROOT / "configs" / "recipes" / "qwen3-4b-games.toml"
    code, _ = dry_run(["--config", str(recipe), "--out", str(tmp_path), "--dry-run"])
    assert code == 0
    cases = [
        (["--run-dir", str(tmp_path), "--", "--actor.model_name_or_path", "x", "--no.such_flag", "1"],
         "has no flag --no.such_flag"),
        (["--run-dir", str(tmp_path), "--wandb-key-env", "SPADE_TEST_UNSET_VARIABLE", "--"], "is not set"),
        (["--run-dir", str(tmp_path)], "after --"),
        (["--run-dir", str(tmp_path / "nowhere"), "--"], "cannot read the run's configuration"),
    ]
    for argv, message in cases:
        assert driver.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, (argv, err)
    flags = driver.with_local_executor(["--train.agent_func_path", "/elsewhere/agent.py", "--rollout.batch_size", "2"])
    assert flags == ["--train.agent_func_path", str(agent_executor_path()), "--rollout.batch_size", "2"]


def test_the_wandb_key_reaches_the_workers_by_environment_and_never_the_arguments(tmp_path, monkeypatch):
    """OpenRLHF prints its arguments and uploads them as the W&B config: the key must not be among them."""
    recipe = REPO_ROOT / "configs" / "recipes" / "qwen3-4b-games.toml"
    assert dry_run(["--config", str(recipe), "--out", str(tmp_path), "--dry-run"])[0] == 0
    secret = "wandb-secret-0123456789abcdef"
    monkeypatch.setenv("SPADE_TEST_WANDB", secret)
    seen: dict[str, Any] = {}

    def train(config: Any, run_dir: Path, flags: list[str], **options: Any) -> int:
        seen.update(flags=flags, **options)
        return 0

    monkeypatch.setattr(driver, "train", train)
    assert driver.main(["--run-dir", str(tmp_path), "--wandb-key-env", "SPADE_TEST_WANDB", "--",
                        "--rollout.batch_size", "2"]) == 0
    assert secret not in " ".join(seen["flags"]) and seen["secrets"] == {"WANDB_API_KEY": secret}
    # OpenRLHF turns W&B on only when the flag is set; W&B reads the key from WANDB_API_KEY and skips login.
    assert value_of(seen["flags"], "--logger.wandb.key") == driver.WANDB_KEY_PLACEHOLDER


def test_row_labels_are_checked():
    label = RowLabel(role="designer", row=3, samples=8, actor="p", namespace="spade", skill="Optimization",
                     kind="multi_turn_game")
    assert RowLabel.parse(label.to_json()) == label and "Optimization" in label.prompt_text()
    for text, message in [("plain text", "not JSON"), ('{"spade": 2, "role": "critic"}', "role"),
                          (RowLabel(role="agent", row=0, samples=2, actor="p", namespace="s").to_json()
                           .replace('"agent"', '"designer"'), "skill and a kind")]:
        with pytest.raises(LabelError, match=message):
            RowLabel.parse(text)


# ---------------------------------------------------------------------- KV-cache sizing (issue 36, item 6)
def test_the_30b_engine_at_half_memory_held_about_six_full_contexts():
    """The issue's own estimate, made by hand: about 190k KV tokens per TP-2 engine at utilization 0.5 for
    Qwen3-30B-A3B (48 layers, 4 KV heads of 128; 30.5B bf16 parameters on 2 x 80 GiB)."""
    config = load_run_config(next(p for p in RECIPES if p.stem == "qwen3-30b-a3b-tool-use"))
    half = config.model_copy(update={"openrlhf": config.openrlhf.model_copy(
        update={"vllm_gpu_memory_utilization": 0.5})})
    sizing = kv_sizing(half)
    assert sizing is not None and 180_000 <= sizing.kv_tokens <= 220_000 and not sizing.fits
    assert sizing.model.kv_bytes_per_token == 2 * 48 * 4 * 128 * 2 and sizing.sequences == 24


def test_a_local_models_shape_is_read_from_its_config(tmp_path):
    from spade_train.backends.openrlhf.sizing import model_shape
    from tests.tiny_model import build_tiny_model

    folder = build_tiny_model(tmp_path / "tiny", hidden_size=64, num_layers=2, num_heads=4)
    config = json.loads((folder / "config.json").read_text())
    shape = model_shape(str(folder))
    assert shape is not None and shape.layers == 2 and shape.kv_heads == config.get("num_key_value_heads", 4)
    assert shape.head_dim == 16 and 0 < shape.parameters < 1e7
    assert model_shape(str(tmp_path / "nowhere")) is None
