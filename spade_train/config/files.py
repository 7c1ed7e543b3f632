"""Reading a run configuration: a TOML or JSON file, then ``--set key=value`` overrides, validated once.

Both commands read configurations the same way: ``spade-train run --config FILE --set run.iterations=3``
and ``spade-train generate-pool --config FILE --set policies.designer=http://host:8000/v1``. An override
names a key by its dotted path and gives its value in TOML syntax (``3``, ``true``, ``["tool_use"]``,
``{designer = 0.1}``); a value that is not TOML is taken as a string, so ``--set loop.corpus=demo``
needs no quotes. The result is validated as a whole after every override is applied, because the
settings of one section may constrain another's (the OpenRLHF backend needs a model path, the signal
language writes games only). Every problem is a ``ConfigError`` whose message is one line naming the
key.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from spade_envs.errors import SpadeError
from spade_train.config.sections import RunConfig

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TRAIN_SCHEMA_MODELS: dict[str, type[BaseModel]] = {"run_config": RunConfig}
"""The models whose JSON Schemas ``spade-train schema`` writes to ``schemas/``."""


class ConfigError(SpadeError):
    """A configuration that cannot be used; the message is one line naming the key and the problem."""


def load_run_config(path: Path, overrides: Sequence[str] = ()) -> RunConfig:
    """Read a TOML (``.toml``) or JSON file, apply ``overrides`` (``key=value``) and validate the result."""
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read config {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"config {path} is not UTF-8 text (byte {error.object[error.start]:#04x} at offset "
                          f"{error.start}); give a TOML or JSON run configuration (see configs/)") from None
    try:
        raw: Any = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path} is not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {error}") from None
    if not _sets_anything(raw):
        raise ConfigError(f"config {path} sets nothing (it is empty or holds only comments and empty tables); a run "
                          "never starts on defaults by accident: start from a file in configs/ (configs/embedded.toml "
                          "for the embedded default)")
    source = str(path) if not overrides else f"{path} with --set {' '.join(overrides)}"
    return parse_run_config(with_overrides(raw, overrides), source=source)


def _sets_anything(raw: Any) -> bool:
    """Whether configuration data sets at least one key (tables within tables do not count)."""
    if not isinstance(raw, dict):
        return True  # not a table at all: ``with_overrides`` says so
    return any(_sets_anything(value) if isinstance(value, dict) else True for value in raw.values())


INT64 = 2**63
"""Whole numbers in a configuration must fit a signed 64-bit integer: torch, SQLite and the sandbox take
nothing larger, and a larger one would fail mid-run, far from the key that set it."""


def _check_numbers(raw: Any, source: str, key: str = "") -> None:
    """``ConfigError`` naming the first whole number that does not fit 64 bits."""
    if isinstance(raw, dict):
        for name, value in raw.items():
            _check_numbers(value, source, f"{key}.{name}" if key else str(name))
    elif isinstance(raw, list):
        for value in raw:
            _check_numbers(value, source, key)
    elif isinstance(raw, int) and not isinstance(raw, bool) and not -INT64 <= raw < INT64:
        raise ConfigError(f"{source}: {key}: {raw} is out of range (whole numbers in a configuration are at most "
                          f"{INT64 - 1})")


def parse_run_config(raw: Any, *, source: str = "config") -> RunConfig:
    """Validate configuration data (as read from a file, or ``RunConfig.model_dump``).

    Strictly, as JSON: every value must already have its key's type (``run.iterations = "3"`` is an error,
    not the number 3; a whole number is accepted where a fraction may go), so a mistyped value is
    never read as something its writer did not mean."""
    _check_numbers(raw, source)
    try:
        return RunConfig.model_validate_json(json.dumps(raw, default=str), strict=True)
    except ValidationError as error:
        first = error.errors()[0]
        where = "".join(f"{part}: " for part in [".".join(str(p) for p in first["loc"])] if part)
        message = first["msg"].removeprefix("Value error, ")
        if first["type"].endswith("_type") and "input" in first:
            message += f", not {type(first['input']).__name__} {first['input']!r}"
        raise ConfigError(f"{source}: {where}{message} ({error.error_count()} problem(s) in all)") from None


def override_config(config: RunConfig, overrides: Sequence[str], *, source: str = "config") -> RunConfig:
    """``config`` with ``overrides`` applied, validated again as a whole."""
    if not overrides:
        return config
    raw = json.loads(config.model_dump_json())
    return parse_run_config(with_overrides(raw, overrides), source=f"{source} with --set {' '.join(overrides)}")


def with_overrides(raw: Any, overrides: Sequence[str]) -> dict[str, Any]:
    """Configuration data with each ``dotted.key=value`` of ``overrides`` set (not validated)."""
    if not isinstance(raw, dict):
        raise ConfigError("a configuration is a table of sections ([run], [loop], ...)")
    data = json.loads(json.dumps(raw, default=str))  # a deep copy the overrides may change
    for assignment in overrides:
        key, equals, text = assignment.partition("=")
        path = [part.strip() for part in key.split(".")]
        if not equals or not all(path):
            raise ConfigError(f"--set {assignment!r}: write KEY=VALUE with a dotted key, e.g. run.iterations=3")
        table = data
        for depth, part in enumerate(path[:-1]):
            table = table.setdefault(part, {})
            if not isinstance(table, dict):
                raise ConfigError(f"--set {assignment!r}: {'.'.join(path[:depth + 1])} is a value, not a table")
        table[path[-1]] = _toml_value(text.strip())
    return data


def _toml_value(text: str) -> Any:
    """The value ``text`` spells in TOML, or the text itself when it is not TOML (a bare word, a URL)."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text
