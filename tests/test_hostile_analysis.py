"""Hostile programs that attack the checker's own analyses of what they return.

These environments try to make the checker's analyses fail or stall: turn limits
(``max_turns = -1``, ``10**12``, ``2 * 10**7``), answers (``\\boxed{7e5000}`` and ``7e30000000`` checked
against a hint, 8,000 unclosed ``\\boxed{``), hints hiding the answer between escape sequences, 5,000-digit
winning moves in the fuzzer, a tool call whose arguments are a JSON string and a tool schema whose
``required`` holds a list. The batch survives them (tests/test_hostile_checker.py checks that every file
is reported, within the host's memory and per-file limits); these tests ask for more: the verdict the
header's ``# barrier:`` line names, with a finding a designer can act on, within a few ordinary
validations' work (and, as a backstop, about 1 s beyond an ordinary file's wall-clock time), and never a
report that the checker itself failed.
"""

from __future__ import annotations

import pytest

from tests.hostile_corpus import (
    CHECKER_PROGRAMS,
    MEMORY_BUDGET_MB,
    CheckerProgram,
    CorpusRun,
    corpus_run,
    sandbox_allowance,
)

CHECKER_FAILED = "made the checker fail"
"""How the batch supervisor reports an exception that escaped the checker (a checker bug, not a finding)."""

BARRIER_PROGRAMS = [p for p in CHECKER_PROGRAMS if p.barrier is not None]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, CorpusRun]:
    kinds = {"slow" if p.slow else "wasm" for p in BARRIER_PROGRAMS}
    return {kind: corpus_run(kind, tmp_path_factory) for kind in sorted(kinds)}


@pytest.mark.parametrize("program", [pytest.param(p, id=p.name) for p in BARRIER_PROGRAMS])
def test_checker_barrier_gives_a_finding_in_time(program: CheckerProgram, runs: dict[str, CorpusRun]) -> None:
    assert program.barrier is not None
    verdict, text = program.barrier
    run = runs["slow" if program.slow else "wasm"]
    report = run.report(program.name)
    messages = [f["message"] for f in report["failures"]]
    assert not any(CHECKER_FAILED in m or "host memory" in m or "the limit for one file" in m for m in messages), (
        f"{program.name}: the checker itself failed or was stopped: {messages}")
    if verdict != "any":
        assert report["ok"] == (verdict == "valid"), f"{program.name}: expected {verdict}: {messages}"
    if text is not None:
        assert any(text in m for m in messages), f"{program.name}: no finding mentions {text!r}: {messages}"
    host = run.host[program.name]
    if program.slow:  # these fuzz 100 examples: held to the batch's limit for one file
        assert host["seconds"] <= run.file_timeout_s, f"{program.name}: took {host['seconds']:.1f} s"
    else:  # the work the limit counts, then seconds as a backstop (see tests/hostile_corpus.py)
        instructions, seconds = sandbox_allowance(program, run)
        assert host["guest_instructions"] <= instructions, (
            f"{program.name}: {host['guest_instructions']:.3g} guest instructions, more than {instructions:.3g}")
        assert host["seconds"] <= seconds, f"{program.name}: took {host['seconds']:.1f} s, more than {seconds:.3g} s"
    assert host["peak_memory_mb"] < MEMORY_BUDGET_MB, f"{program.name}: grew the host by {host['peak_memory_mb']} MB"


def test_the_barrier_corpus_covers_every_analysis_of_the_issue() -> None:
    """One program per host-side analysis the issue lists (the static folding one is fixed here)."""
    names = {p.name for p in BARRIER_PROGRAMS}
    assert names >= {"max_turns_negative", "max_turns_10_to_12", "max_turns_20_million", "answer_7e5000_with_hint",
                     "answer_7e30000000", "solution_8000_unclosed_boxed", "winning_move_5000_digits",
                     "tool_call_arguments_json_string", "tool_schema_required_list", "hint_leak_hidden_in_escapes"}
