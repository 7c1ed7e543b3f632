"""Export and import environment pools: a ``manifest.json`` plus one ``.py`` file per environment.

Pools move between the self-play loop, evaluation and other people's machines, so reading one checks
everything: the manifest against its schema and each code file against the hash recorded for it.
Writing is atomic per file and the manifest goes last, so an interrupted export leaves no manifest
pointing at missing code.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from spade_envs.spec.models import EnvSpec, PoolEntry, PoolManifest, env_id_for

MANIFEST_NAME = "manifest.json"


class PoolError(Exception):
    """A pool directory that cannot be read: the message says which file and what is wrong."""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_pool(
    directory: Path, name: str, environments: list[tuple[EnvSpec, str]], *, validated: bool = False
) -> PoolManifest:
    """Write environments (spec, source) to ``directory``; returns the manifest written."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = []
    for spec, source in environments:
        if spec.id != env_id_for(source):
            raise PoolError(f"spec {spec.id} does not match its code (hash {env_id_for(source)})")
        code_path = f"envs/{spec.id}.py"
        (directory / "envs").mkdir(exist_ok=True)
        _write_atomically(directory / code_path, source)
        entries.append(PoolEntry(spec=spec, code_path=code_path, code_sha256=_sha256(source), validated=validated))
    manifest = PoolManifest(name=name, created_at=datetime.now(timezone.utc), entries=entries)
    _write_atomically(directory / MANIFEST_NAME, manifest.model_dump_json(indent=2) + "\n")
    return manifest


def read_pool(directory: Path) -> list[tuple[PoolEntry, str]]:
    """Read a pool and verify every code file against the manifest."""
    manifest_path = directory / MANIFEST_NAME
    try:
        manifest = PoolManifest.model_validate(json.loads(manifest_path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise PoolError(f"{directory} has no {MANIFEST_NAME}; is it an exported pool?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise PoolError(f"{manifest_path} is not valid JSON: {error}") from None
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise PoolError(f"{manifest_path}: {where}: {first['msg']}") from None
    loaded = []
    for entry in manifest.entries:
        path = (directory / entry.code_path).resolve()
        if directory.resolve() not in path.parents:
            raise PoolError(f"{manifest_path}: code path {entry.code_path} points outside the pool")
        try:
            source = path.read_text(encoding="utf-8")
        except OSError:
            raise PoolError(f"{manifest_path}: code file {entry.code_path} is missing") from None
        if _sha256(source) != entry.code_sha256:
            raise PoolError(f"{entry.code_path} does not match the hash in the manifest; it was modified")
        loaded.append((entry, source))
    return loaded
