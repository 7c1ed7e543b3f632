"""ACEBench (arXiv 2501.12851): normal, special and agent tool-use categories, from local data.

The data comes from ``--data-dir`` (see ``data``); the scorers (``checker``), the scenario classes the
agent categories act on (``scenarios``: BaseApi, MessageApi, ReminderApi, FoodPlatform, Travel), the
prompts and the dialogue loop with its simulated user (``agent``) are this project's own, written from
the data and the paper. Benchmarks are named ``acebench_<category>``; ``acebench_overall`` (in
``aggregate``) weighs normal, special and agent 0.578 / 0.2676 / 0.1545 as ACEBench does.
"""

from __future__ import annotations

from spade_eval.benchmark import Benchmark, BenchmarkFactory, EvalOptions
from spade_eval.suites.acebench.agent import AgentBenchmark
from spade_eval.suites.acebench.aggregate import acebench_overall
from spade_eval.suites.acebench.categories import AGENT, NORMAL, SPECIAL, benchmark_name
from spade_eval.suites.acebench.single_step import NormalBenchmark, SpecialBenchmark

__all__ = ["BENCHMARKS", "acebench_overall"]


def _factory(category: str) -> BenchmarkFactory:
    def build(options: EvalOptions) -> Benchmark:
        if category in AGENT:
            return AgentBenchmark(category, options.user_simulator)
        if category in SPECIAL:
            return SpecialBenchmark(category)
        return NormalBenchmark(category)

    return build


BENCHMARKS: dict[str, BenchmarkFactory] = {
    benchmark_name(category): _factory(category) for category in (*NORMAL, *SPECIAL, *AGENT)
}
