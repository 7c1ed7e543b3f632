"""What CI reads from `spade-envs validate` (issue 49): SARIF, JUnit XML, --fail-on and the pre-commit hooks,
each read back by the package a CI system or its users would read it with."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest
import yaml

from spade_envs.ci import junit_xml, parse_conditions, sarif_document
from spade_envs.cli import build_parser, main
from spade_envs.spec.models import CheckFailure, CheckOutcome, ValidationReport
from tests.conftest import COUNTER_ENV, REPO_ROOT

QUICK = ["--examples", "0", "--plan-seed", "0"]


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A valid environment and one that imports os (a static finding with a line), in the working folder."""
    monkeypatch.chdir(tmp_path)
    Path("envs").mkdir()
    Path("envs/counter.py").write_text(COUNTER_ENV)
    Path("envs/leaky.py").write_text(COUNTER_ENV.replace("import re", "import re\nimport os"))
    return Path("envs/counter.py"), Path("envs/leaky.py")


def test_sarif_names_each_finding_with_its_rule_file_and_line(files):
    from sarif_pydantic import Sarif

    good, bad = files
    code, _ = run(["validate", str(good), str(bad), "--sarif", "out.sarif", *QUICK])
    assert code == 1
    log = Sarif.model_validate_json(Path("out.sarif").read_text())
    assert log.version == "2.1.0" and len(log.runs) == 1
    run_ = log.runs[0]
    assert run_.tool.driver.name == "spade-envs"
    rules = {rule.id: rule for rule in run_.tool.driver.rules}
    assert {"imports", "answer_leak", "fuzz_no_exceptions"} <= set(rules)  # the whole catalogue
    assert "Fix:" in rules["imports"].help.text
    [result] = run_.results
    assert result.rule_id == "imports" and result.level == "error" and "os" in result.message.text
    assert run_.tool.driver.rules[result.rule_index].id == "imports"
    where = result.locations[0].physical_location
    assert where.artifact_location.uri == "envs/leaky.py" and where.artifact_location.uri_base_id == "SRCROOT"
    assert where.region.start_line == 3


def test_sarif_keeps_the_counterexample_and_names_files_outside_the_repository(tmp_path):
    report = ValidationReport(path=str(tmp_path / "elsewhere.py"), backend="wasm", ok=False, duration_s=1.0,
                              class_name="GameEnv", failures=[CheckFailure(check="answer_leak", message="m", seed=7,
                                                                           actions=["\\boxed{a}"])],
                              warnings=[CheckFailure(check="close_method", message="w", severity="warning")])
    (tmp_path / "elsewhere.py").write_text("")
    document = sarif_document([report], root=tmp_path / "repo")
    leak, note = document["runs"][0]["results"]
    assert leak["properties"] == {"seed": 7, "actions": ["\\boxed{a}"], "class": "GameEnv"}
    assert leak["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("file://")
    assert note["level"] == "warning" and "region" not in note["locations"][0]["physicalLocation"]


def test_junit_has_a_suite_per_environment_and_a_case_per_check(files):
    from junitparser import Failure, JUnitXml, Skipped

    good, bad = files
    code, _ = run(["validate", str(good), str(bad), "--junit", "junit.xml", *QUICK])
    assert code == 1
    suites = {suite.name: suite for suite in JUnitXml.fromfile("junit.xml")}
    assert set(suites) == {"envs/counter.py", "envs/leaky.py"}
    assert suites["envs/counter.py"].failures == 0 and suites["envs/counter.py"].tests > 20
    cases = {case.name: case for case in suites["envs/leaky.py"]}
    failure = next(r for r in cases["imports"].result if isinstance(r, Failure))
    assert failure.type == "imports" and "os" in failure.message
    assert any(isinstance(r, Skipped) for case in cases.values() for r in case.result)  # tiers after static
    assert suites["envs/leaky.py"].failures == 1


def test_junit_stays_readable_when_a_message_quotes_hostile_text():
    from junitparser import JUnitXml

    hostile = "reply \x00\x1b[31m<b>&\ud800 \U0001f600"
    report = ValidationReport(path="env.py", backend="wasm", ok=False, duration_s=0.5,
                              failures=[CheckFailure(check="answer_leak", message=hostile)],
                              checks=[CheckOutcome(check="answer_leak", status="failed", duration_ms=3)])
    text = junit_xml([report])
    suite = next(iter(JUnitXml.fromstring(text.split("\n", 1)[1])))
    [case] = list(suite)
    assert case.result[0].message == "reply \\x00\\x1b[31m<b>&\\xd800 \U0001f600"


def test_fail_on_adds_conditions_and_a_rejection_always_fails(files, capsys):
    good, bad = files
    assert run(["validate", str(good), *QUICK, "--fail-on", "ceiling>0.99"])[0] == 0
    code, out = run(["validate", str(good), *QUICK, "--fail-on", "ceiling>0.99,refused>=0"])
    assert code == 1 and "fails --fail-on refused>=0: envs/counter.py (refused 0 >= 0)" in out
    code, out = run(["validate", str(good), str(bad), *QUICK, "--fail-on", "ceiling>0.99"])
    assert code == 1 and "fails --fail-on" not in out
    code, out = run(["validate", str(good), *QUICK, "--fail-on", "answer_free<1", "--json"])
    assert code == 1 and json.loads(out)["summary"]["fail_on"] == [
        {"path": "envs/counter.py", "condition": "answer_free<1", "why": "answer_free 0 < 1"}]


def test_fail_on_warning_fails_a_file_that_only_warns(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    warned = REPO_ROOT / "tests" / "zoo" / "no_close_method.py"
    assert run(["validate", str(warned), *QUICK])[0] == 0
    code, out = run(["validate", str(warned), *QUICK, "--fail-on", "warning"])
    assert code == 1 and "fails --fail-on warning" in out and "close_method" in out


@pytest.mark.parametrize("argv, message", [
    (["--fail-on", "ceiling>>1"], "--fail-on 'ceiling>>1' is not a condition"),
    (["--fail-on", "speed>1"], "figures: ceiling, answer_free, refused"),
    (["--sarif", "missing/out.sarif"], "cannot write --sarif missing/out.sarif"),
    (["--junit", "."], "--junit . is a directory"),
])
def test_bad_ci_options_are_refused_in_one_line_before_any_work(files, capsys, argv, message):
    good, _ = files
    code, out = run(["validate", str(good), *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and out == ""
    assert not list(Path(".").glob("*.sarif")) and not Path("junit.xml").exists()


def test_conditions_read_as_written():
    conditions = parse_conditions(["warning, ceiling>0.1", "refused<=0.5"])
    assert [(c.figure, c.operator, c.threshold) for c in conditions] == [
        (None, None, 0.0), ("ceiling", ">", 0.1), ("refused", "<=", 0.5)]


def test_pre_commit_hooks_load_with_pre_commit_and_run_our_validator():
    from pre_commit.clientlib import load_manifest

    hooks = load_manifest(str(REPO_ROOT / ".pre-commit-hooks.yaml"))
    assert [hook["id"] for hook in hooks] == ["spade-envs-validate", "spade-envs-validate-quick"]
    scripts = yaml.safe_load((REPO_ROOT / "pyproject.toml").read_text().split("[project.scripts]")[1]
                             .split("\n\n")[0].replace(" = ", ": "))
    for hook in hooks:
        command = shlex.split(hook["entry"])
        assert command[0] in scripts and hook["language"] == "python" and hook["pass_filenames"]
        args = build_parser().parse_args([*command[1:], "a_changed_file.py"])  # pre-commit appends the files
        assert args.command == "validate" and args.paths == ["a_changed_file.py"]


def test_sarif_uris_are_uri_references_for_odd_file_names_and_task_names(tmp_path):
    (tmp_path / "my env#1.py").write_text("")
    finding = [CheckFailure(check="imports", message="m", line=2)]
    reports = [ValidationReport(path=str(tmp_path / "my env#1.py"), backend="wasm", ok=False, duration_s=1,
                                failures=finding),
               ValidationReport(path="reasoning_gym:leg_counting", backend="process", ok=False, duration_s=1,
                                failures=finding)]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif_document(reports, root=tmp_path)["runs"][0]["results"]]
    assert uris == ["my%20env%231.py", "reasoning_gym%3Aleg_counting"]


def test_a_check_stopped_by_a_limit_is_a_failed_case_with_a_reason():
    from junitparser import JUnitXml

    report = ValidationReport(path="env.py", backend="wasm", ok=False, duration_s=0.5,
                              failures=[CheckFailure(check="timeout", message="step() ran past 2 s")],
                              checks=[CheckOutcome(check="trajectory_deterministic", status="failed", duration_ms=9),
                                      CheckOutcome(check="timeout", status="failed", duration_ms=1)])
    suite = next(iter(JUnitXml.fromstring(junit_xml([report]).split("\n", 1)[1])))
    cases = {case.name: case for case in suite}
    assert suite.failures == 2 and "stopped before it finished" in cases["trajectory_deterministic"].result[0].message
    assert cases["timeout"].result[0].message == "step() ran past 2 s"
