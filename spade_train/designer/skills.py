"""The skills environments are written to exercise, and the four kinds of environment.

The designer is always asked for one target skill; its reward is centred per skill, so the set of skills
is part of the training signal and must be stable. The lists match the SPADE release: six default game
skills (the ones a run cycles through), nine offered in the game prompt (the six plus three the designer
may also be asked for) and six tool-use skills.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import get_args

from spade_envs.spec.models import EnvKind

ENV_KINDS: tuple[EnvKind, ...] = get_args(EnvKind)
"""single_answer, multi_turn_game, corpus_grounded, tool_use: the four designer prompt kinds."""

DEFAULT_GAME_SKILLS: tuple[str, ...] = (
    "Mathematical Reasoning",
    "Logical Deduction",
    "Spatial Reasoning",
    "Pattern Recognition",
    "Optimization",
    "Causal Inference",
)

PROMPT_GAME_SKILLS: tuple[str, ...] = DEFAULT_GAME_SKILLS + (
    "Strategic Planning",
    "Memory Recall",
    "Language Understanding",
)

TOOL_USE_SKILLS: tuple[str, ...] = (
    "API Orchestration",
    "Data Retrieval",
    "State Modification",
    "Error Recovery",
    "Tool Selection",
    "Multi-Step Workflows",
)

SKILL_DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "Mathematical Reasoning": "computing with numbers: arithmetic, modular reasoning, counting, algebra "
        "carried through several dependent steps",
        "Logical Deduction": "drawing certain conclusions from rules, constraints and clues, and eliminating "
        "possibilities until one remains",
        "Spatial Reasoning": "positions, directions, shapes and movement on grids, maps or in layouts",
        "Pattern Recognition": "finding the hidden rule behind sequences, grids or transformations and applying "
        "it to new cases",
        "Optimization": "choosing the best option under limits: budgets, capacities, schedules, shortest routes",
        "Causal Inference": "working out which hidden causes produce the observed effects, by intervening and "
        "observing",
        "Strategic Planning": "ordering actions over many turns towards a goal, where early choices constrain "
        "later ones",
        "Memory Recall": "keeping track of information revealed earlier in the episode and using it later",
        "Language Understanding": "reading instructions or texts closely: word meanings, references, precise "
        "conditions",
        "API Orchestration": "calling several tools in the right order, feeding one tool's output into the next",
        "Data Retrieval": "finding every record needed among many with lookup and search tools and combining "
        "them into an answer",
        "State Modification": "changing a system's state with tools so that it ends up exactly as requested",
        "Error Recovery": "noticing rejected or failed tool calls, reading the error and correcting course",
        "Tool Selection": "picking the right tool among similar ones, including ones that look relevant but "
        "are not",
        "Multi-Step Workflows": "carrying out a sequence of user requests, each depending on the state the "
        "previous ones left",
    }
)


def skills_for(kind: EnvKind | str) -> tuple[str, ...]:
    """The skills a designer may be asked for in a prompt of this kind."""
    if kind not in ENV_KINDS:
        raise ValueError(f"unknown environment kind {kind!r}; expected one of: {', '.join(ENV_KINDS)}")
    return TOOL_USE_SKILLS if kind == "tool_use" else PROMPT_GAME_SKILLS


def default_skills_for(kind: EnvKind | str) -> tuple[str, ...]:
    """The skills a run cycles through by default for this kind (six either way)."""
    if kind not in ENV_KINDS:
        raise ValueError(f"unknown environment kind {kind!r}; expected one of: {', '.join(ENV_KINDS)}")
    return TOOL_USE_SKILLS if kind == "tool_use" else DEFAULT_GAME_SKILLS


def describe_skill(skill: str) -> str:
    """A one-line description for the prompt; custom skills get a generic one instead of an error."""
    return SKILL_DESCRIPTIONS.get(skill, f"the skill named '{skill}'")
