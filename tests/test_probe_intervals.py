"""The designer probe's intervals resample distinct designs (issue 32): repeats of one design share one
estimate, so they must not narrow the interval, and how a designer spreads over designs is reported."""

from __future__ import annotations

import random

from spade_train.run.probe import bootstrap_difference, bootstrap_mean, clusters, effective_designs


def naive_interval(values: list[float], rng: random.Random, resamples: int = 2000) -> tuple[float, float]:
    means = sorted(sum(rng.choices(values, k=len(values))) / len(values) for _ in range(resamples))
    return means[int(0.025 * (resamples - 1))], means[int(0.975 * (resamples - 1))]


def test_repeats_of_one_design_do_not_narrow_the_interval() -> None:
    # 9 samples of one design (regret 1.0) and 1 of another (0.0): two estimates, not ten.
    pairs = [("a", 1.0)] * 9 + [("b", 0.0)]
    grouped = clusters(pairs)
    assert sorted(grouped) == [(0.0, 1), (1.0, 9)]
    low, high = bootstrap_mean(grouped, resamples=2000, rng=random.Random(0))
    naive_low, naive_high = naive_interval([value for _, value in pairs], random.Random(0))
    assert (low, high) == (0.0, 1.0)  # the resamples: both a, both b, or one of each (0.9)
    assert high - low > 2 * (naive_high - naive_low)
    # Distinct designs, each once: the cluster interval is the ordinary one.
    rng = random.Random(1)
    distinct = [(f"d{i}", rng.random()) for i in range(40)]
    cluster = bootstrap_mean(clusters(distinct), resamples=4000, rng=random.Random(2))
    naive = naive_interval([value for _, value in distinct], random.Random(2), resamples=4000)
    assert abs(cluster[0] - naive[0]) < 0.03 and abs(cluster[1] - naive[1]) < 0.03


def test_a_gain_that_rests_on_one_repeated_design_has_a_wide_interval() -> None:
    collapsed = clusters([("best", 0.8)] * 20 + [("other", 0.1)] * 4)
    uniform = clusters([(f"u{i}", v) for i, v in enumerate([0.2, 0.4, 0.1, 0.3, 0.5, 0.2, 0.3, 0.4])])
    low, high = bootstrap_difference(collapsed, uniform, resamples=2000, rng=random.Random(3))
    assert low < 0.0 < high  # two distinct designs cannot show a gain, however many samples repeat them
    assert bootstrap_difference([], uniform, resamples=100, rng=random.Random(0)) is None


def test_effective_designs_counts_how_a_designer_spreads() -> None:
    assert effective_designs(["a"] * 10) == 1.0
    assert effective_designs(["a", "b", "c", "d"]) == 4.0
    assert effective_designs(["a", "a", "b", "b"]) == 2.0
    assert 1.0 < effective_designs(["a"] * 9 + ["b"]) < 1.3
    assert effective_designs([]) is None
