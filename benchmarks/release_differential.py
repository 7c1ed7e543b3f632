"""Feed the same random inputs to the SPADE release's reward code and to ours (reference mode); print agreement.

Usage: python benchmarks/release_differential.py --release PATH [--trials 1000] [--seed 0] [--json OUT]

PATH is a local export of the release (``spade-rl/spade``: the directory that holds its ``spade/`` package).
Its modules are imported from there with stand-ins for the few third-party packages they import at module
level and never call here (openai, transformers). Not part of CI, which has no copy of the release.

Each quantity is compared on ``--trials`` random inputs drawn to hit the edges (ties, plateau borders,
negative returns, empty windows, timeouts, masked blends). "exact" counts bit-equal outputs; "max |diff|" is
the largest difference seen.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spade_envs.contract.episode import episode_return
from spade_train.advantages import Sample, group_advantages
from spade_train.hints import clean_hint
from spade_train.rewards import WinRateEMA, plateau
from spade_train.window import BlendWeights, WindowDesign, env_reward_scale, score_window

LAUNCH_BLEND = {"regret_weight": 0.4, "micro_lp_weight": 0.0, "regret_scale": 0.15, "micro_lp_scale": 0.10,
                    "micro_lp_signed": True, "micro_lp_slope": True, "frontier_weight": 0.0, "frontier_scale": 0.08,
                    "plateau_weight": 0.6, "plateau_lo": 0.4, "plateau_hi": 0.6, "plateau_ramp": 0.25, "regret_floor": True}
"""The blend settings of the release's games launch scripts (cmd/games/train_spade_*.sh)."""


def _load_release(path: Path) -> types.SimpleNamespace:
    for name in ("openai", "transformers"):
        if name not in sys.modules:
            stub = types.ModuleType(name)
            stub.AsyncOpenAI = stub.OpenAI = stub.AutoTokenizer = type("Stub", (), {})  # type: ignore[attr-defined]
            sys.modules[name] = stub
    sys.path.insert(0, str(path))
    from spade.core import env_memory, hint_generator, learning_potential
    from spade.core.utils import delayed_env_rewards, rewards, trajectory_build
    return types.SimpleNamespace(rewards=rewards, delayed=delayed_env_rewards, lp=learning_potential,
                                 memory=env_memory, hints=hint_generator, trajectories=trajectory_build)


class _Sample:
    """The release's rollout sample, as far as its reward code reads it."""

    def __init__(self, game_file: str, skill: str, **metadata: Any) -> None:
        self.reward: float | None = None
        self.metadata = {"game_file": game_file, "skill": skill, **metadata}


def _return(rng: random.Random) -> float:
    return rng.choice([-1.0, 0.0, 0.0, 1.0, 1.0, 0.5, round(rng.uniform(-1, 1), 3)])


def _window(rng: random.Random, offsets: int) -> dict[int, list[float]]:
    window = {o: [_return(rng) for _ in range(rng.randint(0, 4))] for o in range(offsets)}
    if rng.random() < 0.1:
        return {}
    return {o: plays for o, plays in window.items() if plays or rng.random() < 0.5}


class Tally:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, float]] = {}

    def add(self, name: str, ours: Any, theirs: Any) -> None:
        row = self.rows.setdefault(name, {"trials": 0, "exact": 0, "max_abs_diff": 0.0})
        row["trials"] += 1
        row["exact"] += int(ours == theirs)
        row["max_abs_diff"] = max(row["max_abs_diff"], _difference(ours, theirs))


def _difference(a: Any, b: Any) -> float:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return math.inf
        return max((_difference(x, y) for x, y in zip(a, b)), default=0.0)
    if a is None or b is None:
        return 0.0 if a is b else math.inf
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(float(a) - float(b))
    return 0.0 if a == b else math.inf


def _windows(release: Any, rng: random.Random, tally: Tally) -> None:
    """blend, solve_rate, regret_based and learning_potential over a delay window, centred and scaled."""
    n = rng.randint(1, 6)
    skills = [rng.choice(["A", "B"]) for _ in range(n)]
    windows = [_window(rng, rng.randint(1, 4)) for _ in range(n)]
    hinted = [None if rng.random() < 0.2 else rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, rng.uniform(-1, 1)])
              for _ in range(n)]
    timed_out = [rng.random() < 0.15 for _ in range(n)]
    scale = env_reward_scale(rng.choice([0, 96, 192, 256]), n, rng.choice([4, 8]))
    designs = [WindowDesign(skill=s, plays=w, hinted_mean=h, timed_out=t)
               for s, w, h, t in zip(skills, windows, hinted, timed_out)]
    files = [f"game_{i:03d}.py" for i in range(n)]
    cache = {f: h for f, h in zip(files, hinted) if h is not None}

    def samples() -> list[_Sample]:
        return [_Sample(f, s, step_timeout=t) for f, s, t in zip(files, skills, timed_out)]

    def rewards_of(batch: list[_Sample]) -> list[float | None]:
        return [None if s.metadata.get("proposer_masked") else s.reward for s in batch]

    for variant, settings in (("blend", LAUNCH_BLEND), ("solve_rate", dict(LAUNCH_BLEND, regret_weight=0.0,
                                                                            plateau_weight=1.0))):
        batch = samples()
        release.delayed.recompute_delayed_env_rewards_blend(batch, dict(zip(files, windows)), cache, scale, **settings)
        ours = score_window(designs, variant, scale=scale)  # type: ignore[arg-type]
        tally.add(f"{variant} (delay window, launch weights)", list(ours.rewards), rewards_of(batch))
    unfloored = dict(LAUNCH_BLEND, regret_floor=False)
    batch = samples()
    release.delayed.recompute_delayed_env_rewards_blend(batch, dict(zip(files, windows)), cache, scale, **unfloored)
    ours = score_window(designs, "blend", scale=scale, weights=BlendWeights(floor_regret=False))
    tally.add("blend, regret floor off (unclipped, masked)", list(ours.rewards), rewards_of(batch))

    flat = {f: [r for o in sorted(w) for r in w[o]] for f, w in zip(files, windows)}
    batch = samples()
    release.delayed.recompute_delayed_env_rewards_regret(batch, flat, cache, scale)
    tally.add("regret_based (delay window, timeouts)", list(score_window(designs, "regret_based", scale=scale).rewards),
              rewards_of(batch))

    trackers = {s: release.lp.LearningPotential(0.98, 0.85) for s in ("A", "B")}
    emas: dict[str, WinRateEMA] = {}
    for _epoch in range(2):
        batch = samples()
        release.delayed.recompute_delayed_env_rewards(batch, flat, trackers, scale, update_lp=True)
        ours = score_window(designs, "learning_potential", scale=scale, emas=emas)
        emas = dict(ours.emas)
        tally.add("learning_potential (LP updated before scoring, 2 epochs)", list(ours.rewards), rewards_of(batch))


def _loop_batch(release: Any, rng: random.Random, tally: Tally) -> None:
    """The loops' own scoring (``score_designer_batch`` in reference mode) against the release's delayed
    recompute over a one-step window: invalid designs (the release re-samples them: absent), failed hints
    (no cached r_hint), timeouts and centring per skill included."""
    from spade_train.rewards import DesignerRewardConfig, EnvOutcome, score_designer_batch
    from spade_train.semantics import SEMANTICS

    n = rng.randint(1, 6)
    outcomes, files, plays, cache, skills, timeouts = [], [], {}, {}, [], []
    for i in range(n):
        skill, valid = rng.choice(["A", "B"]), rng.random() > 0.2
        unhinted = tuple(_return(rng) for _ in range(rng.randint(1, 6)))
        hint_failed = rng.random() < 0.2
        hinted = () if hint_failed else tuple(_return(rng) for _ in range(rng.randint(1, 6)))
        timed_out = valid and rng.random() < 0.15
        outcomes.append(EnvOutcome(valid=valid, timed_out=timed_out, hinted_returns=hinted if valid else (),
                                   unhinted_returns=unhinted if valid else (), skill=skill,
                                   hint_failed=valid and hint_failed))
        if valid:
            name = f"game_{i:03d}.py"
            files.append(name)
            skills.append(skill)
            timeouts.append(timed_out)
            plays[name] = {0: list(unhinted)}
            if not hint_failed:
                cache[name] = _np_mean(hinted)  # r_hint = float(np.mean(hint_rewards)), orchestrator.py:1980
    scale = rng.choice([1.0, 32.0, 50.0])
    for variant in ("blend", "regret_based", "solve_rate"):
        config = DesignerRewardConfig(variant=variant, scale=scale, semantics=SEMANTICS["reference"])  # type: ignore
        ours = [r for r, o in zip(score_designer_batch(outcomes, config).rewards, outcomes) if o.valid]
        batch = [_Sample(f, s, step_timeout=t) for f, s, t in zip(files, skills, timeouts)]
        if variant == "regret_based":
            flat = {f: w[0] for f, w in plays.items()}
            release.delayed.recompute_delayed_env_rewards_regret(batch, flat, cache, scale)
        else:
            settings = LAUNCH_BLEND if variant == "blend" else {**LAUNCH_BLEND, "regret_weight": 0.0,
                                                                 "plateau_weight": 1.0}
            release.delayed.recompute_delayed_env_rewards_blend(batch, plays, cache, scale, **settings)
        theirs = [None if s.metadata.get("proposer_masked") else s.reward for s in batch]
        tally.add(f"{variant}: the loops' scoring (invalid, failed hints, timeouts)", ours, theirs)


def _np_mean(values: Any) -> float:
    import numpy as np

    return float(np.mean(values))


def _scalars(release: Any, rng: random.Random, tally: Tally) -> None:
    rewards = [_return(rng) * rng.choice([1, 3]) for _ in range(rng.randint(0, 5))]
    terminated = rng.random() < 0.7
    tally.add("episode return", episode_return(rewards, terminated),
              release.rewards.episode_reward(rewards, terminated))
    w = rng.choice([rng.uniform(-1, 1), 0.15, 0.4, 0.6, 0.85, 0.375, 0.625, rng.randint(0, 8) / 8])
    tally.add("plateau", plateau(w), release.rewards.plateau_reward(w))
    actors, envs, interval = rng.choice([0, 8, 192, 256]), rng.choice([0, 1, 16, 24]), rng.choice([1, 4, 8, 32])
    tally.add("env reward scale", env_reward_scale(actors, envs, interval),
              release.rewards.compute_env_reward_scale(envs, actors, interval))


def _advantages(release: Any, rng: random.Random, tally: Tally) -> None:
    """The agent's advantage: per game, (r - mean) / (population std + 1e-8)."""
    plays = [rng.choice([-1.0, 0.0, 1.0, 0.5, rng.uniform(-1, 1)]) for _ in range(rng.randint(1, 8))]
    fields = {"index": 0, "prompt": "", "messages": [], "tokens": [], "loss_mask": [], "response": "", "response_length": 0,
                  "rollout_log_probs": None, "status": None, "turn_count": 1}
    trajectories = [types.SimpleNamespace(reward=r, metadata={"game_file": "g.py", "skill": "S"}, **fields)
                    for r in plays]
    normalized, _ = release.trajectories.normalize_rewards_per_game(trajectories, ["g.py"],
                                                                     reward_normalization="grpo")
    ours = group_advantages([Sample("agent", "g.py", r) for r in plays], normalize_std=True)
    tally.add("agent advantages (per game z-score)", list(ours.advantages), [t.reward for t in normalized])


def _memory(release: Any, rng: random.Random, tally: Tally, directory: Path, trial: int) -> None:
    """Memory examples: positives (top 10 by regret, stable: oldest first on ties, sample 2), negatives."""
    from spade_envs.spec.models import EnvSpec
    from spade_train.environments import EnvironmentRecord
    from spade_train.memory import EnvironmentMemory

    theirs = release.memory.EnvironmentMemory(max_size=200)
    ours = EnvironmentMemory(directory / f"memory-{trial}.sqlite3", capacity=200)
    ids = []
    for i in range(rng.randint(0, 30)):
        skill = rng.choice(["A", "B"])
        rate = rng.choice([0.0, 0.05, 0.0999, 0.1, 0.15, 0.5, 0.85, 0.9, 0.9001, 0.95, 1.0, 0.375])
        regret = rng.choice([0.0, 0.1, 0.3, 0.3, 0.3, 0.5, -0.2])
        code = f"class Game{trial}x{i}Env:\n    pass  # {i}\n"
        record = EnvironmentRecord(EnvSpec(id=_env_id(code), class_name=f"Game{trial}x{i}Env", skill=skill,
                                           kind="multi_turn_game", max_turns=5), code)
        ours.add_environment(record, valid=True)
        ours.record_evaluation(record.spec.id, step=i, unhinted_win_rate=rate, regret=regret, plays=8)
        theirs.add(record.spec.id, skill, code, rate, regret, rollout_id=i)
        ids.append(record.spec.id)
    seed = rng.randrange(2**31)
    for skill in ("A", "B"):
        theirs.rng = random.Random(seed)
        expected = [r.game_file for r in theirs.high_regret_seeds(n=2, skill=skill)]
        expected += [r.game_file for r in theirs.low_quality_examples(n=1, skill=skill)]
        got = [e.env_id for e in ours.prompt_examples([skill], random.Random(seed), ties="oldest")]
        tally.add("memory examples (ties kept oldest)", got, expected)
    ours.close()


def _env_id(code: str) -> str:
    from spade_envs.spec.models import env_id_for

    return env_id_for(code)


HINT_PARTS = ['```json', '```JSON', '```', '{"hint": "Count the red cells."}', '{"hint": 5}', '{"hint": null}',
              '{"answer": "A"}', '{"hint": "  padded  "}', 'Count the red cells.', '<|im_end|>', '\n', '  ',
              'Prefix ', ' suffix', '{bad json', '<think>plan</think>']


def _hints(release: Any, rng: random.Random, tally: Tally) -> None:
    reply = "".join(rng.choice(HINT_PARTS) for _ in range(rng.randint(1, 6)))
    theirs = release.hints.HintGenerator._parse_hint(None, reply)
    tally.add("hint parsing (a non-string hint is no hint)", clean_hint(reply, "strip_json_fence"),
              theirs if isinstance(theirs, str) else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True, help="directory holding the release's spade/ package")
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the table as JSON here")
    args = parser.parse_args(argv)
    if not (args.release / "spade" / "core" / "utils" / "delayed_env_rewards.py").is_file():
        print(f"release_differential: error: {args.release} holds no spade/core/utils/delayed_env_rewards.py; "
              "pass the directory of a spade-rl/spade export", file=sys.stderr)
        return 2
    release = _load_release(args.release)
    rng = random.Random(args.seed)
    tally = Tally()
    checks: list[Callable[[Any, random.Random, Tally], None]] = [_scalars, _windows, _loop_batch, _advantages,
                                                                 _hints]
    with tempfile.TemporaryDirectory() as tmp:
        for trial in range(args.trials):
            for check in checks:
                check(release, rng, tally)
            if trial < max(1, args.trials // 5):
                _memory(release, rng, tally, Path(tmp), trial)
    width = max(len(name) for name in tally.rows)
    print(f"{'quantity':<{width}}  trials   exact  max |diff|")
    for name, row in tally.rows.items():
        print(f"{name:<{width}}  {row['trials']:>6}  {row['exact']:>6}  {row['max_abs_diff']:.3g}")
    if args.json:
        args.json.write_text(json.dumps({"trials": args.trials, "seed": args.seed, "rows": tally.rows}, indent=2) + "\n")
    return 0 if all(row["exact"] == row["trials"] for row in tally.rows.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
