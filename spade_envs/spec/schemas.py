"""Generate the JSON Schemas in ``schemas/`` from the pydantic models, and detect stale copies."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from spade_envs.fileio import write_atomically
from spade_envs.spec.models import EnvSpec, EpisodeLog, PoolManifest, ValidationReport

SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "env_spec": EnvSpec,
    "validation_report": ValidationReport,
    "episode_log": EpisodeLog,
    "pool_manifest": PoolManifest,
}


def render_schemas(models: dict[str, type[BaseModel]] | None = None) -> dict[str, str]:
    """File name -> schema text, exactly as committed (sorted keys, trailing newline).

    ``models`` defaults to the SDK's spec models; other packages pass their own (``spade-train
    schema`` writes the run configuration's) and share this one rendering.
    """
    rendered = {}
    for name, model in (models or SCHEMA_MODELS).items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"https://spade-toolkit.dev/schemas/{name}.schema.json"
        rendered[f"{name}.schema.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
    return rendered


def write_schemas(directory: Path, models: dict[str, type[BaseModel]] | None = None) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, text in render_schemas(models).items():
        path = directory / file_name
        write_atomically(path, text)
        written.append(path)
    return written


def stale_schemas(directory: Path, models: dict[str, type[BaseModel]] | None = None) -> list[str]:
    """Names of schema files in ``directory`` that are missing or differ from the models."""
    stale = []
    for file_name, text in render_schemas(models).items():
        path = directory / file_name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(file_name)
    return stale
