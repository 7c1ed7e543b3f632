"""Benchmark the execution backends side by side over the bundled environment library.

Reports, per backend: session start (from the cached image), environment load, step round trip and
steps per second, memory per live session, and the time to validate the whole library. The
``inprocess+json`` row calls the same dispatcher as the sandbox, through the same JSON request
protocol, in this interpreter: the floor for any isolated design, and the reference for the targets.

It also measures how far past its time limit a looping environment runs in the sandbox while the host
is busy (``deadline``), for each epoch ticker (the native timer and the Python thread it replaced), at
the default 10 s limit and at 1 s, under four loads: none; both cores busy with other processes; two
threads of this process running Python (they hold the GIL nearly all the time); and one thread of this
process in a single C call that holds the GIL for longer than the limit (a backtracking regex). Under the
last load the caller cannot return before the GIL is free, so the guest's own run time (the CPU time of
the thread that called into the sandbox) is reported beside the caller's.

    python benchmarks/sandbox_bench.py                # table on stdout, JSON in benchmarks/results/
    python benchmarks/sandbox_bench.py --steps 500 --sessions 20 --out results.json
    python benchmarks/sandbox_bench.py --deadline-only  # only the deadline figures (about 2 minutes)
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the spinner that ends with this process lives with the tests

from spade_envs.checks import ValidatorConfig, validate_source
from spade_envs.contract.actions import solution_to_actions
from spade_envs.contract.probes import GARBAGE_ACTIONS
from spade_envs.fileio import write_atomically
from spade_envs.registry import EnvEntry, bundled_registry
from spade_envs.runtime import EnvTimeoutError, ExecutionLimits, create_backend
from spade_envs.runtime.guest import EnvHost
from spade_envs.runtime.inprocess import InProcessBackend
from spade_envs.runtime.session import EnvSession
from spade_envs.runtime.wasm import WasmBackend, WasmConfig
from tests.children import spinner

RESULTS_DIR = Path(__file__).resolve().parent / "results"
GUEST_CALL_ONLY = "wasm, guest call only"
"""The thread figure's floor row: wasm steps with no host work but the guest call (see ``_Stepper``)."""


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


def bench_step_ratio(backends: dict[str, Any], entries: list[EnvEntry], steps: int, rounds: int = 5) -> dict[str, Any]:
    """The step round trip of each backend, measured interleaved: every round plays ``steps`` steps of each
    environment on each backend in turn, so both sides of a ratio see the same moment of a shared machine
    (its speed drifts by a third over seconds). Per backend: the median step over all rounds; per pair with
    ``inprocess+json``: the median over (round, environment) of the two medians' ratio."""
    sessions = {name: {} for name in backends}
    scripts = {}
    for entry in entries:
        for name, backend in backends.items():
            session = backend.open_session(entry.source(), class_name=entry.class_name)
            sessions[name][entry.name] = session
            scripts.setdefault(entry.name, _script(session, 0))
            session.reset(0)
    samples: dict[str, list[float]] = {name: [] for name in backends}
    ratios: dict[str, list[float]] = {name: [] for name in backends if name != "inprocess+json"}
    try:
        for round_index in range(rounds):
            for entry in entries:
                medians = {}
                order = list(backends) if round_index % 2 == 0 else list(reversed(list(backends)))
                for name in order:
                    session, script = sessions[name][entry.name], scripts[entry.name]
                    times = []
                    for index in range(steps):
                        begin = time.perf_counter()
                        result = session.step(script[index % len(script)])
                        times.append(time.perf_counter() - begin)
                        if result.done:
                            session.reset(index)
                    samples[name] += times
                    medians[name] = statistics.median(times)
                for name, values in ratios.items():
                    values.append(medians[name] / medians["inprocess+json"])
    finally:
        for by_entry in sessions.values():
            for session in by_entry.values():
                session.close()
    return {
        "rounds": rounds,
        "step_round_trip_us": {name: round(statistics.median(times) * 1e6, 1) for name, times in samples.items()},
        "vs_inprocess_json": {name: round(statistics.median(values), 2) for name, values in ratios.items()},
    }


def _step_loop(backend: Any, entry: EnvEntry, steps: int, ready: threading.Barrier | None = None) -> float:
    """Step one session of ``entry`` ``steps`` times (resetting at each episode end); the seconds it took."""
    with backend.open_session(entry.source(), class_name=entry.class_name) as session:
        script = _script(session, 0)
        session.reset(0)
        if ready is not None:
            ready.wait()
        begin = time.perf_counter()
        for index in range(steps):
            if session.step(script[index % len(script)]).done:
                session.reset(index)
        return time.perf_counter() - begin


class _Stepper(threading.Thread):
    """A worker thread owning one session of ``entry``, stepping it ``steps`` times whenever told to.

    With ``guest_call_only`` a step is the sandbox's guest call alone (the request encoded once, the reply
    read only for its end flags): the least host work any wasm step can have, the floor for the threads'
    scaling. It reaches inside the transport, as a benchmark may.
    """

    def __init__(self, backend: Any, entry: EnvEntry, steps: int, guest_call_only: bool = False) -> None:
        super().__init__(daemon=True)
        self.backend, self.entry, self.steps, self.guest_call_only = backend, entry, steps, guest_call_only
        self.go, self.finished, self.ready = threading.Semaphore(0), threading.Semaphore(0), threading.Event()
        self.barrier: threading.Barrier | None = None
        self.seconds = 0.0
        self.stop = False
        self.start()
        self.ready.wait()

    def run(self) -> None:
        with self.backend.open_session(self.entry.source(), class_name=self.entry.class_name) as session:
            script = _script(session, 0)
            session.reset(0)
            step = self._guest_call_step(session, script) if self.guest_call_only else None
            self.ready.set()
            while True:
                self.go.acquire()
                if self.stop:
                    return
                assert self.barrier is not None
                self.barrier.wait()
                begin = time.perf_counter()
                for index in range(self.steps):
                    if step is not None:
                        step(index)
                    elif session.step(script[index % len(script)]).done:
                        session.reset(index)
                self.seconds = time.perf_counter() - begin
                self.finished.release()

    @staticmethod
    def _guest_call_step(session: EnvSession, script: list[str]) -> Callable[[int], None]:
        transport = session._transport
        call, ticks = transport._call, transport._deadline_ticks  # type: ignore[union-attr]
        requests = [json.dumps({"op": "step", "action": action}) for action in script]

        def step(index: int) -> None:
            reply = call(requests[index % len(requests)], 1 << 22, ticks)
            if "true, false, {" in reply or "false, true, {" in reply:  # the episode ended
                call(json.dumps({"op": "reset", "seed": index}), 1 << 22, ticks)

        return step


def bench_threads(backend: Any, entries: list[EnvEntry], steps: int, rounds: int = 9,
                  guest_call_only: bool = False) -> dict[str, Any]:
    """Steps per second in total with 1 and 2 threads, each stepping its own session of number_hunt.

    Measured interleaved (``_interleaved``), as the step ratio is: each round runs one thread, then two,
    then one again, each burst ``steps`` steps a thread, so both sides of a round's ratio see the same
    moment of a machine whose speed drifts by a third within seconds.
    """
    entry = next(e for e in entries if e.name == "number_hunt")
    workers = [_Stepper(backend, entry, steps, guest_call_only) for _ in range(2)]

    def burst(count: int) -> float:
        barrier = threading.Barrier(count)
        for worker in workers[:count]:
            worker.barrier = barrier
            worker.go.release()
        for worker in workers[:count]:
            worker.finished.acquire()
        return count * steps / max(worker.seconds for worker in workers[:count])

    try:
        burst(1), burst(2)  # warm: the threads' first steps
        one, two, scaling = _interleaved(burst, rounds)
    finally:
        for worker in workers:
            worker.stop = True
            worker.go.release()
        for worker in workers:
            worker.join()
    return {"environment": entry.name, "rounds": rounds, "steps_per_s_1_thread": one,
            "steps_per_s_2_threads": two, **scaling}


def _interleaved(burst: Callable[[int], float], rounds: int) -> tuple[int, int, dict[str, Any]]:
    """Rounds of ``burst(1)``, ``burst(2)``, ``burst(1)`` (steps/s in total with that many workers): the
    median 1- and 2-worker rates, and the median over rounds of the 2-worker rate over the mean of its two
    1-worker neighbours (``scaling``) with its quartiles (how much the rounds disagreed)."""
    ones, twos, ratios = [], [], []
    for _ in range(rounds):
        before, both, after = burst(1), burst(2), burst(1)
        ones.append((before + after) / 2)
        twos.append(both)
        ratios.append(both / ones[-1])
    quartiles = statistics.quantiles(ratios, n=4)
    return (round(statistics.median(ones)), round(statistics.median(twos)),
            {"scaling": round(statistics.median(ratios), 2),
             "scaling_quartiles": [round(quartiles[0], 2), round(quartiles[2], 2)]})


def _echo(reads: int, writes: int, parent_ends: tuple[int, int]) -> None:
    """In a child process: send back every byte received, until the parent closes its end."""
    for fd in parent_ends:  # inherited by the fork; left open, the read below would never see the end
        os.close(fd)
    while data := os.read(reads, 1):
        os.write(writes, data)


def wake_latency_us(round_trips: int = 20_000) -> float:
    """Half the round trip of one byte between two processes over pipes: the time to wake a thread that
    is blocked waiting, on this machine (``perf bench sched pipe`` measures the same). It is what a thread
    pays when the GIL is handed to it while it sleeps; a few microseconds on bare metal, more in a VM."""
    import multiprocessing

    child_reads, parent_writes = os.pipe()
    parent_reads, child_writes = os.pipe()
    child = multiprocessing.get_context("fork").Process(
        target=_echo, args=(child_reads, child_writes, (parent_writes, parent_reads)))
    child.start()
    os.close(child_reads)
    os.close(child_writes)
    try:
        for _ in range(200):  # both sides running
            os.write(parent_writes, b"x")
            os.read(parent_reads, 1)
        begin = time.perf_counter()
        for _ in range(round_trips):
            os.write(parent_writes, b"x")
            os.read(parent_reads, 1)
        return round((time.perf_counter() - begin) / round_trips / 2 * 1e6, 1)
    finally:
        os.close(parent_writes)
        child.join(timeout=10)
        os.close(parent_reads)


def _process_steps(job: tuple[str, int]) -> float:
    """In a worker process: step a fresh wasm session of the named environment; the seconds the steps took."""
    name, steps = job
    entry = next(e for e in bundled_registry() if e.name == name)
    return _step_loop(_worker_backend(), entry, steps)


@functools.cache
def _worker_backend() -> Any:
    """The wasm backend of a worker process, made once: its engine and compiled guest are loaded once."""
    return create_backend("wasm", ExecutionLimits())


def bench_processes(entries: list[EnvEntry], steps: int, rounds: int = 9) -> dict[str, Any]:
    """The thread figure's environment stepped in 1 and 2 worker processes (one wasm session each): the
    scaling the machine allows when no interpreter is shared, beside the threads' scaling. Interleaved
    like ``bench_threads`` (1, 2, 1 processes a round; the median ratio), so the two compare."""
    import multiprocessing

    entry = next(e for e in entries if e.name == "number_hunt")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_process_steps, [(entry.name, 300)] * 2)  # both workers started, imported and warm

        def burst(count: int) -> float:
            return count * steps / max(pool.map(_process_steps, [(entry.name, steps)] * count, chunksize=1))

        one, two, scaling = _interleaved(burst, rounds)
    return {"environment": entry.name, "rounds": rounds, "steps_per_s_1_process": one,
            "steps_per_s_2_processes": two, **scaling}


def gil_share(backend: Any, entries: list[EnvEntry], steps: int) -> dict[str, Any]:
    """For the thread figure's environment on one thread: how long a step holds the GIL outside the guest
    call (request encoding, the C API bookkeeping, reply decoding and checks) against the guest call itself.

    Two threads can only overlap their guest calls; the rest is serialised by the GIL. The share alone
    does not decide the scaling: each hand-over of the GIL to a thread blocked waiting for it costs a
    kernel wake-up (``wake_latency_us``), and the "guest call only" row of the thread figure, whose share
    is a third of this, scales no better.
    """
    entry = next(e for e in entries if e.name == "number_hunt")
    marks: list[int] = []
    clock = time.perf_counter_ns
    with backend.open_session(entry.source(), class_name=entry.class_name) as session:
        call = session._transport._call  # a benchmark's view inside the transport
        raw = call._raw_call

        def timed(*args: Any) -> Any:
            marks.append(clock())
            try:
                return raw(*args)
            finally:
                marks.append(clock())

        call._raw_call = timed
        script = _script(session, 0)
        session.reset(0)
        marks.clear()
        for index in range(steps):
            if session.step(script[index % len(script)]).done:
                session.reset(index)
    inside = statistics.median(marks[i + 1] - marks[i] for i in range(0, len(marks) - 2, 2)) / 1e3
    between = statistics.median(marks[i + 2] - marks[i + 1] for i in range(0, len(marks) - 2, 2)) / 1e3
    return {"environment": entry.name, "guest_call_us": round(inside, 1), "host_with_gil_us": round(between, 1),
            "host_share": round(between / (inside + between), 2)}


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


LOOP_ENV = """
class LoopEnv:
    def __init__(self, max_turns=5, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "loop", {}

    def step(self, action):
        while True:
            pass

    def solution(self):
        return "x"

    def close(self):
        pass
"""
DEADLINE_LOADS = ("none", "busy cores", "busy threads", "long C call")


def _backtracking_regex_length(seconds: float) -> int:
    """A length n for which re.match("(a+)+$", "a" * n + "b") holds the GIL for about ``seconds``."""
    started = time.perf_counter()
    re.match(r"(a+)+$", "a" * 20 + "b")
    base = max(time.perf_counter() - started, 1e-4)
    return 20 + max(0, math.ceil(math.log2(seconds / base)))


def _busy_python(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1000))


def _deadline_once(ticker: str, limit: float, load: str) -> dict[str, float]:
    """One looping step() under ``load``: when the caller got its timeout, and how long the guest ran."""
    backend = WasmBackend(ExecutionLimits(call_timeout_s=limit), WasmConfig(ticker=ticker))
    stop = threading.Event()
    burners: list[subprocess.Popen[bytes]] = []
    threads: list[threading.Thread] = []
    if load == "busy cores":
        burners = [spinner() for _ in range(os.cpu_count() or 2)]  # they end with this process (tests/children.py)
    elif load == "busy threads":
        threads = [threading.Thread(target=_busy_python, args=(stop,), daemon=True) for _ in range(2)]
    elif load == "long C call":
        length = _backtracking_regex_length(limit + 3.0)
        threads = [threading.Thread(target=lambda: (time.sleep(0.2), re.match(r"(a+)+$", "a" * length + "b")),
                                    daemon=True)]
    measured: dict[str, float] = {}
    with backend.open_session(LOOP_ENV) as session:
        session.reset(0)
        for thread in threads:
            thread.start()
        try:
            started, cpu = time.monotonic(), time.thread_time()
            try:
                session.step("go")
            except EnvTimeoutError:
                pass
            measured["fired_after_s"] = time.monotonic() - started
            measured["guest_cpu_s"] = time.thread_time() - cpu
        finally:
            stop.set()
            for burner in burners:
                burner.kill()
                burner.wait()
            for thread in threads:
                thread.join()
    return {key: round(value, 3) for key, value in measured.items()}


def bench_deadline(limits: tuple[float, ...] = (10.0, 1.0)) -> list[dict[str, Any]]:
    rows = []
    for ticker in ("native", "thread"):
        for limit in limits:
            for load in DEADLINE_LOADS:
                print(f"deadline: {ticker} ticker, {limit:g} s limit, load: {load} ...", file=sys.stderr, flush=True)
                measured = _deadline_once(ticker, limit, load)
                rows.append({"ticker": ticker, "limit_s": limit, "load": load, **measured,
                             "caller_overshoot_s": round(measured["fired_after_s"] - limit, 3),
                             "guest_overshoot_s": round(measured["guest_cpu_s"] - limit, 3)})
    return rows


def _print_deadline(rows: list[dict[str, Any]]) -> None:
    print(f"\n{'ticker':<8}{'limit':>7}  {'load':<14}{'caller overshoot':>18}{'guest overshoot':>17}")
    for row in rows:
        print(f"{row['ticker']:<8}{row['limit_s']:>6g}s  {row['load']:<14}{row['caller_overshoot_s']:>17.3f}s"
              f"{row['guest_overshoot_s']:>16.3f}s")
    print("(guest overshoot: the guest's CPU time past the limit; it reads low when other processes take the cores)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="steps per environment (default 300)")
    parser.add_argument("--sessions", type=int, default=20, help="live sessions for the memory figure")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the library validation")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "sandbox.json")
    parser.add_argument("--deadline-only", action="store_true", help="measure only the deadline overshoot")
    parser.add_argument("--skip-deadline", action="store_true", help="do not measure the deadline overshoot")
    parser.add_argument("--thread-steps", type=int, default=1500,
                        help="steps per thread in each burst of the scaling figure")
    parser.add_argument("--threads-only", action="store_true", help="measure only the thread scaling figure")
    parser.add_argument("--ratio-rounds", type=int, default=5, help="rounds of the interleaved step round trip")
    args = parser.parse_args(argv)
    machine = {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
               "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    if args.deadline_only:
        rows = bench_deadline()
        _print_deadline(rows)
        previous = json.loads(args.out.read_text()) if args.out.exists() else {}
        document = {**previous, "deadline": {"machine": machine, "rows": rows}}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(args.out, json.dumps(document, indent=2) + "\n")
        print(f"\nwrote {args.out}")
        return 0

    entries = list(bundled_registry())
    limits = ExecutionLimits()
    makers: dict[str, Callable[[], Any]] = {
        "inprocess": lambda: create_backend("inprocess", limits),
        "inprocess+json": lambda: JsonInProcessBackend(limits),
        "process": lambda: create_backend("process", limits),
        "wasm": lambda: create_backend("wasm", limits),
    }
    if args.threads_only:
        threads = {name: bench_threads(make(), entries, args.thread_steps) for name, make in makers.items()}
        threads[GUEST_CALL_ONLY] = bench_threads(makers["wasm"](), entries, args.thread_steps, guest_call_only=True)
        _print_threads(threads)
        processes = bench_processes(entries, args.thread_steps)
        gil = gil_share(makers["wasm"](), entries, 4000)
        wake = wake_latency_us()
        _print_thread_context(processes, gil, wake)
        previous = json.loads(args.out.read_text()) if args.out.exists() else {}
        document = {**previous, "threads": {"machine": machine, "rows": threads, "wasm_processes": processes,
                                            "wasm_gil": gil, "wake_latency_us": wake}}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(args.out, json.dumps(document, indent=2) + "\n")
        print(f"\nwrote {args.out}")
        return 0
    rows: dict[str, dict[str, Any]] = {}
    for name, make in makers.items():
        print(f"benchmarking {name} ...", file=sys.stderr, flush=True)
        begin = time.perf_counter()
        backend = make()
        rows[name] = {"backend_create_ms": round((time.perf_counter() - begin) * 1e3, 2)}
        rows[name].update(bench_backend(backend, entries, args.steps, args.sessions))
        rows[name]["validate_library_s"] = bench_validation(make, entries, args.repeats)
        rows[name]["threads"] = bench_threads(backend, entries, args.thread_steps)
    floor = bench_threads(makers["wasm"](), entries, args.thread_steps, guest_call_only=True)

    print("step round trip, backends interleaved ...", file=sys.stderr, flush=True)
    ratio = bench_step_ratio({name: makers[name]() for name in ("inprocess+json", "wasm", "process")}, entries,
                             args.steps // 3, args.ratio_rounds)
    print("thread scaling beside processes, and the GIL's share of a step ...", file=sys.stderr, flush=True)
    rows["wasm"]["processes"] = bench_processes(entries, args.thread_steps)
    rows["wasm"]["gil"] = gil_share(makers["wasm"](), entries, 4000)
    rows["wasm"]["threads_guest_call_only"] = floor
    rows["wasm"]["wake_latency_us"] = wake = wake_latency_us()
    wasm, inproc = rows["wasm"], rows["inprocess"]
    targets = {
        "wasm_step_vs_inprocess_json, interleaved (<= 2.5x)": ratio["vs_inprocess_json"]["wasm"],
        "process_step_vs_wasm, interleaved (>= 2x)": round(ratio["vs_inprocess_json"]["process"]
                                                           / ratio["vs_inprocess_json"]["wasm"], 2),
        "wasm_session_start_ms (<= 2)": wasm["session_start_ms"],
        "wasm_env_load_ms (<= 10)": wasm["env_load_ms"],
        "wasm_memory_per_session_mb (<= 12)": wasm["memory_per_session_mb"],
        "wasm_validate_vs_inprocess (<= 3x)": round(wasm["validate_library_s"] / inproc["validate_library_s"], 2),
    }
    targets["wasm_two_thread_scaling (>= 1.8x)"] = rows["wasm"]["threads"]["scaling"]
    _print_table(rows, targets)
    print(f"\nstep round trip, interleaved over {ratio['rounds']} rounds (us): {ratio['step_round_trip_us']}")
    _print_threads({**{name: row["threads"] for name, row in rows.items()}, GUEST_CALL_ONLY: floor})
    _print_thread_context(wasm["processes"], wasm["gil"], wake)
    deadline = [] if args.skip_deadline else bench_deadline()
    if deadline:
        _print_deadline(deadline)
    document = {
        "machine": machine,
        "environments": [e.name for e in entries],
        "settings": {"steps": args.steps, "sessions": args.sessions, "repeats": args.repeats},
        "backends": rows,
        "step_round_trip_interleaved": ratio,
        "targets": targets,
        "deadline": {"machine": machine, "rows": deadline},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps(document, indent=2) + "\n")
    print(f"\nwrote {args.out}")
    return 0


def _print_threads(rows: dict[str, dict[str, Any]]) -> None:
    print(f"\n{'threads: steps/s in total':<28}{'1 thread':>10}{'2 threads':>11}{'scaling':>9}  (quartiles)")
    for name, row in rows.items():
        low, high = row["scaling_quartiles"]
        print(f"{name:<28}{row['steps_per_s_1_thread']:>10}{row['steps_per_s_2_threads']:>11}{row['scaling']:>8}x"
              f"  ({low}-{high})")


def _print_thread_context(processes: dict[str, Any], gil: dict[str, Any], wake_us: float) -> None:
    low, high = processes["scaling_quartiles"]
    print(f"wasm in 2 worker processes: {processes['scaling']}x ({low}-{high}; "
          f"{processes['steps_per_s_1_process']} -> {processes['steps_per_s_2_processes']} steps/s)")
    print(f"wasm step on one thread: guest call {gil['guest_call_us']} us, host with the GIL "
          f"{gil['host_with_gil_us']} us (share {gil['host_share']})")
    print(f"waking a blocked thread on this machine (pipe ping-pong between two processes): {wake_us} us")


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
