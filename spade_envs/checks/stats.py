"""When does a probe policy win "too often"? One rule for every exploit probe and hint reader.

A policy that knows nothing about the task still wins sometimes: a constant letter wins a four-option
question a quarter of the time, and that is not a defect. So every probe comes with its *chance rate*
(derived from the task: how many distinct answers the seeds have, which values the policy plays, how
many candidates it picks among) and is a finding only when it beats that rate by a clear margin and
the excess is too large to be luck:

* its win rate is at least ``chance + max(margin, relative_margin * chance)``, and
* the one-sided binomial probability of winning that often at the chance rate is below ``alpha``.

With the defaults, on 100 seeds a probe is a finding from 5 wins if its chance is 0, from 7 wins at 1%,
24 at 10%, 43 at 25% and 75 at 50%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class ChanceRule:
    margin: float = 0.05
    """Absolute excess over the chance rate below which nothing is a finding."""
    relative_margin: float = 0.5
    """Excess relative to the chance rate: a 25%-chance policy must reach 37.5%."""
    alpha: float = 1e-4
    """Largest probability, at the chance rate, of winning as often as observed (per probe)."""

    def threshold(self, chance: float) -> float:
        """The smallest win rate that can be a finding for a policy with this chance rate."""
        return chance + max(self.margin, self.relative_margin * chance)

    def beats_chance(self, wins: int, trials: int, chance: float) -> bool:
        """True when ``wins`` out of ``trials`` is clearly more than ``chance`` allows."""
        if trials <= 0 or wins <= 0:
            return False
        chance = min(max(chance, 0.0), 1.0)
        if wins / trials < self.threshold(chance):
            return False
        return binomial_tail(wins, trials, chance) < self.alpha


def binomial_tail(wins: int, trials: int, p: float) -> float:
    """P(X >= wins) for X ~ Binomial(trials, p), exactly (trials is at most a few hundred here)."""
    if wins <= 0:
        return 1.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    total = 0.0
    for k in range(wins, trials + 1):
        total += math.exp(math.lgamma(trials + 1) - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
                          + k * log_p + (trials - k) * log_q)
    return min(1.0, total)
