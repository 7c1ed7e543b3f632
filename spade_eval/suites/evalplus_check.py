"""HumanEval+ and MBPP+ verdicts with evalplus' own semantics, reached on the host from sandboxed runs.

evalplus (the ``evalplus`` package, installed without its heavy dependencies) supplies every piece that
decides a verdict: MBPP+ argument typing (``mbpp_deserialize_inputs``), the special oracles
(``_special_oracle``: set comparison, "not None" tasks, Mbpp/164, 295, 558, 581, HumanEval/32's
polynomial root), the float test (``is_floats``), and the time limits (``DEFAULT_GT_TIME_LIMIT_FACTOR``,
``DEFAULT_MIN_TIME_LIMIT``). ``check_outputs`` applies them in the order evalplus' ``unsafe_execute``
does, to the values the program returned (rebuilt on the host by ``code_exec.decode_value``):

- per test: ``out == exp``, then the task's special oracle; floats compare with ``np.allclose(rtol=1e-7,
  atol)`` after a type and length check, where ``atol`` is the task's, or 1e-6 from the first test whose
  expected output is a float or a list of floats on (evalplus keeps that value for the rest of the task);
- expected outputs are the reference solution's (``prompt + canonical_solution``) on the same inputs;
  for "not None" tasks, whether it returned something;
- a test may take ``max(DEFAULT_MIN_TIME_LIMIT, DEFAULT_GT_TIME_LIMIT_FACTOR * reference time)``; base
  and plus inputs run as two jobs, each within ``min(60 s, sum of its limits)`` plus evalplus' 3 s of
  slack; absolute times are multiplied by the backend's slowdown (``CodeExecution.sandbox_slowdown``).

A sample passes when both jobs pass every test. Where this differs from the installed evalplus 0.3.1:
its ``find_zero`` oracle (HumanEval/32) forgets to record a passing test, so it fails every solution,
its own reference included; evalplus fixed that after 0.3.1 (evalplus#241) and this module follows the
fix. The other known difference is an output too long to send back that matches the expected one only
within a float tolerance (see ``code_exec``): it fails here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from evalplus.config import DEFAULT_GT_TIME_LIMIT_FACTOR, DEFAULT_MIN_TIME_LIMIT
from evalplus.data.mbpp import mbpp_deserialize_inputs
from evalplus.eval import is_floats
from evalplus.eval._special_oracle import (
    MBPP_OUTPUT_NOT_NONE_TASKS,
    MBPP_OUTPUT_SET_EQ_TASKS,
    _digit_distance_nums,
    _poly,
    _surface_Area,
)

from spade_eval.suites.code_exec import Digest, RunOutcome, decode_value

TASK_TIME_CAP_S = 60.0
"""evalplus' per-job cap (``EVALPLUS_TIMEOUT_PER_TASK``'s default)."""
JOB_SLACK_S = 3.0
"""What evalplus adds to a job's cap before killing it: 1 s, 1 s more without fast_check, 1 s of join."""


def typed_inputs(dataset: str, task_id: str, inputs: list[Any]) -> list[Any]:
    """The inputs as evalplus passes them: MBPP+'s JSON lists retyped by ``mbpp_deserialize_inputs``."""
    return mbpp_deserialize_inputs(task_id, inputs) if dataset == "mbpp" else inputs


def only_not_none(dataset: str, entry_point: str) -> bool:
    """Tasks whose outputs evalplus only checks for being None or not."""
    return dataset == "mbpp" and entry_point in MBPP_OUTPUT_NOT_NONE_TASKS


def time_limits(reference_times: list[float], slowdown: float) -> list[float]:
    return [max(DEFAULT_MIN_TIME_LIMIT * slowdown, DEFAULT_GT_TIME_LIMIT_FACTOR * t) for t in reference_times]


def job_deadline(limits: list[float], slowdown: float) -> float:
    return min(TASK_TIME_CAP_S * slowdown, sum(limits)) + JOB_SLACK_S * slowdown


@dataclass(frozen=True)
class Expected:
    """The reference solution's outputs (host values) and times on one job's inputs."""

    outputs: list[Any]
    times: list[float]


def expected_from(outcome: RunOutcome, dataset: str, entry_point: str, count: int) -> Expected | str:
    """The reference run's outputs, or why they cannot serve (it failed on an input)."""
    if outcome.error:
        return f"reference: {outcome.error}"
    if len(outcome.results) != count or any("ok" not in result for result in outcome.results):
        bad = next((r for r in outcome.results if "ok" not in r), {"error": "stopped early"})
        return f"reference failed on an input: {bad.get('error', 'over its time limit')}"
    outputs = [decode_value(result["ok"]) for result in outcome.results]
    if only_not_none(dataset, entry_point):
        outputs = [output is not None for output in outputs]
    return Expected(outputs, [float(result.get("time", 0.0)) for result in outcome.results])


def check_outputs(
    dataset: str,
    entry_point: str,
    inputs: list[Any],
    expected: Expected,
    outcome: RunOutcome,
    atol: float,
    limits: list[float],
) -> tuple[bool, dict[str, Any]]:
    """evalplus' verdict on one job (see the module docstring); on failure, which test and why."""
    if outcome.error:
        return False, {"error": outcome.error}
    for index, inp in enumerate(inputs):
        if index >= len(outcome.results):
            return False, {"failed_test": index, "error": "the job stopped before this test (deadline)"}
        result = outcome.results[index]
        if "timeout" in result:
            return False, {"failed_test": index, "error": f"over the {limits[index]:.2f} s limit"}
        if "error" in result:
            return False, {"failed_test": index, "error": str(result["error"])[:300]}
        if float(result.get("time", 0.0)) > limits[index]:
            return False, {"failed_test": index, "error": f"over the {limits[index]:.2f} s limit"}
        out = decode_value(result["ok"])
        exp = expected.outputs[index]
        if "args" in result:  # the arguments after the call: oracles read them as the program left them
            inp = decode_value(result["args"])
        try:
            atol = _check_one(dataset, entry_point, inp, out, exp, atol)
        except BaseException as error:  # noqa: BLE001 - as evalplus: any failure of the check fails the test
            reason = "wrong output"
            if isinstance(out, Digest) or isinstance(exp, Digest):
                reason = "wrong output (too long to compare within a tolerance)"
            elif not isinstance(error, AssertionError):
                reason = f"wrong output ({type(error).__name__})"
            return False, {"failed_test": index, "error": reason}
    return True, {}


def _check_one(dataset: str, entry_point: str, inp: Any, out: Any, exp: Any, atol: float) -> float:
    """One test, as evalplus' ``unsafe_execute`` checks it; raises on failure; returns the ``atol`` in
    force for the following tests."""
    exact_match = out == exp
    if dataset == "mbpp":
        if entry_point == "are_equivalent":  # Mbpp/164
            exact_match = exact_match or True
        elif entry_point == "sum_div":  # Mbpp/295
            exact_match = exact_match or out == 0
        elif entry_point == "surface_Area":  # Mbpp/581
            exact_match = exact_match or abs(out - _surface_Area(*inp)) <= atol
        elif entry_point == "digit_distance_nums":  # Mbpp/558
            exact_match = exact_match or out == _digit_distance_nums(*inp)
        elif entry_point in MBPP_OUTPUT_SET_EQ_TASKS:
            exact_match = set(out) == set(exp)
        elif entry_point in MBPP_OUTPUT_NOT_NONE_TASKS:
            exact_match = out == exp if isinstance(out, bool) else exp == (out is not None)
    if dataset == "humaneval" and entry_point == "find_zero":  # HumanEval/32: a root, not the reference's
        assert abs(_poly(*inp, out)) <= atol
        return atol
    if atol == 0 and is_floats(exp):
        atol = 1e-6
    if not exact_match and atol != 0:
        assert type(out) == type(exp)
        if isinstance(exp, (list, tuple)):
            assert len(out) == len(exp)
        assert np.allclose(out, exp, rtol=1e-07, atol=atol)
    else:
        assert exact_match
    return atol
