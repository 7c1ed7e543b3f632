"""The whole defect zoo validated quiet and beside CPU-spinning processes: are the reports the same?

The sandbox counts guest instructions for every limit that decides a verdict, and the checker sizes its
batches by them, so the reports must agree field by field apart from timings however busy the machine is.
``tests/test_load_verdicts.py`` checks a sample of the zoo on every run; this runs all of it. A report that
differs is validated quietly once more: the zoo's nondeterministic environments (unseeded randomness) differ
between two quiet runs too, since their findings quote their own draws; their verdicts must still agree.

    python benchmarks/load_verdicts.py                 # 2 spinners (both cores of the reference VM busy)
    python benchmarks/load_verdicts.py --spinners 6 --out benchmarks/results/load_verdicts.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spade_envs.checks import validate_source
from spade_envs.checks.dynamic import CheckConfig
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime import ExecutionLimits, create_backend
from tests.children import spinners
from tests.test_load_verdicts import without_timings

ZOO = ROOT / "tests" / "zoo"


def validate_all(paths: list[Path]) -> tuple[list[dict], float]:
    backend = create_backend("wasm", ExecutionLimits(call_timeout_s=1.0))
    config = ValidatorConfig(fuzz=FuzzConfig(examples=100), dynamic=CheckConfig(seed=7))
    started = time.perf_counter()
    reports = []
    for index, path in enumerate(paths, 1):
        report = validate_source(path.read_text(encoding="utf-8"), backend, path=path.stem, config=config)
        reports.append(without_timings(report.model_dump(mode="json")))
        print(f"\r  {index}/{len(paths)} {path.stem[:50]:50s}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return reports, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spinners", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    paths = sorted(p for p in ZOO.glob("*.py") if "zoo-pad-bytes" not in p.read_text(encoding="utf-8")[:2000])
    print(f"quiet: {len(paths)} zoo files", file=sys.stderr)
    quiet, quiet_s = validate_all(paths)
    with spinners(args.spinners):  # they end with this process, however it ends (tests/children.py)
        time.sleep(1.0)
        load = os.getloadavg()[0]
        print(f"busy: {args.spinners} spinning processes", file=sys.stderr)
        busy, busy_s = validate_all(paths)
        load = max(load, os.getloadavg()[0])
    differ = [path for path, a, b in zip(paths, quiet, busy) if a != b]
    verdicts_differ = [path.stem for path, a, b in zip(paths, quiet, busy) if verdict(a) != verdict(b)]
    # A file whose report differs between two quiet runs too is an environment that draws from unseeded
    # randomness (the zoo's nondeterminism cases): its findings quote its own draws, which no load explains.
    again, _ = validate_all(differ) if differ else ([], 0.0)
    nondeterministic = [path.stem for path, first, second in zip(differ, [quiet[paths.index(p)] for p in differ], again)
                        if first != second]
    explained = set(nondeterministic)
    result = {"files": len(paths), "spinners": args.spinners, "load_average_busy": round(load, 2),
              "quiet_s": round(quiet_s, 1), "busy_s": round(busy_s, 1),
              "reports_that_differ": [path.stem for path in differ],
              "of_those_differing_between_two_quiet_runs_too": nondeterministic,
              "reports_that_differ_by_load": [path.stem for path in differ if path.stem not in explained],
              "verdicts_that_differ": verdicts_differ,
              "rejected": sum(not r["ok"] for r in quiet)}
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 1 if verdicts_differ or result["reports_that_differ_by_load"] else 0


def verdict(report: dict) -> tuple:
    """What a report decides: valid or not, and which checks found what at which severity."""
    return (report["ok"], sorted((f["check"], f.get("severity")) for f in report["failures"]),
            sorted((w["check"], w.get("severity")) for w in report["warnings"]))


if __name__ == "__main__":
    raise SystemExit(main())
