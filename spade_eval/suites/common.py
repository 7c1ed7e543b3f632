"""Pieces several reasoning benchmarks share: sampling k answers, reading \\boxed{}, finding data files."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError, Generate
from spade_train.policies.base import Generation, GenerationRequest, Message, SamplingParams


async def sample(
    generate: Generate, messages: list[Message], sampling: SamplingParams, samples: int
) -> list[Generation]:
    """``samples`` independent answers to one prompt, asked concurrently.

    With a seed in ``sampling``, sample k uses seed + k, so samples differ and a rerun reproduces them.
    """

    def params(k: int) -> SamplingParams:
        return sampling if sampling.seed is None else replace(sampling, seed=sampling.seed + k)

    return list(
        await asyncio.gather(
            *(generate(GenerationRequest(messages=messages, sampling=params(k))) for k in range(samples))
        )
    )


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` (or ``\\fbox{...}``), braces balanced; None if absent."""
    start = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
    if start < 0:
        return None
    brace = text.find("{", start)
    if brace < 0:
        return None
    depth = 0
    for index in range(brace, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return text[brace + 1 : index]
    return None


def require_data_dir(data_dir: Path | None, benchmark: str) -> Path:
    if data_dir is None:
        raise BenchmarkDataError(
            f"{benchmark} reads local data: pass --data-dir DIR (see the README's data layout)"
        )
    return Path(data_dir)


def data_file(data_dir: Path | None, relative: str, benchmark: str, how_to_get: str) -> Path:
    """``data_dir/relative``, or ``BenchmarkDataError`` naming the path and how to obtain the file."""
    path = require_data_dir(data_dir, benchmark) / relative
    if not path.is_file():
        raise BenchmarkDataError(f"{benchmark}: {path} is missing; {how_to_get}")
    return path


def read_jsonl(path: Path, benchmark: str) -> list[dict[str, Any]]:
    """Rows of a JSON Lines file (``.gz`` too); a malformed line is a ``BenchmarkDataError`` naming it."""
    import gzip

    rows = []
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as error:
                    raise BenchmarkDataError(
                        f"{benchmark}: {path} line {number} is not JSON ({error.msg})"
                    ) from None
                if not isinstance(row, dict):
                    raise BenchmarkDataError(f"{benchmark}: {path} line {number} is not a JSON object")
                rows.append(row)
    except (OSError, UnicodeDecodeError) as error:
        raise BenchmarkDataError(f"{benchmark}: cannot read {path}: {error}") from None
    return rows


def first_line(text: str, limit: int = 200) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
