"""The generation cache: what lets an interrupted run resume without asking the model again.

Every successful generation is appended to one JSON Lines file per benchmark as soon as it arrives, so
a run killed at any point loses at most the generations in flight. A key is the hash of everything that
determines the answer: the model's identity (its fingerprint changes when the weights do), the
benchmark, the item, the request (messages, tools, sampling) and the request's *occurrence* within the
item. The occurrence stands for the sample index: the k-th identical request of an item is sample k,
so 64 samples of one AIME problem are 64 keys, and a multi-turn episode replays its turns in order.

Failed generations are not stored: a resumed run retries them. Each entry goes to the file in one
``write`` call on an unbuffered append-mode file, so a kill almost always lands before or after it (a
buffered writer would split an entry longer than its buffer, as a long reasoning trace is, into several).
A torn last line can still come from a kill inside a long write, a full disk or a power cut: it is skipped when the file is read, and
the next run starts its first entry on a line of its own (appended straight after the torn half, that
entry would be unreadable too, and asked again on every later resume). A cache that cannot be written
(a full disk, a read-only run directory) is a one-line ``CacheError``, not a traceback.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from spade_envs.errors import SpadeError
from spade_train.policies.base import Generation, GenerationRequest


class CacheError(SpadeError):
    """The generation cache cannot be written; the run stops (what is cached so far stays usable)."""

    exit_code = 1


def request_key(
    model_fingerprint: str, benchmark: str, item_id: str, request: GenerationRequest, occurrence: int
) -> str:
    """The cache key of one generation (hex sha256)."""
    material = {
        "model": model_fingerprint,
        "benchmark": benchmark,
        "item": item_id,
        "messages": request.messages,
        "tools": request.tools,
        "sampling": asdict(request.sampling),
        "occurrence": occurrence,
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True, default=str).encode()).hexdigest()


class GenerationCache:
    """Cached generations of one benchmark, backed by ``directory/<benchmark>.jsonl``.

    Used from one event loop: writes happen on the loop's thread, one line per generation, written at
    once. ``directory=None`` keeps everything in memory (no resume).
    """

    def __init__(self, directory: Path | None, benchmark: str) -> None:
        self.path = directory / f"{benchmark}.jsonl" if directory is not None else None
        self._entries: dict[str, Generation] = {}
        self._handle: io.FileIO | None = None
        self.hits = 0
        self.misses = 0
        if self.path is not None and self.path.is_file():
            try:
                self._entries = _read_entries(self.path)
            except OSError as error:
                raise CacheError(
                    f"cannot read the generation cache {self.path}: {error.strerror or error}; "
                    "make it readable, or delete it to ask the model again"
                ) from None

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> Generation | None:
        found = self._entries.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: str, generation: Generation) -> None:
        if not generation.ok:
            return
        self._entries[key] = generation
        if self.path is None:
            return
        record = {
            "key": key,
            "text": generation.text,
            "finish_reason": generation.finish_reason,
            "latency_s": round(generation.latency_s, 4),
        }
        line = (json.dumps(record) + "\n").encode("utf-8")
        try:
            if self._handle is None:
                self._handle = _open_for_append(self.path)
            if self._handle.write(line) != len(line):  # only a full disk writes part of a regular file
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        except OSError as error:
            raise CacheError(
                f"cannot write the generation cache {self.path}: {error.strerror or error}; "
                "fix that (free space, permissions) and rerun the same command to resume"
            ) from None

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _open_for_append(path: Path) -> io.FileIO:
    """Open the cache unbuffered for appending, on a fresh line when the last run died inside one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = io.FileIO(path, "a+")
    try:
        if handle.tell() > 0:  # append mode starts at the end
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                handle.write(b"\n")
    except BaseException:
        handle.close()
        raise
    return handle


def _read_entries(path: Path) -> dict[str, Generation]:
    entries: dict[str, Generation] = {}
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record: Any = json.loads(line)
                entries[str(record["key"])] = Generation(
                    text=str(record["text"]),
                    finish_reason=str(record.get("finish_reason", "stop")),
                    latency_s=float(record.get("latency_s", 0.0)),
                )
            except (ValueError, KeyError, TypeError):
                continue  # a torn or foreign line: that generation is simply asked again
    return entries
