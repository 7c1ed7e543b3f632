"""Which benchmarks exist: a static table of suite modules, imported only when a suite is selected.

Suites have their own dependencies (lm-eval and math-verify for math, reasoning-gym, textarena, bfcl-eval);
importing every suite to list the reasoning benchmarks would make one missing extra break everything. So
the table names modules, each module exposes ``BENCHMARKS: dict[str, BenchmarkFactory]``, and a module
that cannot be imported becomes one line naming the package to install, raised only when that suite is
used.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from spade_envs.errors import SpadeError
from spade_eval.benchmark import BenchmarkFactory

SUITE_MODULES: dict[str, tuple[str, ...]] = {
    "reasoning": (
        "spade_eval.suites.math",
        "spade_eval.suites.science",
        "spade_eval.suites.code",
        "spade_eval.suites.reasoning_gym",
        "spade_eval.suites.bbeh",
    ),
    "tool_use": ("spade_eval.suites.bfcl", "spade_eval.suites.acebench", "spade_eval.suites.tau2_bench"),
    "games": ("spade_eval.suites.games",),
}
SUITES: tuple[str, ...] = tuple(SUITE_MODULES)
ALL = "all"
DEFAULT_SUITE = "reasoning"
"""What ``spade-eval run`` runs when neither ``--suite`` nor ``--benchmarks`` says."""

INSTALL_HINTS: dict[str, str] = {
    "lm_eval": 'pip install "lm-eval[hf,api]==0.4.13"',
    "math_verify": "pip install math-verify",
    "reasoning_gym": "pip install reasoning-gym",
    "textarena": "pip install textarena",
    "bfcl_eval": "pip install --no-deps bfcl-eval (see the Makefile's NO_DEPS_PACKAGES)",
    "evalplus": "pip install --no-deps evalplus==0.3.1 (see the Makefile's NO_DEPS_PACKAGES)",
}


class RegistryError(SpadeError):
    """An unknown suite or benchmark, or a suite whose dependencies are missing; one line with the fix."""


@dataclass(frozen=True)
class Entry:
    name: str
    suite: str
    module: str
    factory: BenchmarkFactory


def suite_names(suite: str) -> tuple[str, ...]:
    if suite == ALL:
        return SUITES
    if suite not in SUITE_MODULES:
        raise RegistryError(f"unknown suite {suite!r}; choose one of: {', '.join((*SUITES, ALL))}")
    return (suite,)


def load_suite(suite: str) -> dict[str, Entry]:
    """Every benchmark of ``suite`` (importing its modules now)."""
    entries: dict[str, Entry] = {}
    for module_name in SUITE_MODULES[suite]:
        for name, factory in _import_benchmarks(module_name, suite).items():
            entries[name] = Entry(name, suite, module_name, factory)
    return entries


def select(suite: str | None, names: Sequence[str] | None = None) -> list[Entry]:
    """The entries to run: every benchmark of the suite(s), or only ``names`` (in the order given).

    Named benchmarks are looked up in ``suite`` when one is given, else in every suite, importing
    suites only until every name is found: naming ``tau2_airline`` must not need lm-eval installed.
    A suite that cannot be imported is passed over, and its error is raised only when a name is left
    that it may hold.
    """
    if not names:
        available: dict[str, Entry] = {}
        for one_suite in suite_names(suite or DEFAULT_SUITE):
            available.update(load_suite(one_suite))
        return list(available.values())
    found: dict[str, Entry] = {}
    failures: list[RegistryError] = []
    for one_suite in suite_names(suite or ALL):
        if all(name in found for name in names):
            break
        try:
            entries = load_suite(one_suite)
        except RegistryError as error:
            failures.append(error)
            continue
        found.update({name: entry for name, entry in entries.items() if name in names})
    unknown = [name for name in names if name not in found]
    if unknown and failures:
        raise failures[0]
    if unknown:
        raise RegistryError(_unknown_message(unknown, suite))
    return [found[name] for name in names]


def _unknown_message(unknown: list[str], suite: str | None) -> str:
    """Which names are unknown, and, for those that belong to another suite than ``--suite``, which."""
    if suite is None or suite == ALL:
        return f"unknown benchmark(s) {', '.join(unknown)}; `spade-eval list` shows them"
    elsewhere: dict[str, str] = {}
    for other in SUITES:
        if other == suite:
            continue
        try:
            elsewhere.update({name: other for name in load_suite(other) if name in unknown})
        except RegistryError:
            continue
    if elsewhere:
        where = ", ".join(f"{name} is in suite {other}" for name, other in elsewhere.items())
        return f"{where}, not {suite}: drop --suite, or pass --suite all"
    return f"unknown benchmark(s) {', '.join(unknown)} in suite {suite}; `spade-eval list` shows them"


def _import_benchmarks(module_name: str, suite: str) -> dict[str, BenchmarkFactory]:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if error.name and (error.name == module_name or module_name.startswith(f"{error.name}.")):
            raise RegistryError(
                f"suite {suite}: module {module_name} is not part of this installation"
            ) from None
        hint = INSTALL_HINTS.get(missing, f"pip install {missing}")
        raise RegistryError(f"suite {suite} needs the package {missing!r}: {hint}") from None
    benchmarks = getattr(module, "BENCHMARKS", None)
    if not isinstance(benchmarks, dict):
        raise RegistryError(f"{module_name} defines no BENCHMARKS table")
    return benchmarks
