"""The defect zoo: one small broken environment per file in tests/zoo/, each rejected by the check it names.

Every zoo file starts with one of

* ``# expect: <check>``          -- the validator must reject it, and ``<check>`` must be among the failures;
* ``# expect: valid``            -- the validator must accept it (release-style code, no edits);
* ``# expect-warning: <check>``  -- the validator must accept it and warn with ``<check>``.

Apart from its one defect, each zoo environment is a complete, deterministic, winnable environment, so the
named check is the one that fires. ``file_too_large.py`` is small on disk: a ``# zoo-pad-bytes: N`` line
makes the test append N bytes of generated data before validating (a huge file is not committed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from spade_envs.checks import CHECKS_BY_NAME, check_names, validate_source
from spade_envs.checks.catalogue import TIERS
from spade_envs.checks.judge import JUDGE_CHECKS
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.runtime import ExecutionLimits, create_backend

ZOO = Path(__file__).resolve().parent / "zoo"
WARNING_ONLY_CHECKS = {"close_method", "boxed_actions", "good_answer_refused"}

_EXPECT = re.compile(r"#\s*(expect|expect-warning):\s*([a-z_]+)\s*$")
_PAD = re.compile(r"^#\s*zoo-pad-bytes:\s*(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class ZooCase:
    path: Path
    kind: str  # "fail", "valid" or "warning"
    check: str | None

    @property
    def id(self) -> str:
        return self.path.stem


def _read_case(path: Path) -> ZooCase:
    first_line = path.read_text(encoding="utf-8").split("\n", 1)[0]
    match = _EXPECT.fullmatch(first_line.strip())
    if match is None:
        raise ValueError(
            f"{path.name}: the first line must be '# expect: <check>' or '# expect-warning: <check>'"
        )
    tag, name = match.groups()
    if tag == "expect-warning":
        return ZooCase(path, "warning", name)
    if name == "valid":
        return ZooCase(path, "valid", None)
    return ZooCase(path, "fail", name)


CASES: list[ZooCase] = [_read_case(path) for path in sorted(ZOO.glob("*.py"))]


def _source(case: ZooCase) -> str:
    """The zoo file's code, padded with generated data when it asks for it (the file_size case)."""
    source = case.path.read_text(encoding="utf-8")
    pad = _PAD.search(source)
    if pad is None:
        return source
    target = int(pad.group(1))
    words = ", ".join(f'"w{i:07d}"' for i in range(target // 11 + 1))
    padded = f"{source}\n\n_WORD_LIST = [{words}]\n"
    assert len(padded.encode("utf-8")) > target
    return padded


CALL_TIMEOUT_S = {"wasm": 1.0, "inprocess": 2.0}
"""The sandbox counts a limit in instructions, the same under any load. In-process the limit is wall-clock
time, and the checker sizes its batches by the clock too, to a quarter of the limit but at least 0.5 s: at
a 1 s limit a batch sized on a quiet moment had only twice its time, and ran past the limit beside two CPU
hogs. From 2 s on it has four times its time."""


FULL_VALID_INPROCESS = 4
"""Valid files validated in-process through every tier; the others skip the feasibility tier there."""


def _runs() -> list[tuple[str, ZooCase, bool]]:
    """(backend, case, every tier) runs: every case in the sandbox (the default backend), through every tier.
    In-process, every case whose verdict could depend on how the code runs (static, contract and fuzz
    checks, valid and warning files), but only the first case of each play check (the feasibility tier):
    those read the traces of play, which both backends produce alike, so one case per check shows the
    in-process path reaches the same finding. For the same reason the valid files after the first
    ``FULL_VALID_INPROCESS`` skip the feasibility tier in-process (it was a quarter of the zoo's time)."""
    from spade_envs.checks.catalogue import CHECKS

    play = {check.name for check in CHECKS if check.stage == "feasibility"}
    runs = [("wasm", case, True) for case in CASES]
    seen: set[str] = set()
    valid = 0
    for case in CASES:
        if case.kind == "fail" and case.check in play:
            if case.check in seen:
                continue
            seen.add(case.check)
        if case.kind == "valid":
            valid += 1
        runs.append(("inprocess", case, case.kind != "valid" or valid <= FULL_VALID_INPROCESS))
    return runs


RUNS = _runs()
NO_PLAY = ValidatorConfig(tiers=tuple(tier for tier in TIERS if tier != "feasibility"))


@pytest.fixture(scope="module")
def backends() -> dict:
    return {name: create_backend(name, ExecutionLimits(call_timeout_s=limit)) for name, limit in CALL_TIMEOUT_S.items()}


@pytest.mark.parametrize("backend_name, case, every_tier", RUNS,
                         ids=[f"{name}-{case.id}" + ("" if full else "-no-play") for name, case, full in RUNS])
def test_zoo_case(backend_name: str, case: ZooCase, every_tier: bool, backends: dict, tmp_path: Path) -> None:
    """Every case is caught for its own reason; the in-process runs (``_runs``) for the same reason too."""
    backend = backends[backend_name]
    source = _source(case)
    if source != case.path.read_text(encoding="utf-8"):  # generated at runtime: validate the written file
        written = tmp_path / case.path.name
        written.write_text(source, encoding="utf-8")
        source = written.read_text(encoding="utf-8")
    report = validate_source(source, backend, path=str(case.path), config=None if every_tier else NO_PLAY)
    failures = [(f.check, f.message) for f in report.failures]
    warnings = [(w.check, w.message) for w in report.warnings]

    for check, message in failures + warnings:
        assert check in CHECKS_BY_NAME, f"unknown check name {check!r} in the report"
        assert message and message.strip(), f"empty message for {check}"
        assert "\n" not in message and "\r" not in message, f"{check} message spans lines: {message!r}"

    if case.kind == "fail":
        assert not report.ok, f"{case.id}: accepted, but {case.check} should reject it; warnings: {warnings}"
        assert case.check in {check for check, _ in failures}, (
            f"{case.id}: expected a {case.check} failure, got {failures}"
        )
    elif case.kind == "valid":
        assert report.ok, f"{case.id}: a valid environment was rejected: {failures}"
    else:
        assert report.ok, f"{case.id}: a warning-only defect was rejected: {failures}"
        assert case.check in {check for check, _ in warnings}, (
            f"{case.id}: expected a {case.check} warning, got {warnings}"
        )


def test_zoo_has_enough_cases() -> None:
    assert sum(case.kind == "fail" for case in CASES) >= 20
    assert sum(case.kind == "valid" for case in CASES) >= 2
    assert sum(case.kind == "warning" for case in CASES) >= 1


def test_zoo_check_names_are_catalogued() -> None:
    unknown = sorted({case.check for case in CASES if case.check and case.check not in CHECKS_BY_NAME})
    assert not unknown, f"zoo files expect checks missing from the catalogue: {unknown}"
    for case in CASES:
        if case.kind == "warning":
            assert case.check in WARNING_ONLY_CHECKS, f"{case.id}: {case.check} is not a warning-only check"
        if case.kind == "fail":
            assert case.check not in WARNING_ONLY_CHECKS, f"{case.id}: {case.check} only ever warns"


def test_zoo_covers_many_checks() -> None:
    failing = {case.check for case in CASES if case.kind == "fail"}
    assert len(failing) >= 15, sorted(failing)


def test_zoo_covers_the_whole_catalogue() -> None:
    """Every catalogued check has a zoo case: a new check needs an environment that trips it."""
    covered = {case.check for case in CASES if case.check}
    missing = sorted(set(check_names()) - covered - set(JUDGE_CHECKS))  # the judge's need a model: test_judge.py
    assert not missing, f"checks without a zoo case: {missing}"


def test_zoo_ids_are_unique_and_named_after_the_defect() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", case_id) for case_id in ids)
