"""The validator: four tiers, cheapest first, stopping at the first that fails.

1. static: read the code, run nothing (code that fails here never runs);
2. contract: run it through a backend and hold it to the contract;
3. feasibility: its own solution wins, trivial policies do not, and no hint leaks the answer;
4. fuzz: Hypothesis-generated episodes check every property in ``spade_envs.fuzz``.

The same seeds and budget give the same verdict.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from spade_envs.checks.catalogue import TIERS, check_names
from spade_envs.checks.dynamic import CheckConfig, DynamicChecker, DynamicResult
from spade_envs.checks.feasibility import hint_verdict
from spade_envs.checks.judge import (
    JUDGE_CHECKS,
    JudgeModel,
    JudgeSettings,
    judge_environment,
    material_from_session,
)
from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.spec.models import CheckFailure, CheckOutcome, TierOutcome, ValidationReport, env_id_for


@dataclass(frozen=True)
class ValidatorConfig:
    static: StaticConfig = field(default_factory=StaticConfig)
    dynamic: CheckConfig = field(default_factory=CheckConfig)
    fuzz: FuzzConfig = field(default_factory=FuzzConfig)
    tiers: tuple[str, ...] = TIERS
    """Which tiers to run; drop "fuzz" for a quick contract check."""
    judge: JudgeSettings | None = None
    """A model judge for environments every other check accepted (off by default: a heuristic)."""


def validate_source(
    source: str,
    backend: ExecutionBackend,
    *,
    path: str | None = None,
    class_name: str | None = None,
    config: ValidatorConfig | None = None,
    judge: JudgeModel | None = None,
) -> ValidationReport:
    """Validate environment code, tier by tier. Code that fails a static check is never run.

    ``judge`` (or ``config.judge``) asks a model the judge's questions about an environment that passed
    every other check; its findings quote its reasons (``checks/judge``).
    """
    config = config or ValidatorConfig()
    started = time.perf_counter()
    static = run_static_checks(source, config.static, class_name=class_name)
    static_ms = (time.perf_counter() - started) * 1000
    tiers = [TierOutcome(tier="static", status="failed" if static.failures else "passed",
                         duration_ms=round(static_ms, 3))]
    outcomes = [
        CheckOutcome(check=name, status="failed" if any(f.check == name for f in static.failures) else "passed",
                     duration_ms=0.0)
        for name in check_names("static")
    ]
    failures, warnings = list(static.failures), list(static.warnings)
    class_found, tool_use = static.class_name, static.tool_use if static.ok else None
    plan_seed = None
    known_answers = None
    dynamic_tiers = tuple(t for t in config.tiers if t != "static")
    if static.ok and dynamic_tiers:
        dynamic = DynamicChecker(backend, config.dynamic).run(
            source, class_name=class_name, tiers=dynamic_tiers, fuzz=config.fuzz
        )
        failures += dynamic.failures
        plan_seed = dynamic.plan_seed
        known_answers = dynamic.known_answers
        warnings += [w for w in dynamic.warnings if all(w.check != f.check for f in failures)]
        class_found = dynamic.class_name or class_found
        tool_use = dynamic.tool_use if dynamic.tool_use is not None else tool_use
        failed_tier, interrupted = _where_it_stopped(dynamic)
        for tier in dynamic_tiers:
            status = "failed" if failed_tier == tier else ("passed" if tier in dynamic.tier_ms else "skipped")
            tiers.append(TierOutcome(tier=tier, status=status, duration_ms=round(dynamic.tier_ms.get(tier, 0.0), 3)))  # type: ignore[arg-type]
        for tier in TIERS[1:]:
            for name in check_names(tier):
                failed = name == interrupted or any(f.check == name for f in dynamic.failures)
                ran = name in dynamic.ran or failed
                outcomes.append(CheckOutcome(check=name, status="failed" if failed else ("passed" if ran else "skipped"),
                                             duration_ms=round(dynamic.ran.get(name, 0.0), 3)))
    else:
        tiers += [TierOutcome(tier=t, status="skipped", duration_ms=0.0) for t in dynamic_tiers]  # type: ignore[arg-type]
        outcomes += [CheckOutcome(check=n, status="skipped", duration_ms=0.0) for t in TIERS[1:] for n in check_names(t)]
    if not failures and static.ok and (judge is not None or config.judge is not None):
        found = _ask_judge(source, backend, class_name or class_found, config, judge, plan_seed)
        failures += [f for f in found if f.severity == "error"]
        warnings += [f for f in found if f.severity == "warning"]
        flagged = {f.check for f in found if f.severity == "error"}
        outcomes = [o.model_copy(update={"status": "failed" if o.check in flagged else "passed"})
                    if o.check in JUDGE_CHECKS else o for o in outcomes]
    return ValidationReport(
        path=path,
        env_id=env_id_for(source),
        class_name=class_found,
        tool_use=tool_use,
        backend=backend.name,
        ok=not failures,
        failures=failures,
        warnings=warnings,
        checks=outcomes,
        tiers=tiers,
        seeds=list(config.dynamic.seeds) if static.ok else [],
        plan_seed=plan_seed,
        fuzz_examples=config.fuzz.examples if "fuzz" in config.tiers else 0,
        known_answers=known_answers,
        duration_s=round(time.perf_counter() - started, 4),
    )


def _ask_judge(source: str, backend: ExecutionBackend, class_name: str | None, config: ValidatorConfig,
               judge: JudgeModel | None, plan_seed: int | None) -> list[CheckFailure]:
    """The judge's findings, from a session of its own (a judge that cannot be asked gives none)."""
    severity = config.judge.severity if config.judge is not None else "error"
    model = judge or (config.judge.model() if config.judge is not None else None)
    if model is None:
        return []
    seeds = [config.dynamic.seeds[0] if config.dynamic.seeds else 0, (plan_seed or 0) % (2**31 - 1) + 1]
    try:
        with backend.open_session(source, class_name=class_name, max_turns=config.dynamic.max_turns,
                                  init_kwargs=config.dynamic.init_kwargs) as session:
            material = material_from_session(session, source, seeds, config.dynamic.hint)
    except Exception:  # noqa: BLE001 -- the other tiers already judged the environment; no material, no verdict
        return []
    return asyncio.run(judge_environment(model, material, severity=severity))


def _where_it_stopped(dynamic: DynamicResult) -> tuple[str | None, str | None]:
    """The tier that failed, and the check a limit interrupted (a timeout or a crash), if any.

    The dynamic checker times a tier as it leaves it, also when a limit stops it in the middle, so the
    tier that failed is the last one it timed; likewise the interrupted check is the last one it timed.
    """
    if dynamic.failed_tier is None:
        return None, None
    failed_tier = next(reversed(dynamic.tier_ms), dynamic.failed_tier)
    stopped_by_limit = any(f.check in ("timeout", "runtime_limit") for f in dynamic.failures)
    finished = "timeout" in dynamic.ran  # recorded only when the checker was not stopped
    interrupted = next(reversed(dynamic.ran), None) if stopped_by_limit and not finished else None
    return failed_tier, interrupted


def check_hint(
    source: str,
    hint: str,
    backend: ExecutionBackend,
    *,
    class_name: str | None = None,
    config: CheckConfig | None = None,
) -> str | None:
    """How ``hint`` gives the answer away, or None: the hint check of the feasibility tier on its own.

    The self-play loop writes the hint after validation; this runs, for that hint, the text checks and
    the hint-reading policies (``checks.hints``) on the first ``probe_screen`` seeds of the plan, in the
    sandbox. An environment that cannot even be replayed gives None: validation has judged it already.
    """
    base = config or CheckConfig()
    narrowed = replace(base, hint=hint, plan_seeds=min(base.plan_seeds, base.probe_screen))
    return hint_verdict(backend, source, class_name, narrowed)


def combine_reports(first: ValidationReport, second: ValidationReport) -> ValidationReport:
    """One report from two validations of the same code that ran different tiers.

    A caller that runs the cheap tiers first and the fuzz tier later, beside other work (the self-play
    loop plays an environment while it is fuzzed), still keeps one verdict per environment: a check or
    tier counts as failed if either run failed it, passed if either ran it, skipped otherwise.
    """
    if first.env_id != second.env_id:
        raise ValueError(f"reports of different code cannot be combined: {first.env_id} vs {second.env_id}")

    def merged(a: list, b: list, key: str) -> list:
        by_name = {getattr(item, key): item for item in a}
        for item in b:
            name = getattr(item, key)
            old = by_name.get(name)
            if old is None or old.status == "skipped" or item.status == "failed":
                by_name[name] = item
        return list(by_name.values())

    warnings = list(first.warnings) + [w for w in second.warnings if w not in first.warnings]
    failures = list(first.failures) + [f for f in second.failures if f not in first.failures]
    return first.model_copy(update={
        "ok": not failures, "failures": failures, "warnings": warnings,
        "checks": merged(first.checks, second.checks, "check"), "tiers": merged(first.tiers, second.tiers, "tier"),
        "class_name": first.class_name or second.class_name,
        "fuzz_examples": max(first.fuzz_examples, second.fuzz_examples),
        "duration_s": round(first.duration_s + second.duration_s, 4),
    })


def validate_file(path: Path, backend: ExecutionBackend, config: ValidatorConfig | None = None) -> ValidationReport:
    """Validate one file; the caller checks that it exists and is readable text."""
    return validate_source(path.read_text(encoding="utf-8"), backend, path=str(path), config=config)
