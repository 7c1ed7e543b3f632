"""The run directory: where a run leaves everything a person or a resumed run needs.

    config.json       the resolved configuration
    metrics.jsonl     one line of metrics per iteration (appended, flushed, fsynced)
    attempts.jsonl    one line per design attempt: kind, skill, verdict, regret, hint
    memory.sqlite3    the environment memory (WAL)
    pool/             the exported environment pool (environments.jsonl + manifest.json)
    plots/curves.png  learning curves
    checkpoints/latest  model, tokenizer, optimizer and loop state of the last finished iteration (run)
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from spade_envs.fileio import write_atomically
from spade_train.loop import IterationResult


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in asdict(value).items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _step_of(line: str) -> int:
    try:
        return int(json.loads(line).get("step", 0))
    except (ValueError, AttributeError):
        return 1 << 62  # a torn last line (the process died mid-write) is dropped


class RunDirectory:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)

    @property
    def memory_path(self) -> Path:
        return self.path / "memory.sqlite3"

    @property
    def pool_path(self) -> Path:
        return self.path / "pool"

    @property
    def plot_path(self) -> Path:
        return self.path / "plots" / "curves.png"

    def write_config(self, config: Any) -> None:
        write_atomically(self.path / "config.json", json.dumps(_plain(config), indent=2, sort_keys=True) + "\n")

    def _append(self, name: str, rows: list[dict[str, Any]]) -> None:
        with open(self.path / name, "a", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row) + "\n" for row in rows)
            handle.flush()
            os.fsync(handle.fileno())  # a killed run keeps every finished iteration

    def truncate_records(self, after_step: int) -> None:
        """Drop metric and attempt lines of iterations after ``after_step`` (a resume redoes them)."""
        for name in ("metrics.jsonl", "attempts.jsonl"):
            path = self.path / name
            if not path.exists():
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            kept = [line for line in lines if line.strip() and _step_of(line) <= after_step]
            if len(kept) != len(lines):
                write_atomically(path, "".join(line + "\n" for line in kept))

    def record(self, result: IterationResult, extra: dict[str, float] | None = None) -> dict[str, Any]:
        row = {"step": result.step, "seconds": round(result.seconds, 3), **result.metrics, **(extra or {})}
        self._append("metrics.jsonl", [row])
        self._append("attempts.jsonl", [
            {
                "step": result.step, "kind": a.kind, "skill": a.skill, "valid": a.valid,
                "env_id": a.spec.id if a.spec else None, "rejection": a.rejection, "repairs": a.repairs,
                "failures": [f.check for f in a.report.failures] if a.report else [],
                "hint": a.hint.hint if a.hint else None, "hint_accepted": a.hint.accepted if a.hint else None,
                "regret": a.regret, "regret_ci": list(a.regret_ci) if a.regret_ci else None,
                "raw_reward": a.raw_reward, "reward": a.reward,
            }
            for a in result.attempts
        ])
        return row

    def metrics(self) -> list[dict[str, Any]]:
        path = self.path / "metrics.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
