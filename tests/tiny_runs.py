"""The smallest embedded runs that still play: a tiny model, a short warm-up and a few designs.

``tiny_run_config(directory, **changes)`` writes one as a JSON run configuration and returns its path;
``changes`` set dotted keys (``tiny_run_config(d, **{"run.seed": 1})``). The tests of the embedded run,
of resuming it and ``benchmarks/damaged_runs.py`` all start from this one configuration, so that a
change of what "tiny" means is made once.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

TINY_RUN: dict[str, Any] = {
    "run": {"iterations": 2, "sandbox": "wasm", "torch_threads": 1},
    "model": {"tiny": {"hidden_size": 32, "num_layers": 1, "num_heads": 2}},
    "warmup": {"agent_steps": 40, "designer_steps": 60, "batch_size": 16},
    "loop": {"envs_per_iteration": 4, "episodes_per_condition": 2, "validation_workers": 0},
    "grpo": {"drop_zero_variance": False, "kl_to_reference": {"designer": 0.1}},
    "probe": {"designer_samples": 6, "uniform_designs": 4, "episodes_per_condition": 2, "resamples": 200},
}
RESUMED_RUN = {"run.seed": 1, "loop.envs_per_iteration": 6, "probe.at_end": False}
"""The changes of the runs that resume tests damage, kill and resume: a seed and designs enough that
every iteration stores environments in the memory."""


def tiny_run_config(directory: Path, name: str = "tiny", **changes: Any) -> Path:
    """``TINY_RUN`` with ``changes`` (dotted keys) written to ``directory/name.json``."""
    data = copy.deepcopy(TINY_RUN)
    for key, value in changes.items():
        *tables, last = key.split(".")
        table = data
        for part in tables:
            table = table.setdefault(part, {})
        table[last] = value
    path = directory / f"{name}.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
