"""Math benchmarks: AIME 2024/2025 (and 2026 when the user supplies it), AMC 2023, MATH-500, Minerva,
OlympiadBench, as lm-eval tasks over local files scored with math-verify (see ``lm_eval_bridge``).

Sampling defaults are read from each task file: AIME is pass@1 over 64 samples at T=1.0, top-p 0.95,
top-k 20 (the paper's setting); the others one sample at T=0.6, top-p 0.95. ``--samples`` and the
sampling options override them.
"""

from __future__ import annotations

from spade_eval.benchmark import BenchmarkFactory, EvalOptions
from spade_eval.suites.lm_eval_bridge import LmEvalBenchmark, sampling_from_task

USER_SUPPLIED = frozenset({"aime26"})
MATH_BENCHMARKS = ("aime24", "aime25", "aime26", "amc23", "math500", "minerva_math", "olympiadbench")


def _factory(name: str) -> BenchmarkFactory:
    def build(options: EvalOptions) -> LmEvalBenchmark:
        sampling, samples = sampling_from_task(f"spade_{name}")
        return LmEvalBenchmark(
            name=name,
            task_name=f"spade_{name}",
            sampling=sampling,
            samples=samples,
            user_supplied_data=name in USER_SUPPLIED,
        )

    return build


BENCHMARKS: dict[str, BenchmarkFactory] = {name: _factory(name) for name in MATH_BENCHMARKS}
