"""Words that stay true: every file or folder of the project that the README, the docs, the configurations,
the Makefile or a docstring names by its path exists.

Modules move (the embedded backend moved from ``spade_train.embedded`` to ``spade_train.backends``); a
sentence naming the old place is then wrong without anything failing. This test reads the paths, not the sentences, so it
catches the move and nothing else.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = ("spade_envs", "spade_train", "spade_eval", "benchmarks", "configs", "docs", "schemas", "tests")
NAMED = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP) + r")/[\w./-]*[\w/])")
FILE_ENDINGS = (".py", ".md", ".toml", ".json", ".jsonl", ".yml", ".yaml", ".txt", ".css", ".js", "/")
OUTPUTS = ("benchmarks/results/",)
"""Files that scripts write when they run (a benchmark's results) are named before they exist."""


def _texts() -> list[Path]:
    """The project's own texts: hidden folders (a benchmark's .venv, caches) and __pycache__ are not walked."""
    sources = [ROOT / "README.md", ROOT / "Makefile", ROOT / "mkdocs.yml"]
    for top in TOP:
        for folder, subfolders, files in os.walk(ROOT / top):
            subfolders[:] = [name for name in subfolders if not name.startswith(".") and name != "__pycache__"]
            sources += [Path(folder) / name for name in files if Path(name).suffix in {".py", ".md", ".toml", ".yml"}]
    return [p for p in sources if p.is_file()]


def test_every_project_path_named_in_words_exists():
    missing = []
    for source in _texts():
        for match in NAMED.finditer(source.read_text(encoding="utf-8", errors="replace")):
            named = match.group(1).rstrip(".")
            if not named.endswith(FILE_ENDINGS) or named.startswith(OUTPUTS):
                continue  # a prefix (tests/test_openrlhf_*), a module path without its suffix, an output
            if not (ROOT / named).exists():
                missing.append(f"{source.relative_to(ROOT)} names {named}")
    assert missing == []
