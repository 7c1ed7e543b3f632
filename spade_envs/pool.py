"""Export and import environment pools: ``environments.jsonl`` (the code) plus ``manifest.json``.

Pools move between the self-play loop, evaluation and other people's machines, so reading one checks
everything: the manifest against its schema, the JSONL file against the hash in the manifest, and each
environment's code against its own hash and its content id. Both files are written under temporary
names and renamed, the manifest last, so an interrupted export never leaves a manifest that describes
code that is not there.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from spade_envs.errors import SpadeError
from spade_envs.fileio import write_atomically
from spade_envs.spec.models import EnvSpec, PoolEntry, PoolManifest, env_id_for

MANIFEST_NAME = "manifest.json"
JSONL_NAME = "environments.jsonl"
POOL_REF_SEPARATOR = "#"
"""``DIR#ID`` names one environment of a pool: how reports and logs label pool entries."""
MAX_LISTED_IDS = 5


class PoolError(SpadeError):
    """A pool directory that cannot be read: the message says which file and what is wrong."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_pool_dir(path: Path) -> bool:
    return (path / MANIFEST_NAME).is_file() and (path / JSONL_NAME).is_file()


def write_pool(
    directory: Path,
    name: str,
    environments: list[tuple[EnvSpec, str]],
    *,
    validated: bool = False,
    stats: dict[str, dict[str, float]] | None = None,
) -> PoolManifest:
    """Write environments (spec, source) to ``directory``; returns the manifest written.

    ``stats`` maps an environment id to numbers to record with it (win rates, regret).
    """
    lines, entries = [], []
    for spec, source in environments:
        if spec.id != env_id_for(source):
            raise PoolError(f"spec {spec.id} does not match its code (content id {env_id_for(source)})")
        lines.append(json.dumps({"id": spec.id, "code": source}, ensure_ascii=False))
        entries.append(PoolEntry(spec=spec, code_sha256=_sha256(source.encode("utf-8")), validated=validated,
                                 stats=(stats or {}).get(spec.id, {})))
    jsonl = ("\n".join(lines) + "\n").encode("utf-8") if lines else b""
    manifest = PoolManifest(name=name, created_at=datetime.now(timezone.utc), jsonl_sha256=_sha256(jsonl),
                            entries=entries)
    directory.mkdir(parents=True, exist_ok=True)
    write_atomically(directory / JSONL_NAME, jsonl)
    write_atomically(directory / MANIFEST_NAME, (manifest.model_dump_json(indent=2) + "\n").encode("utf-8"))
    return manifest


def read_pool(directory: Path) -> list[tuple[PoolEntry, str]]:
    """Read a pool and verify it completely; raises ``PoolError`` with a one-line reason."""
    manifest_path, jsonl_path = directory / MANIFEST_NAME, directory / JSONL_NAME
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
    try:
        data = jsonl_path.read_bytes()
    except FileNotFoundError:
        raise PoolError(f"{directory} has no {JSONL_NAME}; the export is incomplete") from None
    if _sha256(data) != manifest.jsonl_sha256:
        raise PoolError(f"{jsonl_path} does not match the hash in the manifest; it was modified or truncated")
    lines = data.decode("utf-8").splitlines()
    if len(lines) != len(manifest.entries):
        raise PoolError(f"{jsonl_path} has {len(lines)} lines but the manifest lists {len(manifest.entries)}")
    loaded = []
    for number, (entry, line) in enumerate(zip(manifest.entries, lines), start=1):
        try:
            record = json.loads(line)
            source = record["code"]
        except (ValueError, KeyError, TypeError):
            raise PoolError(f"{jsonl_path} line {number} is not a {{\"id\", \"code\"}} record") from None
        if record.get("id") != entry.spec.id or _sha256(source.encode("utf-8")) != entry.code_sha256:
            raise PoolError(f"{jsonl_path} line {number} does not match manifest entry {entry.spec.id}")
        if env_id_for(source) != entry.spec.id:
            raise PoolError(f"{jsonl_path} line {number}: the code's content id is not {entry.spec.id}")
        loaded.append((entry, source))
    return loaded


def split_pool_ref(reference: str | Path) -> tuple[Path, str | None]:
    """``DIR#ID`` -> (DIR, ID); a plain directory -> (DIR, None).

    The id part is only split off when the text before the last ``#`` is a pool directory, so a
    directory whose own name contains ``#`` still reads as a directory.
    """
    text = str(reference)
    head, separator, tail = text.rpartition(POOL_REF_SEPARATOR)
    if separator and head and is_pool_dir(Path(head)) and not is_pool_dir(Path(text)):
        return Path(head), tail
    return Path(text), None


def is_pool_ref(reference: str | Path) -> bool:
    """Whether ``reference`` is ``DIR#ID`` with DIR a pool directory (the ID may still be wrong)."""
    return split_pool_ref(reference)[1] is not None


def select_entries(loaded: list[tuple[PoolEntry, str]], env_id: str, where: Path) -> list[tuple[PoolEntry, str]]:
    """The entry whose id is ``env_id`` (or, when it is unambiguous, starts with it), as a one-item list."""
    exact = [item for item in loaded if item[0].spec.id == env_id]
    found = exact or [item for item in loaded if env_id and item[0].spec.id.startswith(env_id)]
    if len(found) == 1:
        return found
    ids = [entry.spec.id for entry, _ in (found or loaded)]
    shown = ", ".join(ids[:MAX_LISTED_IDS]) + (f" (+{len(ids) - MAX_LISTED_IDS} more)" if len(ids) > MAX_LISTED_IDS else "")
    if found:
        raise PoolError(f"{env_id!r} matches {len(found)} environments of {where}: {shown}; give more of the id")
    raise PoolError(f"{where} has no environment {env_id!r}; its ids: {shown or '(none)'}")


def read_pool_ref(reference: str | Path) -> list[tuple[PoolEntry, str]]:
    """The environments ``reference`` names: all of a pool directory, or the one of ``DIR#ID``.

    Verified like ``read_pool``; an id the pool does not hold is a ``PoolError`` listing the ids it has.
    """
    directory, env_id = split_pool_ref(reference)
    loaded = read_pool(directory)
    return loaded if env_id is None else select_entries(loaded, env_id, directory)
