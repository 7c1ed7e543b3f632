"""Summary numbers across benchmarks, combined the way each benchmark family's own table combines them.

A suite average (the report's last rows) treats every benchmark alike; BFCL-v4 and ACEBench each define
their own overall score (leaderboard sections with weights; 0.578 normal + 0.2676 special + 0.1545 agent),
and those are the numbers papers quote. Each family's combiner lives with its suite; this module only
finds a family's benchmarks in a results document and names the combined numbers ``family/section``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from spade_eval.results import BenchmarkResult

Combine = Callable[[Mapping[str, float], Mapping[str, int]], dict[str, float]]


@dataclass(frozen=True)
class Family:
    name: str
    """Prefix of the combined numbers' names (``bfcl/multi_turn``)."""
    benchmark_prefix: str
    """Benchmarks whose name starts with this belong to the family."""
    combine: Combine


def _bfcl(scores: Mapping[str, float], counts: Mapping[str, int]) -> dict[str, float]:
    from spade_eval.suites.bfcl.aggregate import bfcl_overall

    return bfcl_overall(scores, counts)


def _acebench(scores: Mapping[str, float], counts: Mapping[str, int]) -> dict[str, float]:
    from spade_eval.suites.acebench.aggregate import acebench_overall

    return acebench_overall(scores)


FAMILIES: tuple[Family, ...] = (Family("bfcl", "bfcl_", _bfcl), Family("acebench", "acebench_", _acebench))


def aggregate(benchmarks: Sequence[BenchmarkResult]) -> dict[str, float]:
    """Every family's combined numbers that the given results complete (a family reports a section
    only when all of its categories were run, so a partial run shows no misleading overall)."""
    combined: dict[str, float] = {}
    for family in FAMILIES:
        members = [b for b in benchmarks if b.name.startswith(family.benchmark_prefix)]
        if not members:
            continue
        values = family.combine({b.name: b.score for b in members}, {b.name: b.n_items for b in members})
        combined.update({f"{family.name}/{section}": value for section, value in values.items()})
    return combined
