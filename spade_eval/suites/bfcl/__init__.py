"""BFCL-v4 (Berkeley Function-Calling Leaderboard) through the ``bfcl-eval`` package.

Data, ground truth, simulated multi-turn APIs and checkers come from the ``bfcl-eval`` wheel, installed
without its heavy dependencies (see ``library``); the generation loop is ours (``multi_turn``,
``single_turn``). Categories: the four multi-turn ones (base, miss_func, miss_param, long_context) and
the non-live and live single-turn ones. Benchmarks are named ``bfcl_<category>`` and run in
function-calling mode, or prompting mode with ``EvalOptions.tool_call_format = "prompt"``
(``spade-eval run --tool-call-format prompt``).
``bfcl_overall`` (in ``aggregate``) combines per-category scores as the leaderboard does.
"""

from __future__ import annotations

from spade_eval.benchmark import Benchmark, BenchmarkFactory, EvalOptions
from spade_eval.suites.bfcl.aggregate import bfcl_overall
from spade_eval.suites.bfcl.categories import MULTI_TURN, SINGLE_TURN, benchmark_name
from spade_eval.suites.bfcl.multi_turn import MultiTurnBenchmark
from spade_eval.suites.bfcl.prompting import Mode
from spade_eval.suites.bfcl.single_turn import SingleTurnBenchmark

__all__ = ["BENCHMARKS", "bfcl_overall", "make_benchmarks"]


def make_benchmarks(mode: Mode | None = None) -> dict[str, BenchmarkFactory]:
    """Factories for every category: in ``mode`` (``fc``: function calling, ``prompt``: prompting), or,
    when None, in the mode the run's options ask for (``EvalOptions.tool_call_format``)."""

    def multi_turn(category: str) -> BenchmarkFactory:
        def factory(options: EvalOptions) -> Benchmark:
            return MultiTurnBenchmark(category, mode or options.tool_call_format)

        return factory

    def single_turn(category: str) -> BenchmarkFactory:
        def factory(options: EvalOptions) -> Benchmark:
            return SingleTurnBenchmark(category, mode or options.tool_call_format)

        return factory

    factories = {benchmark_name(category): multi_turn(category) for category in MULTI_TURN}
    factories.update({benchmark_name(category): single_turn(category) for category in SINGLE_TURN})
    return factories


BENCHMARKS: dict[str, BenchmarkFactory] = make_benchmarks()
