"""LogAuditEnv: measure how much disk space an application's log files use (tool use, exploration).

A server's /srv/app folder contains nested subfolders with logs, configuration and data files. The
agent must report the total size in bytes of all files ending in '.log' anywhere under /srv/app. The
tools return intermediate data only: list_dir shows one folder level, and file sizes come from stat.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_FOLDERS = ["/srv/app", "/srv/app/web", "/srv/app/web/old", "/srv/app/worker", "/srv/app/db"]
_STEMS = ["access", "error", "debug", "audit", "sync", "cron", "queue", "backup"]
_OTHER = [".conf", ".json", ".db", ".gz", ".txt"]
_STR = {"type": "string"}


class LogAuditEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use: total size of .log files in a small directory tree."""

    def __init__(self, max_turns: int = 12, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        files: dict[str, int] = {}
        for folder in _FOLDERS:
            for stem in rng.sample(_STEMS, rng.randint(1, 3)):
                ext = ".log" if rng.random() < 0.5 else rng.choice(_OTHER)
                files[f"{folder}/{stem}{ext}"] = rng.randint(200, 250000)
        if not any(p.endswith(".log") for p in files):
            files[f"{rng.choice(_FOLDERS)}/main.log"] = rng.randint(200, 250000)
        self._state = {"files": files}
        self._expected_answer = sum(size for path, size in files.items() if path.endswith(".log"))
        self._tools = {
            "list_dir": {"description": "List the entries directly inside a folder (subfolders end with '/').",
                         "parameters": {"type": "object", "properties": {"path": _STR}, "required": ["path"]}},
            "stat": {"description": "Return the size in bytes of one or more files (paths separated by commas).",
                     "parameters": {"type": "object", "properties": {"paths": _STR}, "required": ["paths"]}},
        }
        text = ("Ops request: what is the total size in bytes of all files ending in .log anywhere under /srv/app "
                "(including subfolders)? Answer with a whole number, e.g. <answer>123456</answer>.")
        return text, {"root": "/srv/app"}

    def tool_list_dir(self, path: Any = None) -> str:
        if not isinstance(path, str) or not path.startswith("/"):
            raise ValueError("'path' must be an absolute folder path")
        folder = path.rstrip("/")
        entries = set()
        for file in self._state["files"]:
            if file.startswith(folder + "/"):
                rest = file[len(folder) + 1:]
                entries.add(rest.split("/")[0] + ("/" if "/" in rest else ""))
        for sub in _FOLDERS:
            if sub.startswith(folder + "/") and "/" not in sub[len(folder) + 1:]:
                entries.add(sub[len(folder) + 1:] + "/")
        if not entries:
            raise ValueError(f"{folder} does not exist or is empty")
        return "\n".join(sorted(entries))

    def tool_stat(self, paths: Any = None) -> str:
        if not isinstance(paths, str) or not paths.strip():
            raise ValueError("'paths' must be a comma-separated list of file paths")
        lines = []
        for raw in paths.split(",")[:20]:
            item = raw.strip()
            size = self._state["files"].get(item)
            lines.append(f"{item}: {size} bytes" if size is not None else f"{item}: no such file")
        return "\n".join(lines)

    def solution(self) -> list[Any]:
        logs = sorted(p for p in self._state["files"] if p.endswith(".log"))
        calls: list[Any] = [{"name": "list_dir", "arguments": {"path": f}} for f in _FOLDERS]
        calls.append({"name": "stat", "arguments": {"paths": ", ".join(logs)}})
        return calls + [str(self._expected_answer)]
