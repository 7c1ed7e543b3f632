"""Pack environments into a pool: what ``spade-envs export OUT FILES_OR_DIRS...`` writes.

A pool's manifest carries each environment's spec, so whoever loads the pool (our loop, a verifiers,
OpenEnv or GEM trainer) knows what the code is without running it on the host. For an environment that
comes with a spec (a pool entry, a bundled environment) the spec travels unchanged. For a plain file the
spec is read off the code *in the sandbox*, after the file passed validation: the class the loader found,
the kind the code is (``kind_of_code``), the turn budget and reward range the class declares, and the
hint its optional ``hint()`` method writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spade_envs.contract.episode import DEFAULT_MAX_TURNS, DEFAULT_REWARD_RANGE
from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.errors import EnvRuntimeError
from spade_envs.spec.models import EnvKind, EnvSpec, Provenance, env_id_for

DEFAULT_SKILL = "unspecified"
MAX_SPEC_HINT_CHARS = 4_000
"""A hint longer than this is not kept: the hint is shown to an agent, not read as a document."""


def kind_of_code(requested: EnvKind, *, tool_use: bool, solution: Any) -> EnvKind:
    """The kind an environment's code is: ``tool_use`` when its class subclasses ``ToolUseBaseEnv``, a
    single-answer puzzle when ``solution()`` returns one answer, and a multi-turn game when it returns a
    list of moves (a corpus-grounded one when a corpus-grounded environment was asked for: that it was
    written from a document is not visible in the code)."""
    if tool_use:
        return "tool_use"
    if isinstance(solution, (list, tuple)):
        return "corpus_grounded" if requested == "corpus_grounded" else "multi_turn_game"
    return "single_answer"


@dataclass(frozen=True)
class SpecDefaults:
    """What a spec read off a plain file cannot learn from the code."""

    skill: str = DEFAULT_SKILL
    description: str = ""
    seed: int = 0
    """The seed whose episode ``solution()`` and ``hint()`` are read on."""


def spec_of_code(backend: ExecutionBackend, source: str, class_name: str | None = None,
                 defaults: SpecDefaults = SpecDefaults()) -> EnvSpec:
    """The spec of ``source`` as the sandbox finds it; raises ``EnvRuntimeError`` when it cannot run.

    Everything read from the environment (its class name, its declared numbers, its hint) is checked
    before it goes into the spec: the spec model refuses a class name or turn budget outside the
    contract, and a hint that is not a short string is dropped.
    """
    with backend.open_session(source, class_name=class_name) as session:
        loaded = session.loaded
        session.reset(defaults.seed)
        solution = session.solution()
        hint = session.hint()
    reward_range = loaded.reward_range or DEFAULT_REWARD_RANGE
    if not all(isinstance(v, (int, float)) and -1e9 < v < 1e9 for v in reward_range) or \
            reward_range[0] > reward_range[1]:
        reward_range = DEFAULT_REWARD_RANGE
    max_turns = loaded.max_turns if isinstance(loaded.max_turns, int) and 1 <= loaded.max_turns <= 1000 else DEFAULT_MAX_TURNS
    if not (isinstance(hint, str) and hint.strip() and len(hint) <= MAX_SPEC_HINT_CHARS):
        hint = None
    try:
        return EnvSpec(
            id=env_id_for(source), class_name=loaded.class_name,
            kind=kind_of_code("multi_turn_game", tool_use=loaded.tool_use, solution=solution),
            skill=defaults.skill, max_turns=max_turns,
            reward_range=(float(reward_range[0]), float(reward_range[1])), hint=hint,
            provenance=Provenance(author="human"), description=defaults.description,
        )
    except ValueError as error:  # pydantic's ValidationError: a class name outside the contract
        raise EnvRuntimeError(f"its spec cannot be written: {' '.join(str(error).split())[:200]}") from None
