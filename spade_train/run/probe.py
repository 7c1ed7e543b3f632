"""The designer probe: what a run's designer learnt, measured at a fixed agent.

A run's curves mix two things that both move: the designer and the agent. Regret falling may be the
designer moving away from the frontier or the agent learning to play without the hint; a valid rate
rising may be the only thing the designer learnt. The probe holds the run's final agent fixed and asks
what each designer's *own distribution* of designs is worth to it:

1. it asks each designer, the final model (``checkpoints/latest``) and the model as it was after the
   warm-up (``checkpoints/reference``), for ``probe.designer_samples`` designs, answering the same
   prompts (memory examples as the loop draws them) with the same sampling seeds;
2. it takes up to ``probe.uniform_designs`` of the run's valid designs (the memory's) uniformly: the
   uniform-valid baseline, a designer that has learnt validity and nothing else;
3. every distinct design among them goes through the run's own path (``attempt_design``: checker, hint,
   ``probe.episodes_per_condition`` hinted and unhinted plays by the final agent), once;
4. for each distribution it reports validity (share of its samples that were valid), expected regret
   and plateau share (share whose unhinted win rate is in the plateau band) over its valid samples,
   each with a percentile-bootstrap interval over its samples, and the gain of each designer's
   expected regret over uniform-valid with its interval;
5. with design hints (the embedded language), how closely the designer followed the agent during the
   run, read from ``attempts.jsonl`` (``tracking.py``).

The end-of-run probe writes ``probe.json`` and ``plots/probe.png`` in the run directory; each later
``spade-train probe`` writes the next free ``probe-N.json`` and ``plots/probe-N.png``, so no probe replaces
another.

**Intervals resample distinct designs** (a cluster bootstrap): the repeats of one design share one noisy
estimate, from the same plays, so they are one observation, not several. Each resample draws distinct
designs with replacement and weighs each by how often the distribution wrote it. A designer that repeats
itself thus gets the wide interval its few distinct designs allow, not the narrow one its many samples
would suggest. Beside regret, each distribution reports its distinct valid designs and their effective
number (the inverse Simpson index of how its valid samples spread over them: N for N designs written
equally often, 1 for a designer collapsed onto one), so collapse is visible next to the figure it
would flatter.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from spade_envs.fileio import write_atomically
from spade_envs.runtime.backend import ExecutionBackend, create_backend
from spade_envs.runtime.limits import ExecutionLimits
from spade_envs.runtime.threads import SessionThreads
from spade_envs.spec.models import env_id_for
from spade_train.config.sections import RunConfig
from spade_train.designer.language import DesignLanguage, design_language
from spade_train.designer.prompts import DesignerPrompt
from spade_train.loop.checker import Checker
from spade_train.loop.design import DesignAttempt, DesignContext, DesignPlan, attempt_design, designer_request
from spade_train.memory import EnvironmentMemory, NearDuplicate
from spade_train.policies.base import Generation, Policy
from spade_train.policies.roles import Policies, hint_writer
from spade_train.rewards import PLATEAU_HIGH, PLATEAU_LOW
from spade_train.run.directory import Checkpoints, RunDirectory, RunDirectoryError
from spade_train.run.plots import save_figure
from spade_train.run.progress import progress_bar, quiet_transformers
from spade_train.run.resume import loading_checkpoint, memory_counts, verify_checkpoint
from spade_train.run.tracking import designer_tracking, tracking_line

PROBE_FILE = "probe.json"
"""The end-of-run probe's file; later probes write ``probe-N.json`` (``next_probe_file``)."""
DISTRIBUTIONS = ("final", "post_warmup", "uniform_valid")
"""The designs compared: the final model's, the post-warm-up model's, and the run's valid ones, uniformly."""


@dataclass(frozen=True)
class DesignResult:
    """One distinct design, played by the final agent."""

    env_id: str
    valid: bool
    regret: float | None
    win_rate_unhinted: float | None
    win_rate_hinted: float | None
    outcome: str

    @property
    def in_plateau(self) -> bool:
        rate = self.win_rate_unhinted
        return rate is not None and PLATEAU_LOW <= rate <= PLATEAU_HIGH

    def to_json(self) -> dict[str, Any]:
        return {"env_id": self.env_id, "valid": self.valid, "regret": self.regret, "outcome": self.outcome,
                "win_rate_unhinted": self.win_rate_unhinted, "win_rate_hinted": self.win_rate_hinted}


class _NoDuplicates:
    """The probe replays designs: none of them is a duplicate to reject."""

    async def near_duplicates(self, code: str, threshold: float) -> Sequence[NearDuplicate]:
        return ()


Cluster = tuple[float, int]
"""One distinct design in a distribution: its value and how many of the distribution's samples it is."""


def clusters(pairs: Sequence[tuple[str, float]]) -> list[Cluster]:
    """(design key, value) per sample -> one cluster per distinct key, in first-seen order."""
    found: dict[str, list[float]] = {}
    for key, value in pairs:
        found.setdefault(key, []).append(value)
    return [(sum(values) / len(values), len(values)) for values in found.values()]


def _cluster_mean(drawn: Sequence[Cluster]) -> float:
    return sum(value * count for value, count in drawn) / sum(count for _, count in drawn)


def _percentiles(values: list[float], confidence: float) -> tuple[float, float]:
    values.sort()
    tail = (1 - confidence) / 2
    return values[int(tail * (len(values) - 1))], values[int((1 - tail) * (len(values) - 1))]


def bootstrap_mean(groups: Sequence[Cluster], *, resamples: int, rng: random.Random,
                   confidence: float = 0.95) -> tuple[float, float] | None:
    """Cluster-bootstrap interval of the per-sample mean (None for no clusters): distinct designs are
    drawn with replacement, each weighing as many samples as it stands for."""
    if not groups:
        return None
    return _percentiles([_cluster_mean(rng.choices(groups, k=len(groups))) for _ in range(resamples)], confidence)


def bootstrap_difference(first: Sequence[Cluster], second: Sequence[Cluster], *, resamples: int,
                         rng: random.Random, confidence: float = 0.95) -> tuple[float, float] | None:
    """Cluster-bootstrap interval of ``mean(first) - mean(second)``, the two resampled independently."""
    if not first or not second:
        return None
    return _percentiles([_cluster_mean(rng.choices(first, k=len(first)))
                         - _cluster_mean(rng.choices(second, k=len(second))) for _ in range(resamples)],
                        confidence)


def effective_designs(keys: Sequence[str]) -> float | None:
    """The inverse Simpson index of ``keys``: how many equally written designs their spread amounts to."""
    if not keys:
        return None
    counts: dict[str, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return len(keys) ** 2 / sum(count * count for count in counts.values())


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarise(samples: Sequence[DesignResult], *, resamples: int, rng: random.Random) -> dict[str, Any]:
    """Validity, expected regret and plateau share of one distribution's samples, with intervals."""
    valid = [s for s in samples if s.valid and s.regret is not None]
    validity = clusters([(s.env_id, float(s.valid)) for s in samples])
    regrets = clusters([(s.env_id, s.regret) for s in valid if s.regret is not None])
    plateau = clusters([(s.env_id, float(s.in_plateau)) for s in valid])
    unhinted = [s.win_rate_unhinted for s in valid if s.win_rate_unhinted is not None]
    return {
        "samples": len(samples), "distinct": len({s.env_id for s in samples}), "valid_samples": len(valid),
        "distinct_valid": len(regrets), "effective_designs": effective_designs([s.env_id for s in valid]),
        "valid": _mean([float(s.valid) for s in samples]),
        "valid_ci": bootstrap_mean(validity, resamples=resamples, rng=rng),
        "regret": _mean([s.regret for s in valid if s.regret is not None]),
        "regret_ci": bootstrap_mean(regrets, resamples=resamples, rng=rng),
        "plateau_share": _mean([float(s.in_plateau) for s in valid]),
        "plateau_ci": bootstrap_mean(plateau, resamples=resamples, rng=rng),
        "win_rate_unhinted": _mean(unhinted),
    }


def reply_for_code(language: DesignLanguage, code: str) -> str:
    """A designer reply that reads back as ``code``: the design it was rendered from in the signal
    language, a fenced module otherwise."""
    if language.name == "signal":
        from spade_train.designer.signal_language import design_of_code

        design = design_of_code(code)
        if design is not None:
            return str(design)
    return f"```python\n{code}\n```"


class DesignerProbe:
    """Runs the probe on one run directory (see the module docstring)."""

    def __init__(self, config: RunConfig, run_dir: Path, *, backend: ExecutionBackend | None = None,
                 out: TextIO | None = None) -> None:
        self.config, self.run_dir, self.out = config, run_dir, out
        self.backend = backend or create_backend(config.run.sandbox, ExecutionLimits())
        self.checkpoints = Checkpoints(run_dir / "checkpoints")

    def _policies(self) -> tuple[Policy, Policy | None, int]:
        """The final model, the post-warm-up model (None when the run did not keep it) and the step."""
        from spade_train.policies.transformers_local import TransformersPolicy

        found, state = self.checkpoints.find(), self.checkpoints.state()
        if found is None or state is None:
            raise RunDirectoryError(f"{self.run_dir} has no checkpoint to probe; run spade-train run first")
        verify_checkpoint(self.run_dir, found, state)
        memory = self.run_dir / "memory.sqlite3"
        try:
            memory_counts(memory)
        except sqlite3.DatabaseError as error:
            raise RunDirectoryError(f"cannot probe {self.run_dir}: memory.sqlite3 is not a sound SQLite database "
                                    f"({error}); resume the run with --resume --repair to restore it") from None
        reference = self.checkpoints.reference
        with loading_checkpoint(found):
            final = TransformersPolicy(str(found), name="final")
            warm = TransformersPolicy(str(reference), name="post-warm-up") if (reference / "config.json").is_file() \
                else None
        return final, warm, int(state["step"])

    async def run(self) -> dict[str, Any]:
        """Probe the run; returns what ``probe.json`` holds."""
        import torch

        quiet_transformers()
        if self.config.run.torch_threads is not None:
            torch.set_num_threads(self.config.run.torch_threads)
        settings, loop = self.config.probe, self.config.loop
        final, warm, step = self._policies()
        rng = random.Random(self.config.run.seed + 7)
        language = design_language(self.config.design.language, self.config.design.prompt)
        sessions = SessionThreads(self.backend)
        checker = Checker(self.backend, loop.validator(plan_salt=self.config.run.seed), workers=loop.validation_workers,
                          reuse_verdicts=loop.reuse_verdicts, reject_warnings=loop.warnings == "rejected")
        release = self.config.semantics.release_prompts()
        context = DesignContext(
            policies=Policies(designer=final, agent=final, hinter=hint_writer(self.config, final)),
            language=language, backend=self.backend, sessions=sessions, checker=checker, memory=_NoDuplicates(),
            loop=loop, designer_sampling=self.config.sampling.designer(),
            rollout=replace(self.config.rollout(release), episodes_per_condition=settings.episodes_per_condition),
            release_prompts=release)
        try:
            with EnvironmentMemory(self.run_dir / "memory.sqlite3") as memory:
                plans = [self._plan(memory, rng, index, step) for index in range(settings.designer_samples)]
                seen = [stored.code for stored in memory.environments(valid_only=True)]
            uniform = rng.sample(seen, min(settings.uniform_designs, len(seen)))
            designers = {"final": final, **({"post_warmup": warm} if warm is not None else {})}
            replies = {name: await self._ask(policy, plans, context) for name, policy in designers.items()}
            results = await self._evaluate(plans, replies, uniform, context)
        finally:
            sessions.close()
            checker.close()
        report = self._report(plans, replies, uniform, results, step, language)
        if self.config.design.hinter == "design":  # hints name the design's family (see run/tracking.py)
            report["tracking"] = designer_tracking(RunDirectory(self.run_dir).attempts())
        return report

    def _plan(self, memory: EnvironmentMemory, rng: random.Random, index: int, step: int) -> DesignPlan:
        loop = self.config.loop
        skill = loop.skills[index % len(loop.skills)]
        kind = loop.kinds[index % len(loop.kinds)]
        examples = memory.prompt_examples([skill], rng) if loop.use_memory else []
        prompt = DesignerPrompt(kind=kind, skill=skill, max_turns=loop.max_turns, examples=tuple(examples))
        return DesignPlan(kind=kind, skill=skill, prompt=prompt, step=step, seed=rng.randrange(2**31))

    @staticmethod
    async def _ask(policy: Policy, plans: Sequence[DesignPlan], context: DesignContext) -> list[Generation]:
        return list(await asyncio.gather(*(policy.generate(designer_request(plan, context)) for plan in plans)))

    async def _evaluate(self, plans: Sequence[DesignPlan], replies: dict[str, list[Generation]],
                        uniform: Sequence[str], context: DesignContext) -> dict[str, DesignResult]:
        """Each distinct reply (by the code it reads as; a reply without code by its text) played once."""
        jobs: dict[str, tuple[DesignPlan, Generation]] = {}
        for generations in replies.values():
            for plan, generation in zip(plans, generations):
                jobs.setdefault(self._key(context.language, generation), (plan, generation))
        for index, code in enumerate(uniform):
            plan = plans[index % len(plans)]
            jobs.setdefault(env_id_for(code), (plan, Generation(text=reply_for_code(context.language, code))))
        slots = asyncio.Semaphore(self.config.loop.concurrent_designs)

        progress = progress_bar(self.out, total=len(jobs), desc="designer probe", unit="design") \
            if self.out is not None else None

        async def one(plan: DesignPlan, generation: Generation) -> DesignAttempt:
            async with slots:
                attempt = await attempt_design(plan, context, first=generation)
            if progress is not None:
                progress.update(1)
            return attempt

        keys = list(jobs)
        try:
            attempts = await asyncio.gather(*(one(*jobs[key]) for key in keys))
        finally:
            if progress is not None:
                progress.close()
        return {key: _result(key, attempt) for key, attempt in zip(keys, attempts)}

    @staticmethod
    def _key(language: DesignLanguage, generation: Generation) -> str:
        code = language.read(generation.text).code if generation.ok else None
        # A reply without code is keyed by a digest of its text: the text is the model's, never written out.
        return env_id_for(code) if code is not None else f"no-code:{env_id_for(generation.text)}"

    def _report(self, plans: Sequence[DesignPlan], replies: dict[str, list[Generation]], uniform: Sequence[str],
                results: dict[str, DesignResult], step: int, language: DesignLanguage) -> dict[str, Any]:
        settings = self.config.probe
        rng = random.Random(self.config.run.seed + 11)
        samples = {name: [results[self._key(language, g)] for g in generations]
                   for name, generations in replies.items()}
        samples["uniform_valid"] = [results[env_id_for(code)] for code in uniform]
        summary = {name: summarise(values, resamples=settings.resamples, rng=rng) for name, values in samples.items()}
        def regret_clusters(name: str) -> list[Cluster]:
            return clusters([(s.env_id, s.regret) for s in samples[name] if s.valid and s.regret is not None])

        baseline = regret_clusters("uniform_valid")
        for name in ("final", "post_warmup"):
            if name not in summary:
                continue
            own = regret_clusters(name)
            gain = None if not own or not baseline else _cluster_mean(own) - _cluster_mean(baseline)
            summary[name]["regret_gain_over_uniform"] = gain
            summary[name]["regret_gain_ci"] = bootstrap_difference(own, baseline, resamples=settings.resamples,
                                                                   rng=rng)
        return {
            "step": step, "episodes_per_condition": settings.episodes_per_condition,
            "designer_samples": len(plans), "uniform_designs": len(uniform),
            "run_designer": "post_warmup" if self.config.loop.frozen_designer else "final",
            "plateau_band": [PLATEAU_LOW, PLATEAU_HIGH], "distributions": summary,
            "designs": [result.to_json() for result in results.values()],
        }


def _result(key: str, attempt: DesignAttempt) -> DesignResult:
    evaluation = attempt.evaluation
    return DesignResult(
        env_id=attempt.environment.id if attempt.environment is not None else key, valid=attempt.valid,
        regret=attempt.regret if attempt.valid else None,
        win_rate_unhinted=evaluation.win_rate(False) if evaluation is not None and attempt.valid else None,
        win_rate_hinted=evaluation.win_rate(True) if evaluation is not None and evaluation.hinted
        and attempt.valid else None,
        outcome=attempt.outcome.value)


def probe_lines(report: dict[str, Any]) -> list[str]:
    """The probe's figures as a short table for the terminal."""
    def interval(value: float | None, ci: Sequence[float] | None, form: str) -> str:
        if value is None:
            return "-"
        return form.format(value) + (f" [{form.format(ci[0])}, {form.format(ci[1])}]" if ci else "")

    plays = report["episodes_per_condition"]
    lines = [(f"designer probe (final agent of step {report['step']}, {plays}+{plays} plays per design; "
              "intervals resample distinct designs):"),
             f"{'':16}{'valid':>20}{'regret':>24}{'plateau share':>22}{'designs':>18}"]
    for name in DISTRIBUTIONS:
        figures = report["distributions"].get(name)
        if figures is None:
            continue
        effective = figures.get("effective_designs")
        designs = f"{figures.get('distinct_valid', 0)} ({effective:.1f} eff.)" if effective is not None else "0"
        lines.append(f"{name:16}{interval(figures['valid'], figures['valid_ci'], '{:.2f}'):>20}"
                     f"{interval(figures['regret'], figures['regret_ci'], '{:+.2f}'):>24}"
                     f"{interval(figures['plateau_share'], figures['plateau_ci'], '{:.2f}'):>22}{designs:>18}")
    for name in ("final", "post_warmup"):
        figures = report["distributions"].get(name)
        if figures is not None and figures.get("regret_gain_over_uniform") is not None:
            lines.append(f"regret of {name} minus uniform-valid: "
                         f"{interval(figures['regret_gain_over_uniform'], figures['regret_gain_ci'], '{:+.2f}')}")
    if report.get("tracking", {}).get("iterations"):
        lines.append(tracking_line(report["tracking"]))
    return lines


def plot_probe(report: dict[str, Any], out: Path) -> Path | None:
    """Bars with intervals: validity, expected regret and plateau share of each distribution."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    names = [name for name in DISTRIBUTIONS if name in report["distributions"]]
    panels = (("valid", "valid_ci", "validity of its designs"), ("regret", "regret_ci", "expected regret"),
              ("plateau_share", "plateau_ci", "plateau share"))
    figure, axes = plt.subplots(1, 3, figsize=(12, 3.8), constrained_layout=True)
    for axis, (key, ci_key, title) in zip(axes, panels):
        values, lows, highs, labels = [], [], [], []
        for name in names:
            figures = report["distributions"][name]
            if figures[key] is None:
                continue
            ci = figures[ci_key] or (figures[key], figures[key])
            values.append(figures[key])
            lows.append(figures[key] - ci[0])
            highs.append(ci[1] - figures[key])
            labels.append(name.replace("_", "\n"))
        axis.bar(range(len(values)), values, yerr=[lows, highs], capsize=4, color="tab:blue", alpha=0.7)
        axis.set_xticks(range(len(values)), labels)
        axis.axhline(0.0, color="grey", linewidth=0.8)
        axis.set_title(title)
        axis.grid(alpha=0.3, axis="y")
    figure.suptitle(f"designer probe: final agent of step {report['step']} (95% bootstrap intervals)")
    return save_figure(figure, out)


def next_probe_file(run_dir: Path) -> Path:
    """The first ``probe-N.json`` (N = 1, 2, ...) not yet in ``run_dir``: a later probe's file."""
    number = 1
    while (run_dir / f"probe-{number}.json").exists():
        number += 1
    return run_dir / f"probe-{number}.json"


def probe_run(run_dir: Path, config: RunConfig, out: TextIO, *, backend: ExecutionBackend | None = None,
              file: Path | None = None, as_json: bool = False, progress: TextIO | None = None) -> dict[str, Any]:
    """Probe ``run_dir`` with ``config`` (the run's own, with any overrides), write ``file`` (default
    ``probe.json``) with its plot beside the curves (``plots/<file stem>.png``) and print the figures, or
    with ``as_json`` the report itself as JSON. ``progress``: where the progress bar goes (default ``out``)."""
    file = file or run_dir / PROBE_FILE
    report = asyncio.run(DesignerProbe(config, run_dir, backend=backend,
                                       out=progress if progress is not None else out).run())
    write_atomically(file, json.dumps(report, indent=1) + "\n")
    plot = plot_probe(report, run_dir / "plots" / f"{file.stem}.png")
    if as_json:
        out.write(json.dumps(report, indent=1) + "\n")
        return report
    out.write("\n".join(probe_lines(report)) + "\n")
    out.write(f"probe: {file}" + (f", {plot}" if plot is not None else "") + "\n")
    return report
