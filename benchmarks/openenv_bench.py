"""Step latency through the OpenEnv server beside the in-process sandbox step, up to 64 sessions at once.

The server is ``spade-envs serve-openenv`` in a process of its own (wasm sandbox, one sandbox session per
client session); the clients are OpenEnv's own ``GenericEnvClient`` in this process, all on one event loop,
each playing the bundled ``maze_walk`` environment with a fixed cycle of moves and resetting when an
episode ends. Only ``step`` calls are timed. The reference is the same step on a ``SandboxedPoolEnv`` in
this process (no server, no socket), at the same number of sessions, one thread per session.

    python benchmarks/openenv_bench.py                       # 1, 16 and 64 sessions; JSON in benchmarks/results/
    python benchmarks/openenv_bench.py --sessions 1 8 --steps 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from spade_envs.fileio import write_atomically
from spade_envs.interop.pool_env import SandboxedPoolEnv, load_pool, sandbox_backend
from spade_envs.pool import write_pool
from spade_envs.registry import bundled_registry

RESULTS = Path(__file__).resolve().parent / "results" / "openenv.json"
ENVIRONMENT = "maze_walk"
MOVES = ("\\boxed{up}", "\\boxed{right}", "\\boxed{down}", "\\boxed{left}", "\\boxed{right}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(latencies_s: list[float], spans: list[tuple[float, float]]) -> dict[str, float]:
    """Latency percentiles, and throughput over the time any session was stepping (sessions' first step
    to the last one's end: connecting, loading and the first reset are not steps)."""
    wall_s = max(end for _, end in spans) - min(start for start, _ in spans)
    return {"steps": len(latencies_s), "p50_ms": round(1000 * statistics.median(latencies_s), 3),
            "p95_ms": round(1000 * percentile(latencies_s, 0.95), 3),
            "mean_ms": round(1000 * statistics.fmean(latencies_s), 3),
            "steps_per_s": round(len(latencies_s) / wall_s, 1)}


# ---------------------------------------------------------------------- through the server
async def client_session(url: str, seed: int, steps: int, latencies: list[float],
                         spans: list[tuple[float, float]]) -> None:
    from openenv.core.generic_client import GenericEnvClient

    async with GenericEnvClient(base_url=url, connect_timeout_s=120.0, message_timeout_s=120.0) as client:
        result = await client.reset(seed=seed)
        first = time.perf_counter()
        for number in range(steps):
            if result.done:
                result = await client.reset(seed=seed + 1000 * (number + 1))
            started = time.perf_counter()
            result = await client.step({"text": MOVES[number % len(MOVES)]})
            latencies.append(time.perf_counter() - started)
        spans.append((first, time.perf_counter()))


async def through_server(url: str, sessions: int, steps: int) -> dict[str, float]:
    latencies: list[float] = []
    spans: list[tuple[float, float]] = []
    await asyncio.gather(*(client_session(url, seed, steps, latencies, spans) for seed in range(sessions)))
    return summary(latencies, spans)


def start_server(pool: Path, port: int, max_sessions: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "spade_envs.cli", "serve-openenv", str(pool), "--port", str(port),
               "--max-sessions", str(max_sessions)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with opener.open(f"http://127.0.0.1:{port}/health", timeout=2):
                return server
        except OSError:
            if server.poll() is not None:
                raise RuntimeError(f"the server exited: {server.stdout.read() if server.stdout else ''}") from None
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not answer /health within 180 s")


# ---------------------------------------------------------------------- in process
def in_process(pool: Path, sessions: int, steps: int) -> dict[str, float]:
    environments = load_pool(pool)
    backend = sandbox_backend("wasm")
    latencies: list[float] = []
    spans: list[tuple[float, float]] = []

    def play(seed: int) -> None:
        with SandboxedPoolEnv(environments, backend) as env:
            env.reset(seed)
            first = time.perf_counter()
            for number in range(steps):
                if env.done:
                    env.reset(seed + 1000 * (number + 1))
                started = time.perf_counter()
                env.step(MOVES[number % len(MOVES)])
                latencies.append(time.perf_counter() - started)
            spans.append((first, time.perf_counter()))

    with ThreadPoolExecutor(max_workers=sessions) as threads:
        list(threads.map(play, range(sessions)))
    return summary(latencies, spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 16, 64])
    parser.add_argument("--steps", type=int, default=40, help="timed steps per session (default 40)")
    parser.add_argument("--port", type=int, default=18765)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--work", type=Path, default=Path("/tmp/spade-openenv-bench"))
    args = parser.parse_args()
    entry = bundled_registry().get(ENVIRONMENT)
    pool = args.work / "pool"
    write_pool(pool, "openenv-bench", [(entry.spec(), entry.source())], validated=True)
    server = start_server(pool, args.port, max(args.sessions))
    rows: list[dict[str, Any]] = []
    try:
        url = f"http://127.0.0.1:{args.port}"
        for sessions in args.sessions:
            served = asyncio.run(through_server(url, sessions, args.steps))
            local = in_process(pool, sessions, args.steps)
            rows.append({"sessions": sessions, "server": served, "in_process": local})
            print(f"{sessions:>3} sessions  server p50 {served['p50_ms']:8.2f} ms  p95 {served['p95_ms']:8.2f} ms"
                  f"  {served['steps_per_s']:7.1f} steps/s   |  in-process p50 {local['p50_ms']:7.2f} ms"
                  f"  p95 {local['p95_ms']:7.2f} ms  {local['steps_per_s']:7.1f} steps/s", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    document = {"benchmark": "openenv_server", "environment": ENVIRONMENT, "sandbox": "wasm",
                "steps_per_session": args.steps, "rows": rows,
                "host": {"cpus": os.cpu_count(), "python": platform.python_version(),
                         "load_average": [round(x, 2) for x in os.getloadavg()]}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(document, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
