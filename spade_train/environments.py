"""One environment as a run carries it: a frozen (spec, code) record, and the one loader of "the bundled
library or a pool directory".

A design becomes an ``EnvironmentRecord`` once its code has passed the checker and been opened in the
sandbox (``spade_train.loop.design``). Its spec then says what the code is, not what was asked for: the
class the loader found, the kind the code really is (``kind_of_code``), the turn budget and reward range
the class declares, and, once written and accepted, the hint. The same record goes to the memory, the
exported pool, the OpenRLHF backend's shared state and its agent rows, so none of them re-derives or
guesses any of it. Environments that come from elsewhere (the SDK's bundled library, a pool another run
exported) are read into the same records by ``load_environments``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from spade_envs.packing import kind_of_code
from spade_envs.pool import read_pool_ref
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import EnvSpec, env_id_for

__all__ = ["BUNDLED", "EnvironmentRecord", "kind_of_code", "load_environments", "pool_entries"]

BUNDLED = "bundled"
"""The name ``load_environments`` reads as the SDK's bundled library (anything else is a pool directory)."""


@dataclass(frozen=True)
class EnvironmentRecord:
    """An environment's spec and code, which always belong together (the spec's id is the code's hash)."""

    spec: EnvSpec
    code: str
    name: str | None = field(default=None, compare=False)
    """The registry name of a bundled environment (``maze_walk``); None for any other. A label only: two
    records of the same spec and code are equal whatever their names."""

    def __post_init__(self) -> None:
        if self.spec.id != env_id_for(self.code):
            raise ValueError(f"spec {self.spec.id} does not match its code (content id {env_id_for(self.code)})")

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def label(self) -> str:
        """How logs and evaluation items name it: the bundled name, else the content id."""
        return self.name or self.spec.id

    def with_hint(self, hint: str | None) -> EnvironmentRecord:
        """The record with its spec's hint set (None: no accepted hint)."""
        return replace(self, spec=self.spec.model_copy(update={"hint": hint}))


def load_environments(source: str | Path, *, kinds: Collection[str] | None = None) -> list[EnvironmentRecord]:
    """The environments of ``source``: ``"bundled"`` (the SDK's library), an exported pool directory, or
    one environment of a pool as ``DIR#ID``, verified against its manifest (a ``spade_envs.pool.PoolError``
    names what is wrong). ``kinds`` keeps only environments of those kinds."""
    if str(source) == BUNDLED:
        records = [EnvironmentRecord(entry.spec(), entry.source(), name=entry.name) for entry in bundled_registry()]
    else:
        records = [EnvironmentRecord(entry.spec, code) for entry, code in read_pool_ref(source)]
    return [record for record in records if kinds is None or record.spec.kind in kinds]


def pool_entries(records: Sequence[EnvironmentRecord]) -> list[tuple[EnvSpec, str]]:
    """What ``spade_envs.pool.write_pool`` takes."""
    return [(record.spec, record.code) for record in records]
