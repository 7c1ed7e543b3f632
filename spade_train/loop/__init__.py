"""The self-play loop: one design attempt (``design``), an iteration of them (``iteration``), the checker
they share (``checker``) and how a scored attempt is recorded (``summary``).

Read ``design.attempt_design`` first: it is the whole path of one environment, from the designer's reply
to the regret of its plays. ``iteration.SelfPlayLoop`` plans a batch of attempts, scores them per skill
and writes them to the memory.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Checker": "spade_train.loop.checker",
    "DesignAttempt": "spade_train.loop.design",
    "DesignContext": "spade_train.loop.design",
    "DesignPlan": "spade_train.loop.design",
    "DuplicateFinder": "spade_train.loop.design",
    "Outcome": "spade_train.loop.design",
    "attempt_design": "spade_train.loop.design",
    "IterationResult": "spade_train.loop.iteration",
    "SelfPlayLoop": "spade_train.loop.iteration",
    "AttemptSummary": "spade_train.loop.summary",
    "DesignerScore": "spade_train.loop.summary",
    "remember": "spade_train.loop.summary",
}

__all__ = tuple(sorted(_EXPORTS))


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'spade_train.loop' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)


def __dir__() -> list[str]:
    return __all__
