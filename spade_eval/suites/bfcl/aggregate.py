"""BFCL-v4 summary numbers from per-category accuracies, combined the way the leaderboard does.

Mirrors bfcl-eval's ``generate_leaderboard_csv``:

- non-live = unweighted mean of (simple = mean of python/java/javascript simple), multiple, parallel,
  parallel_multiple;
- live = mean of the four live AST categories weighted by their item counts;
- irrelevance = unweighted mean of irrelevance and live_irrelevance; relevance = live_relevance;
- multi-turn = unweighted mean of base, miss_func, miss_param, long_context (the number the paper quotes);
- overall = 10% non-live + 10% live + 10% irrelevance + 30% multi-turn + 40% agentic.

The agentic section (memory, web search) cannot run offline. ``overall_leaderboard`` counts it as 0,
which is what the leaderboard does with a section that was not run, so it is at most 0.6;
``overall_offline`` renormalises the same weights over the four sections that do run (10/10/10/30 of 60).
A section is reported only when all of its categories were run: a partial mean would not be comparable.
"""

from __future__ import annotations

from collections.abc import Mapping

from spade_eval.suites.bfcl.categories import LIVE_AST, MULTI_TURN, category_of

SECTION_WEIGHTS = {"non_live": 10, "live": 10, "irrelevance": 10, "multi_turn": 30, "agentic": 40}


def bfcl_overall(scores: Mapping[str, float], counts: Mapping[str, int]) -> dict[str, float]:
    """Leaderboard sections and overall accuracy from per-category scores.

    ``scores`` and ``counts`` map a category (``multi_turn_base``) or benchmark name
    (``bfcl_multi_turn_base``) to its accuracy in [0, 1] and its number of items.
    """
    score = {category_of(name): value for name, value in scores.items()}
    count = {category_of(name): value for name, value in counts.items()}
    sections: dict[str, float] = {}

    def have(*categories: str) -> bool:
        return all(category in score for category in categories)

    if have("simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple"):
        simple = (score["simple_python"] + score["simple_java"] + score["simple_javascript"]) / 3
        sections["non_live"] = (
            simple + score["multiple"] + score["parallel"] + score["parallel_multiple"]
        ) / 4
    if have(*LIVE_AST):
        total = sum(count.get(category, 0) for category in LIVE_AST)
        if total > 0:
            sections["live"] = sum(score[category] * count.get(category, 0) for category in LIVE_AST) / total
    if have("irrelevance", "live_irrelevance"):
        sections["irrelevance"] = (score["irrelevance"] + score["live_irrelevance"]) / 2
    if have("live_relevance"):
        sections["relevance"] = score["live_relevance"]
    if have(*MULTI_TURN):
        sections["multi_turn"] = sum(score[category] for category in MULTI_TURN) / len(MULTI_TURN)
    offline = ("non_live", "live", "irrelevance", "multi_turn")
    if all(section in sections for section in offline):
        weighted = sum(SECTION_WEIGHTS[section] * sections[section] for section in offline)
        sections["overall_leaderboard"] = weighted / sum(SECTION_WEIGHTS.values())
        sections["overall_offline"] = weighted / sum(SECTION_WEIGHTS[section] for section in offline)
    return sections
