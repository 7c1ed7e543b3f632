"""The ``train_ppo_ray`` command of a run, and the check that every flag in it exists.

OpenRLHF renames flags between patch releases (0.11.0's ``is_correction_enable`` became 0.11.2's
``is_correction_level``), and an unknown flag only fails once a cluster has started. So the command is
checked against the parser of the installed OpenRLHF before anything launches. That parser lives under
``if __name__ == "__main__":`` in ``openrlhf/cli/train_ppo_ray.py`` and its module imports vLLM, so it
can be neither called nor imported here: ``parser_flags`` reads the ``add_argument`` calls from the
file's syntax tree instead (including the f-string flags its loops generate).

The pinned version is ``OPENRLHF_VERSION``; the Makefile and the docs use the same one.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from spade_train.backends.openrlhf.data import INPUT_KEY, LABEL_KEY
from spade_train.config.sections import RunConfig

OPENRLHF_VERSION = "0.11.2"
TRAIN_MODULE = "openrlhf.cli.train_ppo_ray"
DYNAMIC_FILTERING_RANGE = (0.0, 1.0)
"""Open range for a group's mean score: agent groups that all win or all lose, and designer groups that
produced nothing usable (or are not trained), fall outside it and are dropped."""


@dataclass(frozen=True)
class RunPaths:
    """Where a run's files live; every path is absolute (the cluster's nodes must see the same paths)."""

    run_dir: Path

    @property
    def work(self) -> Path:
        return self.run_dir / "openrlhf"

    @property
    def data(self) -> Path:
        return self.work / "prompts.jsonl"

    @property
    def checkpoints(self) -> Path:
        return self.work / "ckpt"

    @property
    def model_out(self) -> Path:
        return self.work / "model"

    @property
    def tensorboard(self) -> Path:
        return self.work / "tensorboard"

    @property
    def config(self) -> Path:
        return self.run_dir / "config.json"


def agent_executor_path() -> Path:
    """The file OpenRLHF loads with ``--train.agent_func_path`` (shipped inside this package)."""
    return Path(__file__).resolve().with_name("agent_executor.py")


def train_flags(config: RunConfig, paths: RunPaths, *, resume: bool = False) -> list[str]:
    """The ``train_ppo_ray`` arguments for ``config`` (the W&B key is added by the driver, never here)."""
    flags = [*_layout_flags(config), *_data_flags(config, paths), *_update_flags(config),
             *_checkpoint_flags(config, paths), *_optional_flags(config, paths)]
    if resume:
        flags += ["--ckpt.load_enable"]
    return flags + list(config.openrlhf.extra_flags)


def _layout_flags(config: RunConfig) -> list[str]:
    """The model and where it runs: nodes, GPUs, rollout engines."""
    section = config.openrlhf
    assert config.model.path is not None, "validated by RunConfig for the openrlhf backend"
    return [
        "--actor.model_name_or_path", config.model.path,
        "--actor.num_nodes", str(section.nodes),
        "--actor.num_gpus_per_node", str(section.gpus_per_node),
        "--vllm.num_engines", str(section.vllm_engines),
        "--vllm.tensor_parallel_size", str(section.vllm_tensor_parallel),
        "--vllm.gpu_memory_utilization", str(section.vllm_gpu_memory_utilization),
        "--train.agent_func_path", str(agent_executor_path()),
    ]


def _data_flags(config: RunConfig, paths: RunPaths) -> list[str]:
    """The prompt rows and the shape of a step's batch."""
    section, grpo = config.openrlhf, config.grpo
    samples_per_step = section.rollout_batch_size * section.n_samples_per_prompt
    return [
        "--data.prompt_dataset", str(paths.data),
        "--data.input_key", INPUT_KEY,
        "--data.label_key", LABEL_KEY,
        "--data.max_len", str(section.max_len),
        "--rollout.batch_size", str(section.rollout_batch_size),
        "--rollout.n_samples_per_prompt", str(section.n_samples_per_prompt),
        "--rollout.temperature", str(config.sampling.temperature),
        "--rollout.micro_batch_size", str(grpo.micro_batch),
        "--train.batch_size", str(grpo.mini_batch or samples_per_step),
        "--train.micro_batch_size", str(grpo.micro_batch),
        "--train.max_epochs", str(grpo.epochs),
        "--train.num_episodes", "1",
        "--train.seed", str(config.run.seed),
    ]


def _update_flags(config: RunConfig) -> list[str]:
    """The policy update: advantages, optimizer, clipping, KL, DeepSpeed."""
    section, grpo = config.openrlhf, config.grpo
    return [
        "--algo.advantage.estimator", "dr_grpo" if section.advantage == "release" else section.advantage,
        "--actor.adam.lr", str(grpo.learning_rate),
        "--actor.eps_clip_low_high", str(grpo.clip_low), str(grpo.clip_high),
        "--actor.max_norm", str(grpo.max_grad_norm),
        "--actor.lr_scheduler", "constant_with_warmup",
        "--actor.lr_warmup_ratio", "0.0",
        "--algo.kl.init_coef", str(section.kl_coef),
        "--ds.zero_stage", str(section.zero_stage),
        "--ds.param_dtype", "bf16",
    ]


def _checkpoint_flags(config: RunConfig, paths: RunPaths) -> list[str]:
    return [
        "--ckpt.path", str(paths.checkpoints),
        "--ckpt.save_steps", str(config.run.checkpoint_every),
        "--ckpt.output_dir", str(paths.model_out),
        "--ckpt.save_hf",
        "--logger.logging_steps", "1",
    ]


def _optional_flags(config: RunConfig, paths: RunPaths) -> list[str]:
    """The flags that only some settings add, in a fixed order."""
    section = config.openrlhf
    flags: list[str] = []
    if section.colocate:
        flags += ["--train.colocate_all", "--vllm.enable_sleep", "--ds.enable_sleep"]
    if section.async_rollouts:
        flags += ["--train.async_enable"]
    # Always on: it is how groups that must not be trained (faults, untrained designer rows, left-over rows)
    # are left out; zero-variance groups are dropped by it only with grpo.drop_zero_variance (their score).
    low, high = DYNAMIC_FILTERING_RANGE
    flags += ["--algo.dynamic_filtering_enable", "--algo.dynamic_filtering_range", str(low), str(high)]
    if section.kl_coef > 0:
        flags += ["--algo.kl.use_loss", "--algo.kl.estimator", "k3",
                  "--ref.num_nodes", str(section.nodes), "--ref.num_gpus_per_node", str(section.gpus_per_node)]
    if section.importance_correction != "off":
        flags += ["--algo.advantage.is_correction_level", section.importance_correction,
                  "--algo.advantage.is_correction_mode", section.importance_mode,
                  "--algo.advantage.is_correction_threshold", "0.0", str(section.importance_cap)]
    if section.gradient_checkpointing:
        flags += ["--actor.gradient_checkpointing_enable"]
    if section.adam_offload:
        flags += ["--ds.adam_offload"]
    if section.packing_samples:
        flags += ["--ds.packing_samples"]
    if section.ring_attn_size > 1:
        flags += ["--ds.ring_attn_size", str(section.ring_attn_size)]
    if section.dynamic_batch:
        flags += ["--train.dynamic_batch_enable"]
        if section.max_tokens_per_gpu is not None:
            flags += ["--train.max_tokens_per_gpu", str(section.max_tokens_per_gpu),
                      "--rollout.max_tokens_per_gpu", str(section.max_tokens_per_gpu)]
    if section.prefix_caching:
        flags += ["--vllm.enable_prefix_caching"]
    if section.logger == "tensorboard":
        flags += ["--logger.tensorboard_dir", str(paths.tensorboard)]
    else:
        flags += ["--logger.wandb.project", section.wandb_project, "--logger.wandb.run_name", paths.run_dir.name]
    return flags


# ---------------------------------------------------------------------------------- flag checking
def installed_train_script() -> Path | None:
    """``openrlhf/cli/train_ppo_ray.py`` of the installed OpenRLHF, found without importing it."""
    spec = importlib.util.find_spec("openrlhf")
    if spec is None or not spec.submodule_search_locations:
        return None
    script = Path(next(iter(spec.submodule_search_locations))) / "cli" / "train_ppo_ray.py"
    return script if script.is_file() else None


def installed_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("openrlhf")
    except PackageNotFoundError:
        return None


def parser_flags(script: Path) -> frozenset[str]:
    """Every option string passed to ``add_argument`` in ``script``.

    F-strings are expanded over the tuple their enclosing ``for`` loop iterates, which is how
    train_ppo_ray declares its per-model optimizer flags (``f"--{prefix}.adam.lr"``).
    """
    tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
    flags: set[str] = set()

    def visit(node: ast.AST, bindings: dict[str, tuple[str, ...]]) -> None:
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and isinstance(node.iter, ast.Tuple):
            values = tuple(e.value for e in node.iter.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
            bindings = {**bindings, node.target.id: values}
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "add_argument"):
            for argument in node.args:
                flags.update(_strings(argument, bindings))
        for child in ast.iter_child_nodes(node):
            visit(child, bindings)

    visit(tree, {})
    return frozenset(flag for flag in flags if flag.startswith("-"))


def _strings(node: ast.AST, bindings: dict[str, tuple[str, ...]]) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if not isinstance(node, ast.JoinedStr):
        return []
    parts: list[tuple[str, ...]] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append((str(value.value),))
        elif (isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name)
              and value.value.id in bindings):
            parts.append(bindings[value.value.id])
        else:
            return []
    return ["".join(combination) for combination in product(*parts)]


def unknown_flags(arguments: Iterable[str], known: frozenset[str]) -> list[str]:
    """The option strings in ``arguments`` that ``known`` lacks (values are skipped; negative numbers too)."""
    unknown = []
    for argument in arguments:
        if argument.startswith("--") and argument.split("=", 1)[0] not in known:
            unknown.append(argument)
    return unknown
