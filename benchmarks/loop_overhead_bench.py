"""How much of a self-play iteration is *not* the model: checking, sandboxed steps, regret, memory.

Scripted policies stand in for the model: the designer returns bundled environments (a different one
each call, so none is rejected as a near-duplicate), the hinter a fixed hint, the agent a fixed move.
With zero latency an iteration's time is all non-model work. With a latency per generation (50 ms) the
policies are served by a simulated model server with a fixed number of slots (``--server-slots``; 1 is a
single-stream server such as a laptop's transformers model, many is a batching server such as vLLM): a
generation waits for a free slot, then takes the latency. The model's own time is then known exactly
(generations x latency / slots while the server is never idle), and what the iteration takes beyond it
is the non-model work that the model had to wait for: the overhead the loop adds. The second iteration
of a loop is timed: the first pays the once-per-run start-up of workers and sandboxes.

    python benchmarks/loop_overhead_bench.py          # JSON in benchmarks/results/loop_overhead.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from spade_envs.registry import bundled_registry
from spade_envs.runtime import create_backend
from spade_train.config import parse_run_config
from spade_train.corpus import Corpus
from spade_train.loop import SelfPlayLoop
from spade_train.memory import EnvironmentMemory
from spade_train.policies.roles import Policies
from spade_train.policies.scripted import ScriptedPolicy

RESULTS = Path(__file__).resolve().parent / "results" / "loop_overhead.json"


class ServedPolicy:
    """A zero-latency scripted policy behind a simulated model server of ``slots`` concurrent slots."""

    def __init__(self, policy: ScriptedPolicy, latency_s: float, slots: asyncio.Semaphore | None,
                 busy: list[tuple[float, float]]) -> None:
        self.policy, self.latency_s, self.slots, self.name = policy, latency_s, slots, policy.name
        self.busy = busy
        """(start, end) of every generation, shared by the policies on one server: where it idles."""

    async def generate(self, request):
        if self.slots is None:
            return await self.policy.generate(request)
        async with self.slots:
            start = time.perf_counter()
            await asyncio.sleep(self.latency_s)
            self.busy.append((start, time.perf_counter()))
        return await self.policy.generate(request)


def idle_gaps(busy: list[tuple[float, float]], started: float, ended: float) -> dict[str, float]:
    """Single-slot server idle time before its first generation, between generations, and after its last."""
    spans = sorted(span for span in busy if span[0] >= started)
    if not spans:
        return {"head": ended - started, "middle": 0.0, "tail": 0.0}
    middle = sum(max(0.0, nxt[0] - cur[1]) for cur, nxt in pairwise(spans))
    return {"head": round(spans[0][0] - started, 3), "middle": round(middle, 3),
            "tail": round(ended - spans[-1][1], 3)}


def run_iteration(latency_s: float, envs: int, episodes: int, fuzz_examples: int, workers: int,
                  slots: int, concurrent_designs: int) -> dict[str, float]:
    sources = [f"```python\n{entry.source()}```" for entry in bundled_registry() if entry.kind != "tool_use"]
    calls = {"designer": 0}

    def designer_reply(request):
        calls["designer"] += 1
        return sources[(calls["designer"] - 1) % len(sources)]

    config = parse_run_config({
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": envs, "max_turns": 25, "concurrent_designs": concurrent_designs,
                 "fuzz_examples": fuzz_examples, "episodes_per_condition": episodes, "duplicate_threshold": None,
                 "validation_workers": workers, "reuse_verdicts": False, "return_mode": "terminal_clipped",
                 "use_corpus": True, "skills": ["Mathematical Reasoning", "Logical Deduction", "Spatial Reasoning",
                                                "Pattern Recognition", "Optimization", "Causal Inference"]},
    })

    async def two_iterations(loop: SelfPlayLoop):
        # The first iteration pays once-per-run costs (worker processes, sandbox start, compiled-module
        # load); a run pays them once, so the second iteration is the one measured. Verdict reuse is
        # off: every design is validated in full, as if it were new.
        await loop.run_iteration(step=1)
        started = time.perf_counter()
        result = await loop.run_iteration(step=2)
        return result, started, time.perf_counter()

    with tempfile.TemporaryDirectory() as tmp, EnvironmentMemory(Path(tmp) / "memory.sqlite3") as memory:
        server = asyncio.Semaphore(slots) if latency_s else None
        busy: list[tuple[float, float]] = []

        def served(replies, name: str) -> ServedPolicy:
            return ServedPolicy(ScriptedPolicy(replies, name=name), latency_s, server, busy)

        policies = Policies(designer=served(designer_reply, "designer"),
                            agent=served(["I am not sure. \\boxed{0}"], "agent"),
                            hinter=served(["Work it out step by step."], "hinter"))
        loop = SelfPlayLoop(config, policies, backend=create_backend("wasm"), memory=memory, corpus=Corpus.demo())
        result, started, ended = asyncio.run(two_iterations(loop))
        seconds = ended - started
        loop.close()
    generations = sum(len(e.turns) for a in result.attempts if a.evaluation
                      for e in a.evaluation.episodes()) + envs * 2
    model_seconds = generations * latency_s / slots
    return {"latency_s": latency_s, "seconds": round(seconds, 3), "generations": generations,
            "model_seconds": round(model_seconds, 3), "valid_rate": result.metrics["valid_rate"],
            **({"server_idle_s": idle_gaps(busy, started, ended)} if latency_s and slots == 1 else {})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--episodes", type=int, default=4, help="K per condition")
    parser.add_argument("--fuzz-examples", type=int, default=50, help="0 leaves the fuzz tier out")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--validation-workers", type=int, default=2, help="0: validate in-process")
    parser.add_argument("--server-slots", type=int, default=1,
                        help="generations the simulated model server runs at once (1: single stream)")
    parser.add_argument("--concurrent-designs", type=int, default=8, help="environments in flight at once")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    print("iteration with zero-latency policies ...", file=sys.stderr, flush=True)
    shared = (args.envs, args.episodes, args.fuzz_examples, args.validation_workers, args.server_slots,
              args.concurrent_designs)
    zero = run_iteration(0.0, *shared)
    print(f"iteration with {args.latency * 1000:.0f} ms per generation ...", file=sys.stderr, flush=True)
    slow = run_iteration(args.latency, *shared)
    overhead = (slow["seconds"] - slow["model_seconds"]) / slow["seconds"]
    work_share = zero["seconds"] / slow["seconds"]
    print(f"\nnon-model work per iteration (zero latency): {zero['seconds']} s ({args.envs} environments, "
          f"{zero['generations']} generations)")
    print(f"iteration with {args.latency * 1000:.0f} ms generations on {args.server_slots} server slot(s): "
          f"{slow['seconds']} s, of which the model {slow['model_seconds']} s")
    print(f"overhead: the iteration beyond the model's own time: {overhead:.1%} (target < 5%)")
    if "server_idle_s" in slow:
        print(f"model server idle (s): {slow['server_idle_s']}")
    print(f"non-model work / iteration time, were none of it overlapped: {work_share:.1%}")
    document = {"zero_latency": zero, "with_latency": slow, "overhead_share": round(overhead, 4),
                "non_model_work_share": round(work_share, 4), "settings": vars(args) | {"out": str(args.out)}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
