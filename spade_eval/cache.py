"""The generation cache: what lets an interrupted run resume without asking the model again.

Every successful generation is appended to one JSON Lines file per benchmark as soon as it arrives, so
a run killed at any point loses at most the generations in flight. A key is the hash of everything that
determines the answer: the model's identity (its fingerprint changes when the weights do), the
benchmark, the item, the request (messages, tools, sampling) and the request's *occurrence* within the
item. The occurrence stands for the sample index: the k-th identical request of an item is sample k,
so 64 samples of one AIME problem are 64 keys, and a multi-turn episode replays its turns in order.

Failed generations are not stored: a resumed run retries them. A torn last line (the process died
mid-write) is skipped when the file is read.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO

from spade_train.policies.base import Generation, GenerationRequest


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

    Used from one event loop: writes happen on the loop's thread, one line per generation, flushed at
    once. ``directory=None`` keeps everything in memory (no resume).
    """

    def __init__(self, directory: Path | None, benchmark: str) -> None:
        self.path = directory / f"{benchmark}.jsonl" if directory is not None else None
        self._entries: dict[str, Generation] = {}
        self._handle: TextIO | None = None
        self.hits = 0
        self.misses = 0
        if self.path is not None and self.path.is_file():
            self._entries = _read_entries(self.path)

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
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = self.path.open("a", encoding="utf-8")
        record = {
            "key": key,
            "text": generation.text,
            "finish_reason": generation.finish_reason,
            "latency_s": round(generation.latency_s, 4),
        }
        self._handle.write(json.dumps(record) + "\n")
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


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
