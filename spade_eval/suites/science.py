"""GPQA-Diamond from a user-supplied file, as an lm-eval task scored on the letter of the reply's final
answer (``math_data.score_choice``, which reads it with ``answers.extract_choice``).

GPQA's authors ask that the questions not be posted in plain text, so nothing here ships them: put the
official ``gpqa_diamond.csv`` at ``DATA_DIR/science/gpqa_diamond.csv`` (or a JSONL with the same
columns). The four options are shuffled with a seed derived from each record's id, so every run and
every model sees the same letters. Paper setting: avg@8 at T=0.7.
"""

from __future__ import annotations

from spade_eval.benchmark import BenchmarkFactory, EvalOptions
from spade_eval.suites.lm_eval_bridge import LmEvalBenchmark, sampling_from_task


def _gpqa(options: EvalOptions) -> LmEvalBenchmark:
    sampling, samples = sampling_from_task("spade_gpqa_diamond")
    return LmEvalBenchmark(
        name="gpqa_diamond",
        task_name="spade_gpqa_diamond",
        sampling=sampling,
        samples=samples,
        user_supplied_data=True,
    )


BENCHMARKS: dict[str, BenchmarkFactory] = {"gpqa_diamond": _gpqa}
