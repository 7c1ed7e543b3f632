"""Throughput of the validation gate over the bundled library, next to the SPADE release's check.

Three measurements, on the same environments:

* the full gate (static + contract + feasibility + fuzz with ``--examples`` Hypothesis examples)
  through the wasm sandbox, with 1 worker process and with one per core;
* a SPADE-sized batch: 24 environments (the library repeated) through the full gate, all cores;
* the SPADE release's gate: exec the code in the trainer's own process, reset(seed=42), three probe
  actions (\\boxed{1}, \\boxed{test}, \\boxed{42}) checked for a typed 5-tuple with reward in
  [-10, 10], then reset(seed=123). No sandbox, no solution replay, no fuzzing.

    python benchmarks/gate_bench.py                 # table on stdout, JSON in benchmarks/results/gate.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from spade_envs.checks.batch import ValidationJob, validate_many
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.contract.tool_use import ToolUseBaseEnv
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.fileio import write_atomically
from spade_envs.registry import bundled_registry
from spade_envs.runtime.limits import ExecutionLimits

RESULTS = Path(__file__).resolve().parent / "results" / "gate.json"
REFERENCE_PROBES = ("\\boxed{1}", "\\boxed{test}", "\\boxed{42}")


def reference_check(source: str) -> bool:
    """The SPADE release's validation, re-implemented from its description (in-process exec)."""
    namespace: dict[str, Any] = {"ToolUseBaseEnv": ToolUseBaseEnv, "__name__": "reference_env"}
    exec(compile(source, "<env>", "exec"), namespace)  # noqa: S102 -- this is what the reference does
    env_class = next(v for k, v in namespace.items() if isinstance(v, type) and k.endswith("Env")
                     and k != "ToolUseBaseEnv" and v.__module__ == "reference_env")
    env = env_class()
    obs, info = env.reset(seed=42)
    if not (isinstance(obs, str) and obs and isinstance(info, dict)):
        return False
    for probe in REFERENCE_PROBES:
        result = env.step(probe)
        if not (isinstance(result, tuple) and len(result) == 5):
            return False
        _, reward, terminated, truncated, _ = result
        if not (isinstance(reward, (int, float)) and math.isfinite(reward) and -10 <= reward <= 10):
            return False
        if terminated or truncated:
            env.reset(seed=42)
    env.reset(seed=123)
    return True


def run_gate(jobs: list[ValidationJob], workers: int, examples: int) -> dict[str, Any]:
    config = ValidatorConfig(fuzz=FuzzConfig(examples=examples))
    started = time.perf_counter()
    reports = list(validate_many(jobs, "wasm", ExecutionLimits(), config, workers=workers))
    seconds = time.perf_counter() - started
    tiers: dict[str, float] = {}
    for report in reports:
        for tier in report.tiers:
            tiers[tier.tier] = tiers.get(tier.tier, 0.0) + tier.duration_ms / 1000
    return {
        "environments": len(jobs),
        "workers": workers,
        "valid": sum(r.ok for r in reports),
        "seconds": round(seconds, 3),
        "environments_per_s": round(len(jobs) / seconds, 2),
        "tier_seconds_total": {k: round(v, 3) for k, v in tiers.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100, help="fuzz examples per environment")
    parser.add_argument("--batch", type=int, default=24, help="size of the SPADE-style batch")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    entries = list(bundled_registry())
    jobs = [ValidationJob(e.name, e.source(), e.class_name) for e in entries]
    cores = os.cpu_count() or 1
    rows: dict[str, Any] = {}
    print(f"full gate, 1 worker, {len(jobs)} environments ...", file=sys.stderr, flush=True)
    rows["full_gate_1_worker"] = run_gate(jobs, 1, args.examples)
    print(f"full gate, {cores} workers ...", file=sys.stderr, flush=True)
    rows["full_gate_all_cores"] = run_gate(jobs, cores, args.examples)
    batch = [jobs[i % len(jobs)] for i in range(args.batch)]
    print(f"SPADE batch of {args.batch}, {cores} workers ...", file=sys.stderr, flush=True)
    rows["spade_batch"] = run_gate(batch, cores, args.examples)

    started = time.perf_counter()
    passed = sum(reference_check(e.source()) for e in entries)
    seconds = time.perf_counter() - started
    rows["reference_three_probes_inprocess"] = {
        "environments": len(entries), "valid": passed, "seconds": round(seconds, 4),
        "environments_per_s": round(len(entries) / seconds, 1),
    }

    print(f"\n{'gate':<36}{'envs':>6}{'workers':>9}{'seconds':>10}{'envs/s':>9}")
    for name, row in rows.items():
        print(f"{name:<36}{row['environments']:>6}{row.get('workers', 1):>9}{row['seconds']:>10}"
              f"{row['environments_per_s']:>9}")
    print(f"\ntier seconds (1 worker): {rows['full_gate_1_worker']['tier_seconds_total']}")
    target = rows["spade_batch"]["seconds"]
    print(f"target: 24 environments in under 5 s -> {target} s ({'met' if target < 5 else 'not met'})")
    document = {"machine": {"python": platform.python_version(), "cpus": cores, "platform": platform.platform()},
                "fuzz_examples": args.examples, "results": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(document, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
