"""ACEBench's summary numbers from per-category accuracies, combined as its result table does.

- normal = unweighted mean of the twelve normal categories (six atom types, single-turn single and
  parallel function, the two multi-turn ones, similar API, preference);
- special = unweighted mean of incomplete, error_param and irrelevant;
- agent = unweighted mean of the end-to-end accuracies of agent_multi_turn and agent_multi_step;
- overall = 0.578 normal + 0.2676 special + 0.1545 agent.

A group is reported only when all of its categories were run; overall only when all three groups were.
"""

from __future__ import annotations

from collections.abc import Mapping

from spade_eval.suites.acebench.categories import AGENT, NORMAL, SPECIAL, category_of

GROUP_WEIGHTS = {"normal": 0.578, "special": 0.2676, "agent": 0.1545}


def acebench_overall(scores: Mapping[str, float]) -> dict[str, float]:
    """Group accuracies and the overall score from per-category scores.

    ``scores`` maps a category (``normal_atom_bool``) or benchmark name (``acebench_normal_atom_bool``)
    to its accuracy in [0, 1] (end-to-end accuracy for the agent categories).
    """
    score = {category_of(name): value for name, value in scores.items()}
    groups: dict[str, float] = {}
    for group, categories in (("normal", NORMAL), ("special", SPECIAL), ("agent", AGENT)):
        if all(category in score for category in categories):
            groups[group] = sum(score[category] for category in categories) / len(categories)
    if all(group in groups for group in GROUP_WEIGHTS):
        groups["overall"] = sum(weight * groups[group] for group, weight in GROUP_WEIGHTS.items())
    return groups
