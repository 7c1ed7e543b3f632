"""The role-tagged prompt data of a run: how many designer and agent rows, and in which roles.

OpenRLHF shuffles its prompt rows, so what the data fixes is the *mix*: on average,
``loop.envs_per_iteration`` new environments every ``openrlhf.designer_every`` steps (the reference:
24 every 4 steps, 8 for tool use). Each designer row yields ``n_samples_per_prompt`` designs, so a cycle
of ``designer_every * rollout_batch_size * row_headroom`` rows (what that many steps consume when
dynamic filtering drops groups) holds ``envs_per_iteration / n_samples_per_prompt`` designer rows,
spread evenly; the rest are agent rows. Designer rows cycle through kinds and skills in
the loop's order; agent rows through ``loop.agent_train_conditions``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from spade_envs.fileio import write_atomically
from spade_train.backends.openrlhf.labels import RowLabel
from spade_train.config.sections import RunConfig

INPUT_KEY = "prompt"
LABEL_KEY = "label"


@dataclass(frozen=True)
class RowCounts:
    total: int
    designer: int
    agent: int


def row_headroom(config: RunConfig) -> float:
    """Rows per trained group: ``openrlhf.row_headroom``, or 1 / ``expected_pass_rate`` (each group dynamic
    filtering drops consumes a row)."""
    section = config.openrlhf
    if section.row_headroom is not None:
        return section.row_headroom
    return 1.0 / section.expected_pass_rate


def row_count(config: RunConfig) -> int:
    """Rows written: enough for ``run.iterations`` steps at the expected pass rate (see ``row_headroom``)."""
    return math.ceil(config.run.iterations * config.openrlhf.rollout_batch_size * row_headroom(config))


def designer_rows_per_cycle(config: RunConfig) -> int:
    """Designer rows in every cycle of ``designer_every * rollout_batch_size`` rows (0 for fixed environments)."""
    if config.openrlhf.environments == "fixed":
        return 0
    return config.loop.envs_per_iteration // config.openrlhf.n_samples_per_prompt


def plan_rows(config: RunConfig, *, actor: str, namespace: str) -> list[RowLabel]:
    """The labels of every row, in file order."""
    section, loop = config.openrlhf, config.loop
    # A cycle is designer_every steps' worth of rows, headroom included: rows are consumed at that rate.
    cycle = max(1, round(section.designer_every * section.rollout_batch_size * row_headroom(config)))
    per_cycle = min(designer_rows_per_cycle(config), cycle)
    designer_slots = {math.floor((j + 0.5) * cycle / per_cycle) for j in range(per_cycle)}
    conditions = loop.agent_train_conditions
    labels: list[RowLabel] = []
    designs = agents = 0
    for row in range(row_count(config)):
        common = {"row": row, "samples": section.n_samples_per_prompt, "actor": actor, "namespace": namespace}
        if row % cycle in designer_slots:
            kind = loop.kinds[designs % len(loop.kinds)]
            skill = loop.skills[(designs // len(loop.kinds)) % len(loop.skills)]
            labels.append(RowLabel(role="designer", kind=kind, skill=skill, **common))
            designs += 1
        else:
            labels.append(RowLabel(role="agent", hinted=conditions[agents % len(conditions)] == "hinted", **common))
            agents += 1
    return labels


def write_prompt_data(path: Path, labels: list[RowLabel]) -> RowCounts:
    """Write the rows as JSON Lines (``prompt``, ``label``), atomically; returns the counts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({INPUT_KEY: label.prompt_text(), LABEL_KEY: label.to_json()}) for label in labels]
    write_atomically(path, "".join(line + "\n" for line in lines))
    designer = sum(label.role == "designer" for label in labels)
    return RowCounts(total=len(labels), designer=designer, agent=len(labels) - designer)
