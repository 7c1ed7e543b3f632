"""Typed records: environment spec, validation report, episode log, pool manifest."""

from spade_envs.spec.models import (
    CheckFailure,
    CheckOutcome,
    EnvKind,
    EnvSpec,
    EpisodeLog,
    GroundingRef,
    PoolEntry,
    PoolManifest,
    Provenance,
    TierOutcome,
    ValidationReport,
    env_id_for,
)

__all__ = [
    "CheckFailure",
    "CheckOutcome",
    "EnvKind",
    "EnvSpec",
    "EpisodeLog",
    "GroundingRef",
    "PoolEntry",
    "PoolManifest",
    "Provenance",
    "TierOutcome",
    "ValidationReport",
    "env_id_for",
]
