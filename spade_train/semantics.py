"""Reward semantics: where this toolkit may differ from the SPADE release, and the mode that does not.

The release (``spade-rl/spade``) and this toolkit agree on every pure formula; they differ in the
pipeline around them: what counts as a win for the plateau, which variants a timeout costs, what
happens to an invalid design, a failed play, a failed hint, and so on. Each such choice is one named
option here, with the value the release has and the value this toolkit prefers, the release code that
defines the first and a one-line reason for the second.

Two modes fix all options at once:

- ``reference``: every option as the release does it, read from its code. The default of every
  paper recipe (``configs/recipes/``), so that they reproduce the paper's method.
- ``toolkit``: our improvements (counted wins, timeouts penalised everywhere, clipped regret, cleaned
  hints, ...). The embedded default and new recipes may use it.

A run picks a mode in ``[semantics] mode`` and may override single options beside it. The documentation's
deviations page is generated from ``OPTIONS`` (``deviations_table``), so it cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal, get_args

Mode = Literal["reference", "toolkit"]
MODES: tuple[str, ...] = get_args(Mode)

WinRateFrom = Literal["mean_return", "wins"]
TimeoutPenalty = Literal["regret_based", "every_variant"]
UnflooredRegret = Literal["unclipped", "clipped"]
InvalidDesigns = Literal["resampled", "scored"]
EnvironmentErrors = Literal["minus_one", "zero"]
FailedPlays = Literal["retry_then_drop", "zero"]
HintFailure = Literal["zero_hinted_return", "no_regret"]
MemoryTies = Literal["oldest", "newest"]
NegativeExamples = Literal["class_name", "code"]
HintCleaning = Literal["strip_json_fence", "clean"]
PlaySeeds = Literal["independent", "paired"]
MemoryWinRate = Literal["positive_return", "wins"]
DesignScoring = Literal["window", "attempt"]
TrainedSampling = Literal["truncated", "full"]
MemoryPlays = Literal["regeneration_step", "window"]
TimeoutPlays = Literal["regeneration_step", "window"]
BlankHints = Literal["played", "rejected"]


@dataclass(frozen=True)
class Semantics:
    """One value per option; ``SEMANTICS[mode]`` gives a whole mode. See ``OPTIONS`` for each one's story."""

    win_rate_from: WinRateFrom
    timeout_penalty: TimeoutPenalty
    unfloored_regret: UnflooredRegret
    invalid_designs: InvalidDesigns
    environment_errors: EnvironmentErrors
    failed_plays: FailedPlays
    hint_failure: HintFailure
    memory_ties: MemoryTies
    negative_examples: NegativeExamples
    hint_cleaning: HintCleaning
    play_seeds: PlaySeeds
    memory_win_rate: MemoryWinRate
    design_scoring: DesignScoring
    trained_sampling: TrainedSampling
    memory_plays: MemoryPlays
    timeout_plays: TimeoutPlays
    blank_hints: BlankHints

    def with_overrides(self, **overrides: str | None) -> Semantics:
        """This mode with the options given (None: keep the mode's value)."""
        return replace(self, **{name: value for name, value in overrides.items() if value is not None})

    def differences(self, other: Semantics) -> dict[str, tuple[str, str]]:
        """Option name -> (this value, the other's value), for the options on which the two differ."""
        return {f.name: (getattr(self, f.name), getattr(other, f.name))
                for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)}


@dataclass(frozen=True)
class Option:
    """One place where the toolkit may differ from the release."""

    name: str
    what: str
    """The quantity the option decides, in a few words."""
    reference: str
    """The release's value."""
    reference_means: str
    """What the release does, in one line."""
    release_code: str
    """Where the release defines it (file:line at the release commit of ``RELEASE_COMMIT``)."""
    toolkit: str
    """This toolkit's value."""
    toolkit_means: str
    why: str
    """One line: why the toolkit's value, and when to use it."""


RELEASE = "spade-rl/spade"
RELEASE_COMMIT = "9b2b813e8e2bd35d5923c96aa7500e24704b2d8f"

OPTIONS: tuple[Option, ...] = (
    Option("win_rate_from", "win rate the plateau (blend, solve_rate) and the LP baseline read",
           "mean_return", "the mean of the unhinted episode returns (returns in [-1, 1], so a lost game at -1 "
           "pulls it down)", "spade/core/utils/delayed_env_rewards.py:493-494",
           "wins", "the share of unhinted episodes won (terminated on a reward >= 0.999)",
           "a partial answer or a -1 ending is not a different difficulty: the plateau should measure how "
           "often the task is solved"),
    Option("timeout_penalty", "which variants charge a design whose step() timed out (-0.5)",
           "regret_based", "only regret_based; blend, solve_rate and learning_potential never read the flag",
           "spade/core/utils/delayed_env_rewards.py:336-340",
           "every_variant", "every variant",
           "a hanging environment wastes a rollout slot and must never be cheaper than a boring one"),
    Option("unfloored_regret", "the blend's regret term when the regret floor is off",
           "unclipped", "regret / 0.15 unbounded; a design whose blend is below 0 is masked out of training",
           "spade/core/utils/delayed_env_rewards.py:502-504, 526-530",
           "clipped", "regret / 0.15 clipped to [-1, 1]; designs below 0 are still masked",
           "a bounded term keeps one lucky regret from outweighing a whole batch"),
    Option("invalid_designs", "what an invalid design (repair turns off) costs",
           "resampled", "a fresh attempt (new document, new memory draw, new generation), up to 5 per slot; "
           "failed attempts are never trained and never enter the per-skill mean",
           "spade/core/corpus_orchestrator.py:87-221; spade/slime/spade_rollout.py:487",
           "scored", "scored 0 inside the per-skill centring, so valid designs of its skill gain",
           "a designer that cannot yet write valid code (a small model) learns validity only from this signal"),
    Option("environment_errors", "the return of an episode whose environment raised in step()",
           "minus_one", "-1, and the episode ends as terminated (in both arms of the regret)",
           "spade/core/envs/synthetic_game_env.py:430-434",
           "zero", "0: the episode ends with the error recorded",
           "an environment's own bug is not the agent's loss; the checker rejects designs that raise anyway"),
    Option("failed_plays", "an unhinted play the harness could not finish (model call failed, timeout)",
           "retry_then_drop", "retried once, then dropped: it enters no mean (hinted plays are never dropped; "
           "a failed one returns 0)", "spade/core/orchestrator.py:1523-1547, 1612-1623, 1806-1832",
           "zero", "kept with return 0 in either arm",
           "dropping plays that failed biases the mean toward plays that did not; a recorded 0 keeps K per arm"),
    Option("hint_failure", "regret when no usable hint was written",
           "zero_hinted_return", "the hinted return is taken as 0, so regret = 0 - mean(unhinted returns)",
           "spade/core/utils/delayed_env_rewards.py:343, 462; spade/slime/spade_rollout.py:545",
           "no_regret", "regret 0: no hinted play, nothing to compare",
           "0 - mean(unhinted) would pay the designer for environments the agent loses and hints it cannot "
           "write"),
    Option("memory_ties", "which of equally regretful memory records are kept as positive examples",
           "oldest", "a stable sort by regret: among equal regrets the oldest records rank first",
           "spade/core/env_memory.py:268-291",
           "newest", "among equal regrets the newest records rank first",
           "a newer record reflects the agent as it is now"),
    Option("negative_examples", "how a too-easy or too-hard memory example is shown to the designer",
           "class_name", "one line, 'too easy (win_rate=0.95): class' and the game file's stem, no code",
           "spade/core/env_memory.py:293-343",
           "code", "its code, with why it is a bad example",
           "the code of a bad design shows the designer what to avoid, a file name does not"),
    Option("hint_cleaning", "how the hint writer's reply becomes the hint",
           "strip_json_fence", "stripped; a first ```json fence holding {\"hint\": ...} is unwrapped; nothing else",
           "spade/core/hint_generator.py:109-133",
           "clean", "the fence unwrapped too, then reasoning, a 'Hint:' label and quotes dropped, whitespace "
           "collapsed, at most 3 sentences and 600 characters",
           "the agent should see 1-3 sentences of advice, not the writer's preamble or markup"),
    Option("play_seeds", "the seeds of the hinted and the unhinted plays",
           "independent", "drawn apart for each arm (hinted: hash(file + i); unhinted: each play's own), so "
           "regret compares different instances", "spade/core/orchestrator.py:1947-1978, 2382",
           "paired", "the same seeds in both arms",
           "a paired comparison removes the between-seed variance from regret"),
    Option("memory_win_rate", "the win rate the memory records (and picks examples by)",
           "positive_return", "the share of unhinted plays with a return above 0",
           "spade/slime/spade_rollout.py:728",
           "wins", "the share of unhinted plays won (terminated on a reward >= 0.999)",
           "a partial answer is not a solved task; the same count as the metrics and the designer reward"),
    Option("design_scoring", "which plays score a design on the OpenRLHF backend",
           "window", "every unhinted play the agent rows make of it during the R steps after it was written "
           "(hinted plays once, untrained); trained R steps later with its rollout log-probs",
           "spade/slime/spade_rollout.py:513-660; spade/core/utils/delayed_env_rewards.py:368-572",
           "attempt", "the K hinted and K unhinted plays of its own attempt, nested in the designer sample",
           "the reward comes back with the sample, on-policy, with K paired plays instead of whatever the "
           "window's leases happen to give"),
    Option("trained_sampling", "how the agent and the designer sample, and so which log-probs their rows carry",
           "truncated", "top-k and top-p as configured (the release: 20 and 0.95); the release keeps SGLang's "
           "log-probs, which are the temperature-scaled ones before truncation, and its trainer recomputes at "
           "--rollout-temperature 1.0 while sampling at 0.6; on OpenRLHF, vLLM returns the truncated "
           "distribution's log-probs and the trainer recomputes temperature-only ones",
           "spade/slime/arguments.py:36-47, 69-80; spade/slime/model_adapter.py:60-70, 172-210; "
           "cmd/games/train_spade_30b.sh:103",
           "full", "temperature only: top-k and top-p must be off for both roles, so the log-probs the engine "
           "returns are the distribution the trainer recomputes",
           "an importance ratio between a truncated and an untruncated distribution is below 1 on every kept "
           "token (by the kept mass), a bias no clip removes"),
    Option("memory_plays", "which unhinted plays the memory's win rate of a design counts (OpenRLHF, window "
           "scoring)",
           "regeneration_step", "the plays of the step it was written in (offset 0), recorded at that step; "
           "regret 0 where the hint failed (no cached regret)", "spade/slime/spade_rollout.py:703-735",
           "window", "every unhinted play of its delay window",
           "more plays give a steadier win rate for choosing the designer's examples"),
    Option("timeout_plays", "which plays flag a design as timed out (OpenRLHF, window scoring)",
           "regeneration_step", "its hinted plays and the unhinted plays of the step it was written in",
           "spade/core/orchestrator.py:2288-2290, 2410-2418", "window", "any play of its window, hinted or unhinted",
           "a design that hangs later in its window wastes rollout slots as much as one that hangs at once"),
    Option("blank_hints", "a hint reply that is whitespace only (or a fence whose hint is empty)",
           "played", "the hint is the empty string, and the hinted plays are made with it: the release's template "
           "then reads 'HINT: ' with nothing after it; such a reply is not asked for again",
           "spade/core/hint_generator.py:109-133, 255-262",
           "rejected", "no hint: a hint failure, asked for again while ``hint_attempts`` allow",
           "an empty hint teaches nothing; its 'hinted' plays measure the unhinted agent twice"),
)

SEMANTICS: dict[str, Semantics] = {
    "reference": Semantics(**{option.name: option.reference for option in OPTIONS}),
    "toolkit": Semantics(**{option.name: option.toolkit for option in OPTIONS}),
}
"""The two modes. Built from ``OPTIONS``, so a new option is one entry there."""


def semantics_for(mode: str) -> Semantics:
    """The options of ``mode`` (``reference`` or ``toolkit``)."""
    if mode not in SEMANTICS:
        raise ValueError(f"unknown semantics mode {mode!r}; expected one of {', '.join(MODES)}")
    return SEMANTICS[mode]


def deviations_table() -> str:
    """The docs' deviations table (markdown): every option, what each mode does, the setting that selects it."""
    head = ("| what | `reference` (the release) | `toolkit` | select with | why the toolkit's value |\n"
            "| --- | --- | --- | --- | --- |\n")
    rows = [f"| {o.what} | `{o.reference}`: {o.reference_means} (`{o.release_code}`) | `{o.toolkit}`: "
            f"{o.toolkit_means} | `semantics.{o.name}` | {o.why} |" for o in OPTIONS]
    return head + "\n".join(rows) + "\n"
