"""The verdicts as SARIF 2.1.0, the format code scanning reads (GitHub, GitLab, Azure DevOps, VS Code).

One run of one tool (``spade-envs``); a rule per check of the catalogue, so that a finding links to what
the check catches and how to fix it; a result per finding, at its file and line where the validator knows
the line. A counterexample (the seed and the moves that show the defect) rides in the result's
``properties``, so that ``spade-envs play PATH --seed N`` can replay it.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from spade_envs.checks.catalogue import CHECKS
from spade_envs.spec.models import CheckFailure, ValidationReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
DOCS = "https://spade-rl.github.io/spade-toolkit/reference/checks/"
"""Where the check catalogue is published: each rule's help link is its entry there."""


def sarif_document(reports: list[ValidationReport], root: Path | None = None) -> dict[str, Any]:
    """A SARIF log of ``reports``; file paths under ``root`` (default: the working directory) are written
    relative to it, as code scanning expects of files in the repository."""
    root = (root or Path.cwd()).resolve()
    rules = [_rule(check.name, check.stage, check.catches, check.fix) for check in CHECKS]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    results = []
    for report in reports:
        for finding in [*report.failures, *report.warnings]:
            if finding.check not in index:  # a check added without a catalogue entry still reports
                index[finding.check] = len(rules)
                rules.append(_rule(finding.check, "", finding.check, "see the message"))
            results.append(_result(report, finding, index[finding.check], root))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "spade-envs", "version": _version(), "informationUri": DOCS, "rules": rules}},
            "originalUriBaseIds": {"SRCROOT": {"uri": root.as_uri() + "/"}},
            "results": results,
        }],
    }


def _rule(name: str, tier: str, catches: str, fix: str) -> dict[str, Any]:
    return {
        "id": name,
        "name": "".join(part.capitalize() for part in name.split("_")),
        "shortDescription": {"text": f"Catches {catches}."},
        "help": {"text": f"Fix: {fix}."},
        "helpUri": f"{DOCS}#{name}",
        "properties": {"tags": ["spade-envs", tier] if tier else ["spade-envs"]},
    }


def _result(report: ValidationReport, finding: CheckFailure, rule_index: int, root: Path) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": _artifact(report.path or report.class_name or "environment", root)}
    if finding.line is not None:
        location["region"] = {"startLine": finding.line}
    result: dict[str, Any] = {
        "ruleId": finding.check,
        "ruleIndex": rule_index,
        "level": "warning" if finding.severity == "warning" else "error",
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": location}],
    }
    evidence = {key: value for key, value in (("seed", finding.seed), ("actions", finding.actions),
                                              ("step", finding.step), ("detail", finding.detail)) if value is not None}
    if report.class_name:
        evidence["class"] = report.class_name
    if evidence:
        result["properties"] = evidence
    return result


def _artifact(path: str, root: Path) -> dict[str, str]:
    """A file in the repository relative to SRCROOT; another file by its file URI; a bundled name as is. A
    reward function (``rewards.py:accuracy``) is located in its file."""
    file = Path(path)
    if not file.is_file() and ":" in path and Path(path.rpartition(":")[0]).is_file():
        file = Path(path.rpartition(":")[0])
    if file.is_file():
        resolved = file.resolve()
        if resolved.is_relative_to(root):
            return {"uri": quote(resolved.relative_to(root).as_posix()), "uriBaseId": "SRCROOT"}
        return {"uri": resolved.as_uri()}
    return {"uri": quote(path, safe="")}  # a bundled name or reasoning_gym:TASK, as a relative reference


def _version() -> str:
    try:
        return importlib.metadata.version("spade-toolkit")
    except importlib.metadata.PackageNotFoundError:
        return "0"
