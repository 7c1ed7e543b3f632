"""Benchmark the execution backends side by side over the bundled environment library.

Reports, per backend: session start (from the cached image), environment load, step round trip and
steps per second, memory per live session, and the time to validate the whole library. The
``inprocess+json`` row calls the same dispatcher as the sandbox, through the same JSON request
protocol, in this interpreter: the floor for any isolated design, and the reference for the targets.

    python benchmarks/sandbox_bench.py                # table on stdout, JSON in benchmarks/results/
    python benchmarks/sandbox_bench.py --steps 500 --sessions 20 --out results.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spade_envs.checks import ValidatorConfig, validate_source
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.probes import GARBAGE_ACTIONS
from spade_envs.fileio import write_atomically
from spade_envs.registry import EnvEntry, bundled_registry
from spade_envs.runtime import ExecutionLimits, create_backend
from spade_envs.runtime.guest import EnvHost
from spade_envs.runtime.inprocess import InProcessBackend
from spade_envs.runtime.session import EnvSession

RESULTS_DIR = Path(__file__).resolve().parent / "results"


class _JsonInProcessTransport:
    """The in-process dispatcher behind a JSON encode/decode on both sides, as the sandbox does."""

    def __init__(self) -> None:
        self.host = EnvHost()

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        return json.loads(json.dumps(self.host.handle(json.loads(json.dumps(request)))))

    def close(self) -> None:
        self.host = EnvHost()


class JsonInProcessBackend(InProcessBackend):
    name = "inprocess+json"

    def open_transport(self) -> _JsonInProcessTransport:  # type: ignore[override]
        return _JsonInProcessTransport()


def _rss_bytes(pid: int | None = None) -> int:
    with open(f"/proc/{pid or 'self'}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1e3, 4)


def _script(session: EnvSession, seed: int) -> list[str]:
    """Actions for the step benchmark: the solution's moves interleaved with invalid moves."""
    session.reset(seed)
    moves = solution_to_actions(session.solution(), tool_use=session.loaded.tool_use)
    probes = [a for a in GARBAGE_ACTIONS[2:10] if len(a) < 100]
    return [a for pair in zip(probes * 4, moves + probes * 4) for a in pair]


def bench_backend(backend: Any, entries: list[EnvEntry], steps: int, sessions: int) -> dict[str, Any]:
    starts, loads, step_times = [], [], []
    for entry in entries:
        source = entry.source()
        backend.open_session(source, class_name=entry.class_name).close()  # warm caches once
        for _ in range(3):
            begin = time.perf_counter()
            transport = backend.open_transport()
            started = time.perf_counter()
            session = EnvSession(lambda t=transport: t, source, class_name=entry.class_name)
            loaded = time.perf_counter()
            starts.append(started - begin)
            loads.append(loaded - started)
            session.close()
        with backend.open_session(source, class_name=entry.class_name) as session:
            script = _script(session, 0)
            session.reset(0)
            done_steps, index = 0, 0
            while done_steps < steps:
                action = script[index % len(script)]
                index += 1
                begin = time.perf_counter()
                result = session.step(action)
                step_times.append(time.perf_counter() - begin)
                done_steps += 1
                if result.done:
                    session.reset(done_steps)
    memory = _memory_per_session(backend, entries[0], sessions)
    step_median = statistics.median(step_times)
    return {
        "session_start_ms": _median_ms(starts),
        "env_load_ms": _median_ms(loads),
        "step_round_trip_us": round(step_median * 1e6, 1),
        "steps_per_s": round(len(step_times) / sum(step_times)),
        "memory_per_session_mb": memory,
    }


def _memory_per_session(backend: Any, entry: EnvEntry, count: int) -> float:
    """Resident memory added by ``count`` live sessions (children's memory for the process backend)."""
    gc.collect()
    before = _rss_bytes()
    live = [backend.open_session(entry.source(), class_name=entry.class_name) for _ in range(count)]
    for session in live:
        session.reset(1)
        session.step("\\boxed{1}")
    after = _rss_bytes()
    children = 0
    for session in live:
        child = getattr(session._transport, "_child", None)
        if child is not None:
            children += _rss_bytes(child.pid)
    for session in live:
        session.close()
    return round((after - before + children) / count / 2**20, 2)


def bench_validation(make_backend: Callable[[], Any], entries: list[EnvEntry], repeats: int) -> float:
    backend = make_backend()
    times = []
    for _ in range(repeats):
        begin = time.perf_counter()
        for entry in entries:
            report = validate_source(entry.source(), backend, class_name=entry.class_name, config=ValidatorConfig())
            assert report.ok, (entry.name, report.failures)
        times.append(time.perf_counter() - begin)
    return round(statistics.median(times), 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="steps per environment (default 300)")
    parser.add_argument("--sessions", type=int, default=20, help="live sessions for the memory figure")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the library validation")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "sandbox.json")
    args = parser.parse_args(argv)

    entries = list(bundled_registry())
    limits = ExecutionLimits()
    makers: dict[str, Callable[[], Any]] = {
        "inprocess": lambda: create_backend("inprocess", limits),
        "inprocess+json": lambda: JsonInProcessBackend(limits),
        "process": lambda: create_backend("process", limits),
        "wasm": lambda: create_backend("wasm", limits),
    }
    rows: dict[str, dict[str, Any]] = {}
    for name, make in makers.items():
        print(f"benchmarking {name} ...", file=sys.stderr, flush=True)
        begin = time.perf_counter()
        backend = make()
        rows[name] = {"backend_create_ms": round((time.perf_counter() - begin) * 1e3, 2)}
        rows[name].update(bench_backend(backend, entries, args.steps, args.sessions))
        rows[name]["validate_library_s"] = bench_validation(make, entries, args.repeats)

    wasm, floor, process, inproc = rows["wasm"], rows["inprocess+json"], rows["process"], rows["inprocess"]
    targets = {
        "wasm_step_vs_inprocess_json (<= 4x)": round(wasm["step_round_trip_us"] / floor["step_round_trip_us"], 2),
        "process_step_vs_wasm (>= 2x)": round(process["step_round_trip_us"] / wasm["step_round_trip_us"], 2),
        "wasm_session_start_ms (<= 2)": wasm["session_start_ms"],
        "wasm_env_load_ms (<= 10)": wasm["env_load_ms"],
        "wasm_memory_per_session_mb (<= 12)": wasm["memory_per_session_mb"],
        "wasm_validate_vs_inprocess (<= 3x)": round(wasm["validate_library_s"] / inproc["validate_library_s"], 2),
    }
    _print_table(rows, targets)
    document = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
        "environments": [e.name for e in entries],
        "settings": {"steps": args.steps, "sessions": args.sessions, "repeats": args.repeats},
        "backends": rows,
        "targets": targets,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(document, indent=2) + "\n")
    print(f"\nwrote {args.out}")
    return 0


def _print_table(rows: dict[str, dict[str, Any]], targets: dict[str, float]) -> None:
    columns = ["backend_create_ms", "session_start_ms", "env_load_ms", "step_round_trip_us", "steps_per_s",
               "memory_per_session_mb", "validate_library_s"]
    width = max(len(c) for c in columns)
    print(f"\n{'':<{width}}" + "".join(f"{name:>16}" for name in rows))
    for column in columns:
        print(f"{column:<{width}}" + "".join(f"{rows[name][column]:>16}" for name in rows))
    print()
    for name, value in targets.items():
        print(f"{name:<40} {value}")


if __name__ == "__main__":
    sys.exit(main())
