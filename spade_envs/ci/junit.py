"""The verdicts as JUnit XML, the test report most CI systems show (Jenkins, GitLab, Azure, CircleCI).

A test suite per environment, a test case per check that ran on it: passed, failed (an error finding),
or skipped (a tier after a failed one). A warning is not a failure: it is written to the case's
``system-out`` so that the report shows it without turning the build red (``--fail-on warning`` does that).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from spade_envs.spec.models import ValidationReport

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold at all, escaped or not: a message quoting an environment's reply (hostile
text) may carry them, and one would make the whole file unreadable."""


def _text(value: str) -> str:
    return _NOT_XML.sub(lambda match: f"\\x{ord(match.group(0)):02x}", value)


def junit_xml(reports: list[ValidationReport]) -> str:
    """One ``<testsuites>`` document for ``reports``."""
    suites = ET.Element("testsuites", name="spade-envs validate")
    total = failed = skipped = 0
    seconds = 0.0
    for report in reports:
        name = report.path or report.class_name or "environment"
        findings: dict[str, list] = {}
        for finding in [*report.failures, *report.warnings]:
            findings.setdefault(finding.check, []).append(finding)
        suite = ET.SubElement(suites, "testsuite", name=_text(name))
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for outcome in report.checks:
            case = ET.SubElement(suite, "testcase", name=outcome.check, classname=_text(name),
                                 time=f"{outcome.duration_ms / 1000:.3f}")
            counts["tests"] += 1
            errors = [f for f in findings.get(outcome.check, []) if f.severity == "error"]
            warnings = [f for f in findings.get(outcome.check, []) if f.severity == "warning"]
            if outcome.status == "failed" or errors:
                counts["failures"] += 1
                for finding in errors or findings.get(outcome.check, []):
                    failure = ET.SubElement(case, "failure", message=_text(finding.message), type=finding.check)
                    failure.text = _text(_evidence(finding))
                if not findings.get(outcome.check):  # stopped by a limit another check reports
                    ET.SubElement(case, "failure", message="stopped before it finished (see the timeout or "
                                  "runtime_limit finding)", type=outcome.check)
            elif outcome.status == "skipped":
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message="not run: an earlier tier failed")
            if warnings:
                ET.SubElement(case, "system-out").text = _text("\n".join(f"warning: {w.message}" for w in warnings))
        suite.set("tests", str(counts["tests"]))
        suite.set("failures", str(counts["failures"]))
        suite.set("errors", "0")
        suite.set("skipped", str(counts["skipped"]))
        suite.set("time", f"{report.duration_s:.3f}")
        total, failed, skipped = total + counts["tests"], failed + counts["failures"], skipped + counts["skipped"]
        seconds += report.duration_s
    suites.set("tests", str(total))
    suites.set("failures", str(failed))
    suites.set("errors", "0")
    suites.set("skipped", str(skipped))
    suites.set("time", f"{seconds:.3f}")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _evidence(finding) -> str:
    """The finding's message and, where it has them, the line, seed and moves that show it."""
    lines = [finding.message]
    if finding.line is not None:
        lines.append(f"line {finding.line}")
    if finding.seed is not None:
        lines.append(f"seed {finding.seed}")
    if finding.actions:
        lines.append(f"actions {finding.actions!r}")
    if finding.detail:
        lines.append(finding.detail)
    return "\n".join(lines)
