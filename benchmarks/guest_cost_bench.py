"""What one sandbox request costs the guest, in wasm instructions: exact where timings drift.

Wall-clock timings of a short sandbox call move by a third from one second to the next on a shared VM,
which hides changes of a few percent. wasmtime's fuel counts the wasm instructions a call executes, the
same number on every run, so this benchmark compiles the guest a second time with fuel metering (cached
beside the normal one) and reports, per request: a no-op (the fixed cost of a call: the component's
glue, reading the JSON request, dispatch, writing the reply), a step of a finished episode (the cheapest
step an environment has), a reset, and a batch of scripted episodes per episode, for three bundled
environments and a trivial one whose own code costs nearly nothing.

    python benchmarks/guest_cost_bench.py          # table on stdout, JSON in benchmarks/results/guest_cost.json

Compare two versions of the guest by running this on each: the figures are deterministic.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import wasmtime

from spade_envs.fileio import write_atomically
from spade_envs.registry import bundled_registry
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.session import EnvSession
from spade_envs.runtime.wasm import host

RESULTS = Path(__file__).resolve().parent / "results" / "guest_cost.json"
FUEL = 10**13
TRIVIAL_ENV = '''
class TrivialEnv:
    def __init__(self, max_turns=10, **kwargs):
        self.max_turns = max_turns

    def reset(self, seed=None):
        return "Guess the number.", {}

    def step(self, action):
        return "Wrong, try again.", 0.0, False, False, {}

    def solution(self):
        return 1
'''


class _MeteredConfig(host.WasmConfig):
    def engine_description(self) -> str:
        return super().engine_description() + ";fuel=1"


def metered_runtime() -> host.WasmRuntime:
    """A runtime whose engine meters fuel, and whose stores start with plenty of it (instantiation
    already spends fuel, before a transport could set any)."""
    engine_class, store_class = wasmtime.Engine, wasmtime.Store

    def engine(config: wasmtime.Config) -> wasmtime.Engine:
        config.consume_fuel = True
        return engine_class(config)

    def store(engine: wasmtime.Engine) -> wasmtime.Store:
        made = store_class(engine)
        made.set_fuel(FUEL)
        return made

    host.wasmtime.Engine = engine  # type: ignore[misc]
    try:
        runtime = host.WasmRuntime(_MeteredConfig())
    finally:
        host.wasmtime.Engine = engine_class  # type: ignore[misc]
    host.wasmtime.Store = store  # type: ignore[misc]  # this process only ever opens metered stores
    return runtime


def instructions(transport: host.WasmTransport, text: str) -> int:
    """Wasm instructions the guest executes for one raw request (the second of two identical calls)."""
    store = transport._store  # a benchmark's view inside the transport
    assert store is not None
    for _ in range(2):
        store.set_fuel(FUEL)
        transport._call(text, 1 << 22, transport._deadline_ticks)  # type: ignore[misc]
    return FUEL - store.get_fuel()


def measure(runtime: host.WasmRuntime, source: str, class_name: str | None) -> dict[str, int]:
    limits = ExecutionLimits()
    session = EnvSession(lambda: host.WasmTransport(runtime, limits), source, class_name=class_name)
    try:
        transport = session._transport
        assert isinstance(transport, host.WasmTransport)
        session.reset(0)
        for _ in range(60):  # past any turn limit: the episode is over
            if session.step("\\boxed{7}").done:
                break
        episodes = json.dumps({"op": "episodes", "record": "outcome", "instance": 0,
                               "plans": [{"seed": seed, "actions": ["\\boxed{7}"] * 5} for seed in range(32)]})
        return {
            "no-op request": instructions(transport, '{"op": "nothing"}'),
            "step of a finished episode": instructions(transport, '{"op": "step", "action": "\\\\boxed{7}"}'),
            "reset": instructions(transport, '{"op": "reset", "seed": 3}'),
            "batched episode (reset + 5 steps)": instructions(transport, episodes) // 32,
        }
    finally:
        session.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    runtime = metered_runtime()
    environments: dict[str, tuple[str, str | None]] = {"trivial": (TRIVIAL_ENV, None)}
    for entry in bundled_registry():
        if entry.name in ("number_hunt", "maze_walk", "bank_workflow"):
            environments[entry.name] = (entry.source(), entry.class_name)
    rows: dict[str, Any] = {}
    for name, (source, class_name) in environments.items():
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        rows[name] = measure(runtime, source, class_name)
    requests = list(next(iter(rows.values())))
    print(f"\n{'wasm instructions':<36}" + "".join(f"{name:>16}" for name in rows))
    for request in requests:
        print(f"{request:<36}" + "".join(f"{rows[name][request]:>16,}" for name in rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.out, json.dumps({"unit": "wasm instructions (fuel)", "environments": rows}, indent=2) + "\n")
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
