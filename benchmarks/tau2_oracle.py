"""tau2-bench through spade-eval with a scripted agent and user that play each task's expected actions.

What it measures: whether everything between a model's text and tau2's verdict (tau2's prompts reaching
the models, replies read into tau2 messages, the agent's and the user's tool calls routed to the right
side, tau2's orchestrator and evaluator, the pass^k metric, the results document and the report) lets a
dialogue that does exactly the right thing score 1. ``spade_eval.suites.tau2_bench.oracle`` plays it;
every task of every domain runs once, one task at a time (the oracle's two sides share a cursor), with
``spade-eval``'s own runner, so the output is a real ``results.json`` and ``report.html``.

A task scores below 1 when its expected end state cannot be reached by its expected actions alone (the
mock domain has one whose end state is given only by an assertion) or when the harness loses something
on the way; the script lists each such task with what tau2's checks found.

Run: ``python benchmarks/tau2_oracle.py [--domains airline retail telecom mock] [--limit N]``. Prints the
table; writes the run (results.json, report.html, report.md) to ``runs/tau2-oracle/`` (``--out``), and the
per-domain figures and timings to ``benchmarks/results/tau2_oracle.json`` with a copy of the report's
markdown beside it (``tau2_oracle_report.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from spade_eval.benchmark import EvalItem, EvalSettings, Generate, ItemRecord
from spade_eval.models import ModelHandle
from spade_eval.report import labels_for, render_markdown, write_report
from spade_eval.results import RunSettings
from spade_eval.runner import run_benchmarks
from spade_eval.suites.tau2_bench import DOMAINS, Tau2Benchmark
from spade_eval.suites.tau2_bench.oracle import OracleScript
from spade_train.policies.base import SamplingParams

RESULTS = Path(__file__).parent / "results"


class OracleRun:
    """A tau2 benchmark whose every item first tells the oracle which task it is playing."""

    def __init__(self, benchmark: Tau2Benchmark, oracle: OracleScript) -> None:
        self._benchmark, self._oracle = benchmark, oracle

    def __getattr__(self, name: str) -> Any:
        return getattr(self._benchmark, name)

    async def run_item(self, item: EvalItem, generate: Generate, sampling: SamplingParams, samples: int) -> ItemRecord:
        self._oracle.begin(item.payload)
        return await self._benchmark.run_item(item, generate, sampling, samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS), choices=DOMAINS)
    parser.add_argument("--limit", type=int, help="first N tasks of each domain")
    parser.add_argument("--out", type=Path, default=Path("runs") / "tau2-oracle", help="run directory")
    args = parser.parse_args()

    oracle = OracleScript()
    settings = EvalSettings(suite="tool_use", user_simulator=oracle.user, concurrency=1, limit=args.limit)
    runs = [OracleRun(Tau2Benchmark(domain, oracle.user, concurrency=1), oracle) for domain in args.domains]
    model = ModelHandle(policy=oracle.agent, spec="scripted", kind="scripted", name=oracle.agent.name,
                        fingerprint="tau2-oracle")
    record = RunSettings.of(settings, [run.name for run in runs], ran_code=False)
    out: Path = args.out
    start = time.monotonic()
    results = asyncio.run(run_benchmarks([(run, None) for run in runs], model, settings, record,
                                         out / "results.json", sys.stderr))
    elapsed = time.monotonic() - start
    labels = labels_for([results], [out / "results.json"])
    write_report([results], out, [out / "results.json"], labels)
    table = render_markdown([results], labels)
    print(table)

    summary: dict[str, Any] = {"seconds": round(elapsed, 1), "domains": {}}
    for bench in results.benchmarks:
        below = [{"task": item.id, **item.samples[0].details} for item in bench.items if item.score < 1]
        summary["domains"][bench.name] = {
            "tasks": bench.n_items, "reward": round(bench.score, 4), "pass_hat_1": bench.metrics.get("pass_hat_1"),
            "seconds": bench.duration_s, "below_one": below,
        }
        print(f"{bench.name}: {bench.score * bench.n_items:.0f} of {bench.n_items} tasks scored 1 "
              f"({bench.duration_s:.1f} s)")
        for task in below:
            print(f"  {task['task']}: {json.dumps({k: v for k, v in task.items() if k != 'task'})}")
    (RESULTS / "tau2_oracle.json").write_text(json.dumps(summary, indent=1) + "\n")
    (RESULTS / "tau2_oracle_report.md").write_text(table)
    print(f"report: {out / 'report.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
