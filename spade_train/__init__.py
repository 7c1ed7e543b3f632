"""SPADE self-play training: one model writes environments (the designer) and learns in them (the agent).

Read it top to bottom in this order; each name below is importable from ``spade_train`` itself:

- ``config``: ``RunConfig``, every setting of a run in one validated document, read from TOML or JSON
  with ``--set key=value`` overrides (``load_run_config``);
- ``policies``: the one ``Policy`` protocol every model client implements, the model-spec parser
  (``load_policy``: server URLs, checkpoints, vLLM) and ``Policies``, which model plays which role;
- ``designer``: designer prompts, the reply parser, the design languages (python, and the embedded
  signal language) and the skills;
- ``loop``: ``attempt_design``, the whole path of one environment (designer reply, checker, hint, paired
  rollouts, regret) as a frozen ``DesignAttempt``, and ``SelfPlayLoop``, an iteration of them, scored
  per skill and written to the memory;
- the building blocks the loop uses: ``rollout`` (episodes), ``hints``, ``rewards`` (regret and designer
  rewards), ``advantages``, ``memory`` (SQLite), ``corpus``, ``environments`` (``EnvironmentRecord``, the
  frozen spec and code every part carries, and ``load_environments``), ``similarity``;
- ``run``: ``SelfPlayRun``, the one driver of both commands (with a ``Trainer``, or none to only play),
  and the run directory;
- ``backends``: ``embedded`` (a GRPO trainer on CPU, the tiny model and its warm-up) and ``openrlhf``
  (OpenRLHF's Ray trainer on GPU clusters, with the same design attempt in its agent executor);
- ``cli``: ``spade-train run`` and ``spade-train generate-pool``.

An inference-only run against a model server, as ``spade-train generate-pool`` does it::

    import asyncio
    from pathlib import Path
    from spade_train import RunDirectory, SelfPlayRun, inference_policies, load_run_config

    config = load_run_config(Path("configs/endpoint.toml"), ["policies.designer=http://127.0.0.1:8000/v1"])
    directory = RunDirectory.open(Path("runs/pool1"), resume=False)
    asyncio.run(SelfPlayRun(config, inference_policies(config), directory=directory).run())

Nothing here is imported by ``spade_envs``. Names are loaded on first use, so importing ``spade_train``
costs nothing until one is used.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ConfigError": "spade_train.config",
    "RunConfig": "spade_train.config",
    "load_run_config": "spade_train.config",
    "override_config": "spade_train.config",
    "parse_run_config": "spade_train.config",
    "GenerationRequest": "spade_train.policies.base",
    "Generation": "spade_train.policies.base",
    "Policy": "spade_train.policies.base",
    "SamplingParams": "spade_train.policies.base",
    "load_policy": "spade_train.policies.factory",
    "resolve_spec": "spade_train.policies.factory",
    "Policies": "spade_train.policies.roles",
    "inference_policies": "spade_train.policies.roles",
    "DesignAttempt": "spade_train.loop.design",
    "DesignContext": "spade_train.loop.design",
    "DesignPlan": "spade_train.loop.design",
    "Outcome": "spade_train.loop.design",
    "attempt_design": "spade_train.loop.design",
    "IterationResult": "spade_train.loop.iteration",
    "SelfPlayLoop": "spade_train.loop.iteration",
    "AttemptSummary": "spade_train.loop.summary",
    "EnvironmentRecord": "spade_train.environments",
    "load_environments": "spade_train.environments",
    "EnvironmentMemory": "spade_train.memory",
    "Corpus": "spade_train.corpus",
    "RunDirectory": "spade_train.run.directory",
    "RunFailed": "spade_train.run.driver",
    "RunSummary": "spade_train.run.driver",
    "SelfPlayRun": "spade_train.run.driver",
    "Trainer": "spade_train.run.driver",
    "EmbeddedTrainer": "spade_train.backends.embedded.trainer",
}

__all__ = tuple(sorted(_EXPORTS))


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'spade_train' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)


def __dir__() -> list[str]:
    return __all__
