"""The checker as a design attempt calls it: the SDK's validator, awaited, in worker processes or a
thread, with the verdicts of code it has already judged reused.

Validation is most of an iteration's non-model work and runs under the GIL, so ``loop.validation_workers``
worker processes (``spade_envs.checks.batch.ProcessValidator``) are what let it use more cores; with none,
each validation runs in a thread of this process. The checker is deterministic (fixed seeds), so with
``loop.reuse_verdicts`` a design the run has already judged is not validated again: designers repeat
themselves, the compact embedded language especially.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import replace

from spade_envs.checks.batch import ProcessValidator
from spade_envs.checks.validate import ValidatorConfig, validate_source
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.budget import MemoryBudget
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.spec.models import ValidationReport, env_id_for

VERDICT_CACHE_SIZE = 4096


class Checker:
    """``await checker.validate(code, tiers)``: the validator's report on ``code`` for ``tiers``."""

    def __init__(self, backend: ExecutionBackend, config: ValidatorConfig, *, workers: int = 0,
                 reuse_verdicts: bool = True, reject_warnings: bool = False,
                 budget: MemoryBudget | None = None) -> None:
        """``budget``: the sandboxes' memory budget a validation in a thread counts against (one session's
        cap: it opens its sessions one at a time); worker processes are outside it."""
        self.backend, self.config, self.reuse_verdicts = backend, config, reuse_verdicts
        self.budget = budget
        self.reject_warnings = reject_warnings
        """``loop.warnings = "rejected"``: a report with warnings is invalid, its warnings its findings."""
        self._processes = (ProcessValidator(backend.name, getattr(backend, "limits", ExecutionLimits()), config, workers)
                           if workers > 0 else None)
        self._verdicts: OrderedDict[str, ValidationReport] = OrderedDict()

    async def validate(self, code: str, tiers: tuple[str, ...] | None = None) -> ValidationReport:
        """The verdict for ``tiers`` (None: the configured ones)."""
        key = env_id_for(code) + ("" if tiers is None else "/" + ",".join(tiers))
        cached = self._verdicts.get(key) if self.reuse_verdicts else None
        if cached is not None:
            self._verdicts.move_to_end(key)
            return cached
        if self._processes is not None:
            report = await self._processes.validate(code, tiers=tiers)
        else:
            config = self.config if tiers is None else replace(self.config, tiers=tiers)
            if self.budget is None:
                report = await asyncio.to_thread(validate_source, code, self.backend, config=config)
            else:
                async with self.budget.hold(getattr(self.backend, "limits", ExecutionLimits()).memory_mb):
                    report = await asyncio.to_thread(validate_source, code, self.backend, config=config)
        if self.reject_warnings and report.warnings:
            report = report.model_copy(update={"ok": False, "failures": [*report.failures, *report.warnings],
                                               "warnings": []})
        if self.reuse_verdicts:
            self._verdicts[key] = report
            while len(self._verdicts) > VERDICT_CACHE_SIZE:
                self._verdicts.popitem(last=False)
        return report

    def close(self) -> None:
        """Stop the worker processes (if any)."""
        if self._processes is not None:
            self._processes.close()
