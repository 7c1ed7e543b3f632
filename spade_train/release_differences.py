"""Every known place where a paper recipe's run differs from the SPADE release's, beyond the options.

``spade_train.semantics.OPTIONS`` holds the choices a run selects (``[semantics]``). This module holds the
rest: what a whole run does around them, measured against the release (``spade-rl/spade`` at
``RELEASE_COMMIT``), each with what it is now:

- ``same``: reference behaviour; ``test`` names the test that fails if it stops being the release's;
- ``option``: a named setting whose value in the paper recipes is the release's (``setting``), also
  backed by a ``test``;
- ``different``: still different, and ``why``.

The documentation's deviations page renders ``DIFFERENCES`` (``differences_table``), and
``tests/test_reference_mode.py`` checks that every ``test`` named here exists, so the page can claim no
equality that no test backs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["same", "option", "different"]


@dataclass(frozen=True)
class Difference:
    name: str
    what: str
    release: str
    """What the release does (with its file where one place defines it)."""
    here: str
    """What a paper recipe's run does now."""
    status: Status
    setting: str | None = None
    test: str | None = None
    """The test (pytest node id: a file under tests/, then ``::`` and its name) that fails if ``same`` or
    ``option`` stops holding."""
    why: str | None = None
    """For ``different``: why, and what it would take."""


DIFFERENCES: tuple[Difference, ...] = (
    Difference(
        "designer_advantage", "the designer's advantage (OpenRLHF)",
        "its window reward centred per skill, times min(50, agent samples / designs x R): 32 for games, 50 for "
        "tool use (`spade/core/utils/rewards.py:53-62`)",
        "the same, formed by the executor, and OpenRLHF's dr_grpo centering keeps it (`group_norm` would "
        "z-score it: mean |advantage| 0.8 against 10)", "option", setting='openrlhf.advantage = "release"',
        test="tests/test_openrlhf_faults.py::test_the_release_s_advantages_come_through_openrlhfs_centering"),
    Difference(
        "agent_advantage", "the agent's advantage (OpenRLHF)",
        "the plays of one game z-scored, population std + 1e-8",
        "bit-equal as the executor forms it; within 1e-6 after OpenRLHF's float32 centering (`group_norm`: the "
        "unbiased std, a uniform 0.935 factor for 8 plays)", "option", setting='openrlhf.advantage = "release"',
        test="tests/test_openrlhf_faults.py::test_the_release_s_advantages_come_through_openrlhfs_centering"),
    Difference(
        "memory_records", "what the memory records of a design",
        "the share of positive returns among the regeneration step's plays, and regret 0 where the hint "
        "failed (`spade/slime/spade_rollout.py:703-735`)", "the same", "option",
        setting='semantics.memory_plays = "regeneration_step"',
        test="tests/test_openrlhf_window.py::test_the_memory_records_a_design_as_the_release_does_in_reference_mode"),
    Difference(
        "ablations", "the paper's ablations",
        "six wrappers over the 30B games script: no corpus, no memory, no designer training and no memory, "
        "learning potential, solve rate, two skills (`cmd/ablations/`)",
        "the same six recipes (`configs/recipes/ablation-*.toml`), each the 30B games recipe with that change",
        "same", test="tests/test_openrlhf_launcher.py::test_recipes_cover_the_paper_models_settings_baselines_and_ablations"),
    Difference(
        "sampling", "how trained rows sample", "top-k 20, top-p 0.95", "the same", "option",
        setting='semantics.trained_sampling = "truncated"',
        test="tests/test_reference_mode.py::test_truncated_sampling_is_the_release_s_and_refused_where_log_probs_would_disagree"),
    Difference(
        "logprobs", "the log-probs a truncated row carries",
        "SGLang's, temperature-scaled before truncation, against a trainer at --rollout-temperature 1.0 for rows "
        "sampled at 0.6",
        "vLLM's processed (truncated) ones against a trainer at the sampling temperature", "different",
        why="vLLM through OpenRLHF returns either processed or raw (unscaled) log-probs, never SGLang's; the dry "
            "run names the bias"),
    Difference(
        "zero_variance", "groups whose rewards are all equal",
        "kept with advantage 0 (they count in the loss's token mean)",
        "the same: kept, with a score inside dynamic filtering's range, and trained at advantage 0; dynamic "
        "filtering still drops faulted groups and designer rows not trained yet", "option",
        setting="grpo.drop_zero_variance = false",
        test="tests/test_openrlhf_faults.py::test_zero_variance_groups_are_kept_at_advantage_zero_as_the_release_keeps_them"),
    Difference(
        "failed_plays_openrlhf", "a play the harness could not finish (OpenRLHF)",
        "retried once (not after its 300 s play timeout), then dropped (`spade/core/orchestrator.py:1523-1547`)",
        "an agent row's play is retried once, the retry trained, and a second failure left out of its design's "
        "window (a step that timed out is retried too: the sandbox stops it, so nothing is left running)",
        "option", setting='semantics.failed_plays = "retry_then_drop"',
        test="tests/test_openrlhf_faults.py::test_a_failed_agent_play_is_retried_once_and_dropped_from_the_window_as_the_release_does"),
    Difference(
        "blank_hints", "a hint reply of whitespace only",
        "played as an empty hint (`spade/core/hint_generator.py:109-133, 255-262`)",
        "the same: the empty hint is accepted and its hinted plays are made (the toolkit rejects it)", "option",
        setting='semantics.blank_hints = "played"',
        test="tests/test_hints.py::test_a_blank_hint_is_played_empty_in_reference_mode_and_rejected_in_the_toolkits"),
    Difference(
        "environments_played", "which environments the agent plays",
        "every game of the current generation at every step, 8 plays each; old games deleted, a hanging game "
        "blacklisted, top-ups between regenerations",
        "open windows least-played first, then the 200 newest, weighted to a 50% win rate, starting from the "
        "bundled environments", "different", why="OpenRLHF draws rows, not generations; playing every game of the newest generation would need "
                             "the shared state to hand out games per step as rows arrive (not built)"),
    Difference(
        "designer_timing", "when a generation's designs arrive",
        "as one batch at each regeneration step", "spread over steps (OpenRLHF shuffles the designer rows)",
        "different", why="OpenRLHF 0.11.2 always shuffles the prompt rows (`prepare_datasets` asks its dataloader for "
            "shuffle=True), so no order of the file survives; one batch per regeneration step would need the shared "
            "state to give rows their role as they arrive at each step (not built)"),
    Difference(
        "batch_shaping", "how a step's batch is shaped",
        "designer samples first; samples without log-probs dropped; agent samples trimmed at regeneration "
        "steps; partial batches padded and rewards scaled by 192 / real samples",
        "OpenRLHF's batch of rows x samples; dynamic filtering refills dropped groups", "different",
        why="OpenRLHF owns batching"),
    Difference(
        "prompts", "the designer, hint and agent prompts",
        "the release's templates (`spade/core/prompts/`, `hint_generator.py`), assembled in `orchestrator.py`",
        "with a checkout of the release named, its own templates assembled as it does (the corpus-grounded "
        "game prompt byte for byte; the others draw examples from Python's global random state there); "
        "without one, this toolkit's prompts carry the same inputs in another text, and the run says so",
        "option", setting="semantics.release_dir",
        test="tests/test_release_prompts.py::test_the_designer_prompt_is_assembled_as_the_release_assembles_it"),
    Difference(
        "thinking", "thinking mode of the 8B recipes",
        "both roles think (games and tool use: `--spade-env-enable-thinking`, `--spade-actor-enable-thinking`)",
        "the designer thinks (`openrlhf.designer_thinking`); the agent does not", "different",
        why="a thinking agent's turns need per-turn samples (Qwen3 drops old reasoning from the history) and 25 "
            "turns of thinking overflow max_len; the designer's one reply has no such problem"),
    Difference(
        "compact_filter", "a tool-use play that did not terminate (ran out of turns)",
        "its return counts in its game's advantages, its tokens are not trained (`--spade-compact-filter`, "
        "`spade/slime/spade_rollout.py:809-818`)", "the same in the tool-use recipes (a placeholder with no "
        "action range that keeps its return; the embedded loop leaves its turns out of the batch)", "option",
        setting="grpo.train_unfinished = false",
        test="tests/test_openrlhf_faults.py::test_a_play_that_ran_out_of_turns_is_not_trained_under_the_release_s_compact_filter"),
    Difference(
        "tool_use_validator", "tool-use designs' LLM environment validator",
        "the training model asked whether the game is solvable, after the programmatic checks; a boxed "
        "'no' rejects the design, which is written again (`spade/core/env_validator.py`)",
        "the same in the tool-use recipes: the run's model is asked after the checker and before the hint, with "
        "the release's prompts and boxed verdict where `semantics.release_dir` is set (else the gate judge's "
        "questions); a rejected design is re-sampled in reference mode", "option", setting='loop.judge = "self"',
        test="tests/test_self_judge.py::test_a_design_the_run_s_model_judges_unsolvable_is_invalid_and_one_it_accepts_is_played"),
    Difference(
        "design_centring", "which skills a games regeneration's designs are written for, and their centring group",
        "a window of 3 of the 6 skills, advancing by 3 each regeneration (`--spade-skills-per-regen 3`, "
        "`spade/slime/spade_rollout.py:198-215`); game i takes active skill i % 3, so 8 designs per skill, "
        "centred per skill",
        "the same: each cycle's 3 designer rows take the next 3 skills, one skill and 8 designs per row, "
        "centred per row", "same",
        test="tests/test_reference_mode.py::test_each_regeneration_s_designer_rows_take_the_release_s_window_of_skills"),
    Difference(
        "tool_use_skills", "how skills spread over a regeneration (tool use, and the two-skill ablation)",
        "every skill each regeneration, design i taking skill i % skills: tool use 6 skills x 4 designs (the 4B "
        "script's 16 designs: 3 or 2 each), the two-skill ablation 2 x 12, centred per skill",
        "one skill per designer row of 8, rows cycling the skills (tool use: 3 of the 6 per cycle with 24 designs, "
        "2 with the 4B recipe's 16; two skills: rows alternate, so 16 and 8 in a cycle)", "different",
        why="OpenRLHF groups a row's samples, all n_samples_per_prompt = 8 of them: a group of 4 or 12 would need "
            "per-skill centring inside a row"),
    Difference(
        "hinted_play_timing", "when a design's hinted plays happen",
        "all at the regeneration step", "during its window, beside agent rows", "different",
        why="OpenRLHF has no step hook; plays ride along agent samples"),
    Difference(
        "memory_window", "which memory records the designer's examples come from, and when a record is made",
        "the last 200 records, one per game, written at its regeneration step",
        "one record per design too (window scoring records a design once), and the prompt window is the 200 "
        "designs evaluated last: the same records, but each is written when the design's window closes, "
        "`openrlhf.designer_every` steps later", "different",
        why="a record needs the design's regret, and its hinted plays happen during its window (see when a "
            "design's hinted plays happen)"),
    Difference(
        "checker", "how a design is checked",
        "a load-time self-test and its validator, in-process",
        "the four-tier checker in a WebAssembly sandbox", "different", why="model-written code never runs unsandboxed"),
    Difference(
        "blend_terms", "the blend's micro-LP and frontier terms",
        "weight 0 in every launch script", "not implemented", "different",
        why="with their weights at 0, as in every launch script, no run differs"),
)

STATUS_WORDS = {"same": "the release's", "option": "named option", "different": "still different"}


def differences_table() -> str:
    """The deviations page's table of ``DIFFERENCES`` (markdown)."""
    head = ("| what | the release | a paper recipe's run | status |\n"
            "| --- | --- | --- | --- |\n")
    rows = []
    for d in DIFFERENCES:
        status = STATUS_WORDS[d.status]
        if d.setting:
            status += f": `{d.setting}`"
        if d.test:
            status += f" (tested: `{d.test.split('::')[-1]}`)"
        if d.why:
            status += f": {d.why}"
        rows.append(f"| {d.what} | {d.release} | {d.here} | {status} |")
    return head + "\n".join(rows) + "\n"
