"""A registry of named environments, in the style of Reasoning Gym's ``register_*``/``create_*``.

A registry maps a short name (``mastermind``) to the environment's code and its metadata. The SDK's
bundled library is one registry (``bundled_registry()``); projects build their own the same way.
Registries are plain objects, never module-level state, so two callers cannot step on each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spade_envs.runtime.backend import ExecutionBackend
from spade_envs.runtime.session import EnvSession
from spade_envs.spec.models import EnvKind, EnvSpec, Provenance, env_id_for


@dataclass(frozen=True)
class EnvEntry:
    """One registered environment: where its code lives and what it is."""

    name: str
    path: Path
    class_name: str
    kind: EnvKind
    skill: str
    max_turns: int
    description: str
    reward_range: tuple[float, float] = (0.0, 1.0)

    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def spec(self) -> EnvSpec:
        return EnvSpec(
            id=env_id_for(self.source()),
            class_name=self.class_name,
            kind=self.kind,
            skill=self.skill,
            max_turns=self.max_turns,
            reward_range=self.reward_range,
            provenance=Provenance(author="human"),
            description=self.description,
        )


class EnvRegistry:
    """Named environments; ``register_env`` to add, ``create_env`` to open a live session."""

    def __init__(self, entries: tuple[EnvEntry, ...] = ()) -> None:
        self._entries: dict[str, EnvEntry] = {}
        for entry in entries:
            self.register_env(entry)

    def register_env(self, entry: EnvEntry) -> None:
        if entry.name in self._entries:
            raise ValueError(f"an environment named {entry.name!r} is already registered")
        self._entries[entry.name] = entry

    def get(self, name: str) -> EnvEntry:
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError(f"no environment named {name!r}; known: {', '.join(self.names())}") from None

    def names(self) -> list[str]:
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[EnvEntry]:
        return iter(self._entries[name] for name in self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def create_env(self, name: str, backend: ExecutionBackend, **init_kwargs: Any) -> EnvSession:
        """Open a session on a registered environment with the given backend."""
        entry = self.get(name)
        return backend.open_session(entry.source(), class_name=entry.class_name, init_kwargs=init_kwargs)


def bundled_registry() -> EnvRegistry:
    """A fresh registry holding the environments bundled with the SDK."""
    from spade_envs.library import BUNDLED_ENVS

    return EnvRegistry(BUNDLED_ENVS)
