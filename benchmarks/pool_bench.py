"""Validate a generated pool through ``spade-envs validate --ray`` on a local Ray cluster, killed and resumed.

The pool is ``--count`` variations of the bundled environments (each with its own class name and
docstring, so each is a distinct environment with its own ``env_id``; their tasks, solutions and checks
are the bundled ones'). The benchmark starts a local Ray cluster (``--cpus`` CPUs), then runs the command
line as a driver on it with a results file, kills that driver once ``--kill-at`` of the pool is done, and
runs it again: the second run must validate exactly the files the first did not finish, and every file
must end up with exactly one report.

    python benchmarks/pool_bench.py                      # 2,000 environments, table + benchmarks/results/pool.json
    python benchmarks/pool_bench.py --count 200 --examples 20
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from spade_envs.cluster import init_ray, shutdown_ray
from spade_envs.fileio import write_atomically
from spade_envs.registry import bundled_registry

RESULTS = Path(__file__).resolve().parent / "results" / "pool.json"


def write_pool(directory: Path, count: int) -> list[Path]:
    """``count`` variations of the bundled environments, one file each, round robin over the library."""
    entries = list(bundled_registry())
    paths = []
    for index in range(count):
        entry = entries[index % len(entries)]
        name = entry.class_name or ""
        variant = name.removesuffix("Env") + f"V{index:05d}Env"
        source = re.sub(rf"\b{name}\b", variant, entry.source())
        source = source.replace('"""', f'"""(Pool variant {index} of {entry.name}.) ', 1)
        path = directory / f"{entry.name}_{index:05d}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


def _record(line: str) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None  # the line the kill cut short
    return record if isinstance(record, dict) and "report" in record else None


def _lines(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("\n") if path.exists() else 0


def run_driver(command: list[str], results: Path, kill_after: int | None) -> dict[str, Any]:
    """Run the command line; with ``kill_after``, SIGKILL it once the results file holds that many reports."""
    started = time.perf_counter()
    if kill_after is None:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"the driver failed ({done.returncode}): {done.stderr[-1500:]}")
        return {"seconds": round(time.perf_counter() - started, 2), "document": json.loads(done.stdout)}
    driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while driver.poll() is None and _lines(results) < kill_after:
        time.sleep(0.2)
    if driver.poll() is None:
        driver.send_signal(signal.SIGKILL)
    driver.wait()
    return {"seconds": round(time.perf_counter() - started, 2), "killed_after_reports": _lines(results)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="environments in the pool (default 2000)")
    parser.add_argument("--examples", type=int, default=100, help="fuzz examples per environment (default 100)")
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 1, help="CPUs of the local cluster")
    parser.add_argument("--kill-at", type=float, default=0.3, help="fraction of the pool after which the "
                        "driver is killed (default 0.3)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    machine = {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
               "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="spade-pool-bench-") as tmp:
        pool, results = Path(tmp) / "pool", Path(tmp) / "results.jsonl"
        pool.mkdir()
        write_pool(pool, args.count)
        print(f"pool of {args.count} environments in {pool}; starting a local Ray cluster ({args.cpus} CPUs)",
              file=sys.stderr, flush=True)
        import ray

        init_ray(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            address = ray.get_runtime_context().gcs_address
            command = [sys.executable, "-m", "spade_envs.cli", "validate", str(pool), "--examples",
                       str(args.examples), "--ray", address, "--results", str(results), "--json"]
            kill_after = max(1, int(args.count * args.kill_at))
            print(f"first run, killed after {kill_after} reports ...", file=sys.stderr, flush=True)
            first = run_driver(command, results, kill_after)
            print(f"second run, resuming from {first['killed_after_reports']} reports ...", file=sys.stderr,
                  flush=True)
            second = run_driver(command, results, None)
        finally:
            shutdown_ray()
        document = second.pop("document")
        summary = document["summary"]
        reports = [record["report"] for record in map(_record, results.read_text().splitlines()) if record]
    paths = [report["path"] for report in reports]
    row = {
        "environments": args.count,
        "fuzz_examples": args.examples,
        "cluster_cpus": args.cpus,
        "ray_workers": summary["workers"],
        "first_run": first,
        "second_run": {**second, "validated": summary["validated"], "already_done": summary["already_done"],
                       "validation_seconds": summary["seconds"], "environments_per_s": summary["environments_per_s"]},
        "valid": summary["valid"],
        "invalid": summary["invalid"],
        "reports_in_results_file": len(reports),
        "distinct_files_reported": len(set(paths)),
        "no_work_repeated": len(reports) == len(set(paths)) == args.count
        and summary["validated"] == args.count - first["killed_after_reports"],
    }
    print(f"\n{args.count} environments, {args.examples} fuzz examples, Ray on {args.cpus} CPUs "
          f"({summary['workers']} workers)")
    print(f"first run:  killed after {first['killed_after_reports']} reports ({first['seconds']} s)")
    print(f"second run: {summary['validated']} validated, {summary['already_done']} skipped, "
          f"{summary['seconds']} s, {summary['environments_per_s']} envs/s")
    print(f"results file: {len(reports)} reports for {len(set(paths))} files; valid {summary['valid']}, "
          f"invalid {summary['invalid']}; no work repeated: {row['no_work_repeated']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps({"machine": machine, "results": row}, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0 if row["no_work_repeated"] and summary["invalid"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
