"""ACEBench's data files: where they are and how to read them.

ACEBench is not on any package registry. Its English data (``data_all/data_en`` in the ACEBench
repository, MIT) is expected under ``--data-dir``: as ``DIR/acebench/data_en`` (the layout of the shared
data folder), or ``DIR`` may be that folder itself. Files are JSON Lines although they end in ``.json``:
``data_<category>.json`` holds the entries and ``possible_answer/data_<category>.json`` the answers, in
the same order with the same ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spade_eval.benchmark import BenchmarkDataError
from spade_eval.suites.common import read_jsonl

SOURCE = "https://github.com/chenchen0103/ACEBench (data_all/data_en)"
_LAYOUTS = (("acebench", "data_en"), ("data_en",), ())


def data_root(data_dir: Path | None) -> Path:
    """The folder holding ``data_<category>.json``; ``BenchmarkDataError`` naming the fix otherwise."""
    if data_dir is None:
        raise BenchmarkDataError(
            f"ACEBench's data is not bundled: download {SOURCE} and pass --data-dir DIR with the files in "
            "DIR/acebench/data_en"
        )
    for layout in _LAYOUTS:
        candidate = Path(data_dir).joinpath(*layout)
        if (candidate / "possible_answer").is_dir() and any(candidate.glob("data_*.json")):
            return candidate
    raise BenchmarkDataError(
        f"no ACEBench data under {data_dir}: expected {Path(data_dir) / 'acebench' / 'data_en'} holding "
        f"data_<category>.json and possible_answer/ (from {SOURCE})"
    )


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """The entries of one ACEBench file (JSON Lines, though named ``.json``), each with an id."""
    if not path.is_file():
        raise BenchmarkDataError(f"missing ACEBench file {path} (from {SOURCE})")
    rows = read_jsonl(path, "ACEBench")
    for number, row in enumerate(rows, start=1):
        if "id" not in row:
            raise BenchmarkDataError(f"{path}: entry {number} is not an ACEBench entry (no id)")
    return rows


def load_category(data_dir: Path | None, category: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each entry of ``category`` with its answer, in file order."""
    root = data_root(data_dir)
    entries = _read_lines(root / f"data_{category}.json")
    answers = _read_lines(root / "possible_answer" / f"data_{category}.json")
    if [entry["id"] for entry in entries] != [answer["id"] for answer in answers]:
        raise BenchmarkDataError(
            f"ACEBench {category}: entries and answers do not have the same ids in order "
            f"under {root}; re-download the data"
        )
    return list(zip(entries, answers))
