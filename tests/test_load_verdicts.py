"""A verdict does not depend on the machine's load: the same file, the same JSON report, quiet or busy.

The sandbox's limits count guest instructions and the checker sizes its batches by them, so two
CPU-spinning processes beside the validator change how long it takes and nothing else. This test runs a
sample of the defect zoo (time limits, slow steps, probes, fuzzing, a valid game) quiet and then beside two
spinners, and compares the reports field by field apart from timings: a few seconds each way.
``benchmarks/load_verdicts.py`` does the same for the whole zoo at the CLI's limits.
"""

from __future__ import annotations

import time
from pathlib import Path

from spade_envs.checks import validate_source
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime import ExecutionLimits, create_backend
from tests.children import spinners

ZOO = Path(__file__).resolve().parent / "zoo"
SAMPLE = ["timeout_spin_back_hang", "step_budget_trial_division", "answer_leak_fixed_position", "valid_plain_game",
          "validation_aware_reasoned_replies"]
TIMINGS = {"duration_ms", "duration_s"}
CALL_TIMEOUT_S = 0.25
"""A short call limit keeps the sample to seconds (a limit that is hit costs its budget twice); the
checker's batches are still sized by it, in instructions, which is what load must not change."""


def without_timings(value):
    """A report as plain data, every timing field removed."""
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if key not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def reports(names: list[str]) -> list[dict]:
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=CALL_TIMEOUT_S))
    config = ValidatorConfig(fuzz=FuzzConfig(examples=20), dynamic=CheckConfig(seed=7))
    return [without_timings(validate_source((ZOO / f"{name}.py").read_text(encoding="utf-8"), backend,
                                            path=name, config=config).model_dump(mode="json")) for name in names]


def test_the_same_reports_beside_two_spinning_processes() -> None:
    quiet = reports(SAMPLE)
    with spinners(2):
        time.sleep(0.5)
        busy = reports(SAMPLE)
    for name, a, b in zip(SAMPLE, quiet, busy):
        assert a == b, f"{name}: the report changed under load"
    assert any(not r["ok"] for r in quiet) and any(r["ok"] for r in quiet)
