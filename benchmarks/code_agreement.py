"""Agreement of spade-eval's HumanEval+ / MBPP+ verdicts with evalplus' own, over whole datasets.

For every task, solutions whose verdict is interesting are built from the reference solution:

- ``reference``: the canonical solution as it is;
- ``imports``: the reference after the import lines correct solutions commonly start with
  (``from typing import *``, ``import queue``, the usual standard-library modules);
- ``numpy``: the reference after ``import numpy as np`` (spade-eval runs it in the process backend);
- ``as_floats``: every int in the output turned into a float (``3.0 == 3``: evalplus accepts it);
- ``as_tuple`` / ``reversed``: a list output as a tuple / reversed (set-comparison tasks accept them);
- ``as_bool``: the output replaced by ``output is not None`` ("not None" tasks accept it);
- ``mutant``: the output changed (a number + 1, a string + "x", a list + [0], a bool negated, ...);
- ``raises``: the reference raises on the last plus input.

Each is scored by spade-eval (``EvalPlusBenchmark.check``: sandboxed run, host-side evalplus oracles)
and by evalplus itself (``evalplus.eval.untrusted_check`` on inputs typed by ``mbpp_deserialize_inputs``,
expected outputs from ``evalplus.gen.util.trusted_exec`` of the reference, as ``get_groundtruth`` does),
and the two verdicts are compared. It also checks, for every MBPP+ task, that the arguments a sandboxed
program receives are the ones evalplus passes (same values, same types all the way down).

A disagreement is run again on both sides (``--recheck``, twice by default) before it is reported:
evalplus' limits are wall-clock times on the host, and a busy machine makes either side miss one. Those
that agree on a recheck are listed apart, with evalplus' status on every attempt.

Run: ``python benchmarks/code_agreement.py --data-dir ../shared/data [--limit N | --tasks ID,ID] [--variants a,b]``.
Prints the table and writes ``benchmarks/results/code_agreement.json``. Reference solutions run on the
host here (through evalplus, as evalplus runs them): they are the dataset's, not a model's.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.set_int_max_str_digits(0)

MUTATE = '''

def _spade_mutate(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return value + [0]
    if isinstance(value, tuple):
        return value + (0,)
    if isinstance(value, (set, dict)):
        return None
    return 0 if value is None else None
'''
TRANSFORMS = {
    "as_floats": '''
def _spade_transform(value):
    if type(value) is int:
        return float(value)
    if type(value) in (list, tuple):
        return type(value)(float(v) if type(v) is int else v for v in value)
    return value
''',
    "as_tuple": "\ndef _spade_transform(value):\n    return tuple(value) if type(value) is list else value\n",
    "reversed": "\ndef _spade_transform(value):\n    return value[::-1] if type(value) is list else value\n",
    "as_bool": "\ndef _spade_transform(value):\n    return value is not None\n",
    "mutant": MUTATE + "\n_spade_transform = _spade_mutate\n",
}
IMPORTS = (
    "from typing import *\nimport queue\nimport collections, heapq, itertools, math, re, string, functools\n"
    "import bisect, contextlib, dataclasses, fractions, decimal, statistics, copy, operator, random\n"
    "from collections import defaultdict, Counter, deque\n"
)
VARIANTS = ("reference", "imports", "numpy", "as_floats", "as_tuple", "reversed", "as_bool", "mutant", "raises")


def wrapped(reference: str, entry_point: str, transform: str) -> str:
    return (
        reference + transform + f"\n_spade_reference = {entry_point}\n\n"
        f"def {entry_point}(*args):\n    return _spade_transform(_spade_reference(*args))\n"
    )


def variant_program(name: str, reference: str, entry_point: str, last_plus: Any) -> str:
    if name == "reference":
        return reference
    if name == "imports":
        return IMPORTS + reference
    if name == "numpy":
        return "import numpy as np\n" + reference
    if name == "raises":
        return (
            reference + f"\n_spade_reference = {entry_point}\n_spade_last = {last_plus!r}\n\n"
            f"def {entry_point}(*args):\n    if list(args) == _spade_last:\n        raise ValueError('no')\n"
            f"    return _spade_reference(*args)\n"
        )
    return wrapped(reference, entry_point, TRANSFORMS[name])


def same(a: Any, b: Any) -> bool:
    """Equal values of identical types, recursively."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def official(dataset: str, row: dict[str, Any], program: str, oracle: dict[str, Any]) -> tuple[bool, str]:
    """evalplus' verdict and its status (``pass``, or ``fail`` / ``timeout`` and the part that gave it)."""
    from evalplus.eval import PASS, untrusted_check

    for part in ("base", "plus"):
        if not oracle[part]["inputs"]:
            continue
        status, _ = untrusted_check(
            dataset, program, oracle[part]["inputs"], row["entry_point"], oracle[part]["expected"],
            row["atol"], oracle[part]["times"],
        )
        if status != PASS:
            return False, f"{status} ({part})"
    return True, PASS


def oracle_for(dataset: str, row: dict[str, Any]) -> dict[str, Any]:
    from evalplus.eval._special_oracle import MBPP_OUTPUT_NOT_NONE_TASKS
    from evalplus.gen.util import trusted_exec

    from spade_eval.suites.evalplus_check import typed_inputs

    oracle = {}
    for part in ("base", "plus"):
        raw = row[f"{part}_input"]
        inputs = typed_inputs(dataset, row["task_id"], [] if raw == {} else raw)
        expected, times = trusted_exec(
            row["prompt"] + row["canonical_solution"], inputs, row["entry_point"], record_time=True,
            output_not_none=dataset == "mbpp" and row["entry_point"] in MBPP_OUTPUT_NOT_NONE_TASKS,
        ) if inputs else ([], [])
        oracle[part] = {"inputs": inputs, "expected": expected, "times": times}
    return oracle


def typing_agrees(benchmark: Any, item: Any, oracle: dict[str, Any]) -> bool:
    """The arguments a sandboxed program receives equal evalplus' typed inputs, type for type."""
    from spade_eval.suites.code_exec import decode_value

    for part in ("base", "plus"):
        inputs = item.payload["inputs"][part]
        if not inputs:
            continue
        echo = "def _spade_echo(*args):\n    return list(args)\n"
        outcome = benchmark.runner.run_calls(echo, "_spade_echo", inputs)
        received = [decode_value(r["ok"]) for r in outcome.results if "ok" in r]
        wanted = [list(args) for args in oracle[part]["inputs"]]
        if outcome.error or not same(received, wanted):
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("--limit", type=int, help="first N tasks of each dataset")
    parser.add_argument("--datasets", default="humaneval,mbpp")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", help="only these task ids (comma-separated), e.g. HumanEval/100,Mbpp/2")
    parser.add_argument("--recheck", type=int, default=2, help="reruns of a disagreeing verdict (default 2)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results" / "code_agreement.json")
    args = parser.parse_args()

    from spade_eval.suites.code import EvalPlusBenchmark
    from spade_eval.suites.common import read_jsonl

    variants = [v for v in args.variants.split(",") if v]
    report: dict[str, Any] = {"variants": variants, "datasets": {}}
    for dataset in args.datasets.split(","):
        benchmark = EvalPlusBenchmark(dataset)
        items = {item.id: item for item in benchmark.load(args.data_dir, args.limit)}
        path = args.data_dir / ("code/he_HumanEvalPlus.jsonl.gz" if dataset == "humaneval" else "code/mbpp_MbppPlus.jsonl.gz")
        rows = [row for row in read_jsonl(path, dataset) if row["task_id"] in items]
        if args.tasks:
            rows = [row for row in rows if row["task_id"] in args.tasks.split(",")]
        start = time.monotonic()

        def one(
            row: dict[str, Any], dataset: str = dataset, benchmark: Any = benchmark, items: Any = items
        ) -> dict[str, Any]:
            item = items[row["task_id"]]
            oracle = oracle_for(dataset, row)
            last_plus = list(oracle["plus"]["inputs"][-1]) if oracle["plus"]["inputs"] else None
            out: dict[str, Any] = {"task_id": row["task_id"], "verdicts": {}}
            if dataset == "mbpp":
                out["typing_agrees"] = typing_agrees(benchmark, item, oracle)
            for name in variants:
                program = variant_program(name, row["prompt"] + row["canonical_solution"], row["entry_point"], last_plus)

                def verdicts(program: str = program) -> tuple[bool, str, bool, dict[str, Any]]:
                    theirs, status = official(dataset, row, program, oracle)
                    expected = benchmark.expected_for(item.payload, program)  # on the program's backend
                    if isinstance(expected, str):
                        return theirs, status, False, {"error": expected}
                    ours, detail = benchmark.check(item.payload, program, expected)
                    return theirs, status, ours, detail

                theirs, status, ours, detail = verdicts()
                out["verdicts"][name] = {"ours": ours, "evalplus": theirs}
                if ours != theirs:
                    # A time limit met on a busy machine is not a verdict: run both again before reporting.
                    attempts = [{"ours": ours, "evalplus": theirs, "evalplus_status": status, "detail": detail}]
                    for _ in range(args.recheck):
                        theirs, status, ours, detail = verdicts()
                        attempts.append({"ours": ours, "evalplus": theirs, "evalplus_status": status, "detail": detail})
                        if ours == theirs:
                            break
                    out["verdicts"][name] = {"ours": ours, "evalplus": theirs, "attempts": attempts}
            return out

        with ThreadPoolExecutor(max(1, args.workers)) as pool:
            results = list(pool.map(one, rows))
        summary: dict[str, Any] = {"tasks": len(results), "seconds": round(time.monotonic() - start, 1)}
        for name in variants:
            pairs = [r["verdicts"][name] for r in results]
            summary[name] = {
                "compared": len(pairs),
                "agree": sum(p["ours"] == p["evalplus"] for p in pairs),
                "evalplus_pass": sum(p["evalplus"] for p in pairs),
                "ours_pass": sum(p["ours"] for p in pairs),
                "differ": [
                    {"task_id": r["task_id"], **r["verdicts"][name]} for r in results
                    if r["verdicts"][name]["ours"] != r["verdicts"][name]["evalplus"]
                ],
                "agree_on_recheck": [
                    {"task_id": r["task_id"], **r["verdicts"][name]} for r in results
                    if r["verdicts"][name]["ours"] == r["verdicts"][name]["evalplus"]
                    and "attempts" in r["verdicts"][name]
                ],
            }
        if dataset == "mbpp":
            summary["typing"] = {
                "tasks": len(results),
                "identical": sum(r["typing_agrees"] for r in results),
                "differ": [r["task_id"] for r in results if not r["typing_agrees"]],
            }
        report["datasets"][dataset] = summary
        benchmark.close()
        print(f"{dataset}: {summary['tasks']} tasks in {summary['seconds']} s")
        for name in variants:
            row = summary[name]
            pct = 100 * row["agree"] / max(1, row["compared"])
            print(f"  {name:<10} agree {row['agree']}/{row['compared']} ({pct:.1f}%)  "
                  f"evalplus pass {row['evalplus_pass']}, ours {row['ours_pass']}  "
                  f"differ: {[d['task_id'] for d in row['differ']]}"
                  + (f"  (agree on recheck: {[d['task_id'] for d in row['agree_on_recheck']]})"
                     if row["agree_on_recheck"] else ""))
        if "typing" in summary:
            print(f"  typing identical on {summary['typing']['identical']}/{summary['typing']['tasks']} "
                  f"tasks; differ: {summary['typing']['differ']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, default=str) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
