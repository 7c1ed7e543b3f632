"""The README's per-seed table of the embedded default, regenerated on this machine.

    python benchmarks/embedded_seeds.py --seeds 0 1 2 3 4 --out runs/seeds

For each seed: ``spade-train run --config configs/embedded.toml --set run.seed=S`` (warm-up, 40 iterations,
end-of-run probe), then the larger probe on the same run directory at the same final agent
(``spade-train probe RUN --json`` with 96 designs per designer and 8+8 plays). It prints the table as
markdown, headed by the machine it ran on (CPU, cores, torch, date), and writes every figure to
``benchmarks/results/embedded_seeds.json``.

A run reproduces exactly on one machine; floating-point kernels differ between CPUs, and one seed's
trajectory moves with them. So the table is one machine's numbers. What should hold on any machine is
the direction across seeds: the final designer's larger-probe regret above uniform-valid's, and the
post-warm-up designer's not.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "embedded_seeds.json"
LARGER_PROBE = ["--set", "probe.designer_samples=96", "--set", "probe.uniform_designs=96",
                "--set", "probe.episodes_per_condition=8"]


def machine() -> dict[str, str]:
    """What the numbers depend on: the CPU, its cores, torch's build and threads, the date."""
    import torch

    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpu": model, "cores": str(os.cpu_count()), "torch": torch.__version__,
            "torch_threads": str(torch.get_num_threads()), "python": platform.python_version(),
            "date": datetime.date.today().isoformat()}


def spade_train(*args: str) -> str:
    command = [str(Path(sys.executable).parent / "spade-train"), *args]
    done = subprocess.run(command, check=False, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return done.stdout


def second_half(rows: list[dict], key: str) -> float | None:
    values = [row[key] for row in rows[len(rows) // 2:] if row.get(key) is not None]
    return sum(values) / len(values) if values else None


def seed_figures(seed: int, out: Path) -> dict:
    run = out / f"seed-{seed}"
    started = time.perf_counter()
    spade_train("run", "--config", "configs/embedded.toml", "--set", f"run.seed={seed}", "--out", str(run))
    run_seconds = time.perf_counter() - started
    larger = json.loads(spade_train("probe", str(run), "--json", *LARGER_PROBE))
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    state = json.loads((run / "checkpoints" / "latest" / "trainer_state.json").read_text())
    end = json.loads((run / "probe.json").read_text())["distributions"]
    regrets = [row["regret_mean"] for row in rows[len(rows) // 2:] if row.get("regret_mean") is not None]
    figures = larger["distributions"]
    return {
        "seed": seed, "run_seconds": round(run_seconds, 1),
        "valid": second_half(rows, "valid_rate"), "regret": second_half(rows, "regret_mean"),
        "regret_lowest": min(regrets) if regrets else None, "return_unhinted": second_half(rows, "return_unhinted"),
        "warmup_hinted_win_rate": (state.get("warmup") or {}).get("warmup_hinted_win_rate"),
        "end_probe_gain": end["final"].get("regret_gain_over_uniform"), "end_probe_gain_ci": end["final"].get(
            "regret_gain_ci"),
        "larger_probe": {name: {key: figures[name].get(key) for key in (
            "regret", "regret_ci", "valid", "distinct_valid", "effective_designs", "regret_gain_over_uniform",
            "regret_gain_ci")} for name in figures},
    }


def interval(value: float | None, ci: list[float] | None) -> str:
    if value is None:
        return "-"
    return f"{value:+.2f}" + (f" [{ci[0]:+.2f}, {ci[1]:+.2f}]" if ci else "")


def table(rows: list[dict], where: dict[str, str]) -> str:
    head = (f"Machine: {where['cpu']}, {where['cores']} cores, torch {where['torch']} ({where['torch_threads']} "
            f"threads), Python {where['python']}, {where['date']}.\n\n"
            "| seed | valid | regret (lowest) | unhinted return | hinted win rate after warm-up | end-of-run probe: "
            "final − uniform | larger probe: final designer | uniform-valid | final − uniform | post-warm-up − "
            "uniform | distinct valid designs (effective), final |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
    lines = []
    for r in rows:
        probe = r["larger_probe"]
        final, uniform, warm = probe["final"], probe["uniform_valid"], probe.get("post_warmup", {})
        effective = final.get("effective_designs")
        lines.append(
            f"| {r['seed']} | {r['valid']:.2f} | {r['regret']:+.2f} ({r['regret_lowest']:+.2f}) | "
            f"{r['return_unhinted']:.2f} | {r['warmup_hinted_win_rate'] or 0:.2f} | "
            f"{interval(r['end_probe_gain'], r['end_probe_gain_ci'])} | {interval(final['regret'], final['regret_ci'])} | "
            f"{interval(uniform['regret'], uniform['regret_ci'])} | "
            f"**{interval(final['regret_gain_over_uniform'], final['regret_gain_ci'])}** | "
            f"{interval(warm.get('regret_gain_over_uniform'), warm.get('regret_gain_ci'))} | "
            f"{final['distinct_valid']} ({effective:.1f}) |" if effective is not None else
            f"| {r['seed']} | (no valid final designs) |")
    return head + "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "seeds")
    args = parser.parse_args()
    if any((args.out / f"seed-{seed}").exists() for seed in args.seeds):
        sys.exit(f"{args.out} already holds runs of these seeds; choose another --out")
    where = machine()
    rows = []
    for seed in args.seeds:
        print(f"seed {seed} ...", file=sys.stderr, flush=True)
        rows.append(seed_figures(seed, args.out))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": where, "seeds": rows}, indent=1) + "\n", encoding="utf-8")
    print(table(rows, where))


if __name__ == "__main__":
    main()
