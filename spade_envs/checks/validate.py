"""The validator: static checks, then dynamic checks through a backend, then one report."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from spade_envs.checks.catalogue import check_names
from spade_envs.checks.dynamic import CheckConfig, DynamicChecker
from spade_envs.checks.static import StaticConfig, run_static_checks
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.spec.models import CheckOutcome, ValidationReport, env_id_for


@dataclass(frozen=True)
class ValidatorConfig:
    static: StaticConfig = field(default_factory=StaticConfig)
    dynamic: CheckConfig = field(default_factory=CheckConfig)


def validate_source(
    source: str,
    backend: ExecutionBackend,
    *,
    path: str | None = None,
    class_name: str | None = None,
    config: ValidatorConfig | None = None,
) -> ValidationReport:
    """Validate environment code. Code that fails a static check is never run."""
    config = config or ValidatorConfig()
    started = time.perf_counter()
    static = run_static_checks(source, config.static)
    static_ms = (time.perf_counter() - started) * 1000
    outcomes = [
        CheckOutcome(
            check=name,
            status="failed" if any(f.check == name for f in static.failures) else "passed",
            duration_ms=round(static_ms / max(1, len(check_names("static"))), 3),
        )
        for name in check_names("static")
    ]
    failures, warnings = list(static.failures), list(static.warnings)
    class_found, tool_use = static.class_name, static.tool_use if static.ok else None
    if static.ok:
        dynamic = DynamicChecker(backend, config.dynamic).run(source, class_name=class_name)
        failures += dynamic.failures
        class_found = dynamic.class_name or class_found
        tool_use = dynamic.tool_use if dynamic.tool_use is not None else tool_use
        for name in check_names("dynamic"):
            failed = any(f.check == name for f in dynamic.failures)
            ran = name in dynamic.ran or failed
            outcomes.append(
                CheckOutcome(
                    check=name,
                    status="failed" if failed else ("passed" if ran else "skipped"),
                    duration_ms=round(dynamic.ran.get(name, 0.0), 3),
                )
            )
    else:
        outcomes += [CheckOutcome(check=n, status="skipped", duration_ms=0.0) for n in check_names("dynamic")]
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
        seeds=list(config.dynamic.seeds) if static.ok else [],
        duration_s=round(time.perf_counter() - started, 4),
    )


def validate_file(path: Path, backend: ExecutionBackend, config: ValidatorConfig | None = None) -> ValidationReport:
    """Validate one file; the caller checks that it exists and is readable text."""
    return validate_source(path.read_text(encoding="utf-8"), backend, path=str(path), config=config)
