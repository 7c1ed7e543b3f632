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
    "tool_use": ("spade_eval.suites.bfcl", "spade_eval.suites.acebench"),
    "games": ("spade_eval.suites.games",),
}
SUITES: tuple[str, ...] = tuple(SUITE_MODULES)
ALL = "all"

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


def select(suite: str, names: Sequence[str] | None = None) -> list[Entry]:
    """The entries to run: every benchmark of the suite(s), or only ``names`` (in the order given)."""
    available: dict[str, Entry] = {}
    for one_suite in suite_names(suite):
        available.update(load_suite(one_suite))
    if not names:
        return list(available.values())
    unknown = [name for name in names if name not in available]
    if unknown:
        raise RegistryError(
            f"unknown benchmark(s) {', '.join(unknown)} in suite {suite}; `spade-eval list` shows them"
        )
    return [available[name] for name in names]


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
