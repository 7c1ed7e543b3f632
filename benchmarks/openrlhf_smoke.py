"""The OpenRLHF backend's first GPU run: two real training steps of a tiny model, both roles, whole path.

Run this on one GPU with OpenRLHF 0.11.2 installed (``pip install "openrlhf[vllm]==0.11.2"`` and this
toolkit with ``.[train,openrlhf]``) before any recipe:

    python benchmarks/openrlhf_smoke.py --out /tmp/spade-smoke

It builds a tiny Qwen2-shaped model on the spot (a BPE tokenizer trained on the repository's text, two
random layers, head size 64 as vLLM needs; nothing is downloaded), writes a one-GPU configuration of two
steps with one designer row and one agent row per step, runs ``spade-train run`` on it (local Ray, the
driver, the shared-state actor, the executor inside OpenRLHF's vLLM rollout actor, DeepSpeed updates)
and then checks what the run left: both steps trained and recorded, designs attempted and recorded,
no fault, the model checkpoints and the shared state's checkpoint of the same step, the exported pool.
Its result goes to ``benchmarks/results/openrlhf_smoke.json``.

The tiny model writes noise, so its designs are invalid and its episodes lost: this checks the path, not
learning. Dynamic filtering is off here (every group is trained, so the two steps happen whatever the
rewards); the recipes keep it on.

``--check-only`` does what a CPU machine can: builds the model and the configuration and dry-runs the
launcher (every flag checked against the installed OpenRLHF's parser). It has not been run on a GPU by
this project: no machine here has one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results" / "openrlhf_smoke.json"
STEPS = 2


def build_model(directory: Path) -> Path:
    """A tiny chat model (about 1 M parameters) whose shapes vLLM serves: head size 64."""
    from spade_train.backends.embedded.model import (
        TinyModelConfig,
        build_causal_lm,
        save_checkpoint_files,
        train_bpe_tokenizer,
    )

    texts = [path.read_text(encoding="utf-8") for path in sorted((REPO / "spade_envs" / "library").glob("*.py"))]
    texts.append((REPO / "README.md").read_text(encoding="utf-8"))
    tokenizer = train_bpe_tokenizer(texts, 2000)
    config = TinyModelConfig(hidden_size=128, num_layers=2, num_heads=2, max_positions=16384)
    return save_checkpoint_files(build_causal_lm(tokenizer, config), tokenizer, directory)


def smoke_config(model: Path) -> dict[str, Any]:
    """Two steps on one GPU: each step one designer row and one agent row of two samples."""
    return {
        "run": {"backend": "openrlhf", "iterations": STEPS, "seed": 0, "sandbox": "wasm", "checkpoint_every": 1},
        "model": {"path": str(model)},
        "design": {"language": "python", "hinter": "model"},
        "loop": {"envs_per_iteration": 2, "episodes_per_condition": 2, "kinds": ["multi_turn_game"],
                 "skills": ["Logical Deduction"], "max_turns": 3, "fuzz_examples": 10, "use_corpus": False,
                 "agent_train_conditions": ["unhinted"], "train_designer": True},
        "sampling": {"temperature": 1.0, "designer_temperature": 1.0, "designer_max_tokens": 256,
                     "agent_max_tokens": 32},
        "grpo": {"learning_rate": 1e-5, "micro_batch": 1, "mini_batch": 4, "drop_zero_variance": False},
        "openrlhf": {"nodes": 1, "gpus_per_node": 1, "vllm_engines": 1, "vllm_tensor_parallel": 1,
                     "vllm_gpu_memory_utilization": 0.3, "colocate": True, "zero_stage": 2,
                     "gradient_checkpointing": False, "rollout_batch_size": 2, "n_samples_per_prompt": 2,
                     "max_len": 12288, "designer_every": 1, "designer_delay_steps": 0, "kl_coef": 0.0,
                     "env_workers": 2, "design_budget_s": 600, "state_timeout_s": 120},
    }


def spade_train(*arguments: str, timeout_s: float) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "spade_train.cli", *arguments]
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout_s, check=False)


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] \
        if path.exists() else []


def check_run(run: Path) -> dict[str, bool]:
    """What two trained steps must leave in the run directory."""
    from spade_train.backends.openrlhf.checkpoints import model_checkpoint_step
    from spade_train.backends.openrlhf.command import RunPaths

    paths = RunPaths(run)
    steps = [row for row in read_lines(run / "step_metrics.jsonl") if not row.get("partial")]
    state_file = run / "state" / "latest" / "shared_state.json"
    state = json.loads(state_file.read_text(encoding="utf-8")) if state_file.exists() else {}
    attempts = read_lines(run / "attempts.jsonl")
    return {
        "both steps trained and recorded": [row["step"] for row in steps] == list(range(1, STEPS + 1)),
        "designer samples attempted": len(attempts) >= 2,
        "no faults": state.get("faults") == 0,
        "model checkpoint at the last step": model_checkpoint_step(paths.checkpoints) == STEPS,
        "shared state saved at the same step": (run / "state" / "steps" / f"step-{STEPS}").is_dir(),
        "final model written": (paths.model_out / "config.json").exists(),
        "pool exported": (run / "pool" / "manifest.json").exists(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/spade-openrlhf-smoke"))
    parser.add_argument("--check-only", action="store_true", help="build and dry-run only (no GPU needed)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds for the training run")
    args = parser.parse_args()
    out = args.out.resolve()
    if (out / "run").exists():
        print(f"{out / 'run'} exists: choose another --out", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    model = build_model(out / "model")
    config = out / "smoke.json"
    config.write_text(json.dumps(smoke_config(model), indent=2) + "\n", encoding="utf-8")
    dry = spade_train("run", "--config", str(config), "--out", str(out / "dry"), "--dry-run", timeout_s=600)
    print(dry.stdout.splitlines()[1] if len(dry.stdout.splitlines()) > 1 else dry.stderr.strip())
    if dry.returncode != 0:
        print(f"the dry run failed: {dry.stderr.strip()}", file=sys.stderr)
        return 1
    if args.check_only:
        print("check only: configuration and flags are valid; run without --check-only on a GPU")
        return 0
    run = spade_train("run", "--config", str(config), "--out", str(out / "run"), timeout_s=args.timeout)
    (out / "train.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    checks = {"the run exited 0": run.returncode == 0, **check_run(out / "run")}
    result = {"seconds": round(time.perf_counter() - started, 1), "checks": checks, "log": str(out / "train.log")}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for name, passed in checks.items():
        print(f"{'ok  ' if passed else 'FAIL'} {name}")
    print(f"{result['seconds']} s; log in {out / 'train.log'}; result in {RESULTS}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
