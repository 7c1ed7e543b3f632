"""WorkspaceCleanupEnv: tidy a project folder with file tools (tool use, state modification).

The project workspace has accumulated temporary files. The agent must move every file ending in
'.tmp' from anywhere under /project into /trash (keeping the file name), leave all other files where
they are, and then reply <answer>done</answer>. Tools: list_dir, move_file and file_info.

ToolUseBaseEnv is not imported: the SPADE loader injects it into this module's namespace.
"""

from __future__ import annotations

import random
from typing import Any

_DIRS = ["/project", "/project/src", "/project/docs", "/project/build", "/project/data"]
_STEMS = ["main", "utils", "notes", "draft", "report", "cache", "session", "index", "render", "export"]
_EXTS = [".py", ".md", ".csv", ".json", ".txt"]
_STR = {"type": "string"}


class WorkspaceCleanupEnv(ToolUseBaseEnv):  # noqa: F821 -- injected by the loader
    """Tool-use: move all temporary files into the trash folder."""

    def __init__(self, max_turns: int = 16, **kwargs: Any) -> None:
        super().__init__(max_turns=max_turns, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict[str, Any]]:
        rng = random.Random(seed)
        files: dict[str, int] = {}
        for directory in _DIRS:
            for stem in rng.sample(_STEMS, rng.randint(1, 3)):
                files[f"{directory}/{stem}{rng.choice(_EXTS)}"] = rng.randint(100, 90000)
        tmp_count = rng.randint(2, 5)
        numbers = rng.sample(range(1, 100), tmp_count)
        for directory, number in zip(rng.sample(_DIRS, tmp_count), numbers):
            files[f"{directory}/{rng.choice(_STEMS)}-{number}.tmp"] = rng.randint(10, 5000)
        self._state = {"files": files}
        self._tools = {
            "list_dir": {"description": "List the files and subfolders directly inside a folder.",
                         "parameters": {"type": "object", "properties": {"path": _STR}, "required": ["path"]}},
            "move_file": {"description": "Move a file to another folder (the name is kept).",
                          "parameters": {"type": "object", "properties": {"path": _STR, "destination": _STR},
                                         "required": ["path", "destination"]}},
            "file_info": {"description": "Show a file's size in bytes.",
                          "parameters": {"type": "object", "properties": {"path": _STR}, "required": ["path"]}},
        }
        self._expected_answer = "done"
        text = ("Please clean up the workspace: move every file whose name ends in .tmp, anywhere under /project, "
                "into /trash. Do not move anything else. Reply <answer>done</answer> when the cleanup is complete.")
        return text, {"folders": len(_DIRS)}

    def _pending(self) -> list[str]:
        return sorted(p for p in self._state["files"] if p.endswith(".tmp") and not p.startswith("/trash/"))

    def check_answer(self, answer: str) -> bool:
        return answer.strip().lower() == "done" or not self._pending()

    @staticmethod
    def _path(value: Any, name: str = "path") -> str:
        if not isinstance(value, str) or not value.startswith("/"):
            raise ValueError(f"'{name}' must be an absolute path such as /project/src")
        return value.rstrip("/") or "/"

    def tool_list_dir(self, path: Any = None) -> str:
        folder = self._path(path)
        entries: set[str] = set()
        for file in self._state["files"]:
            if file.startswith(folder + "/"):
                rest = file[len(folder) + 1:]
                entries.add(rest.split("/")[0] + ("/" if "/" in rest else ""))
        if not entries:
            return f"{folder} is empty or does not exist."
        return "\n".join(sorted(entries))

    def tool_move_file(self, path: Any = None, destination: Any = None) -> str:
        source, target = self._path(path), self._path(destination, "destination")
        if source not in self._state["files"]:
            raise ValueError(f"no file {source}")
        if target not in ("/trash",) and not any(d == target for d in _DIRS):
            raise ValueError(f"no folder {target}")
        new_path = f"{target}/{source.rsplit('/', 1)[1]}"
        if new_path in self._state["files"]:
            raise ValueError(f"{new_path} already exists")
        self._state["files"][new_path] = self._state["files"].pop(source)
        return f"Moved {source} -> {new_path}"

    def tool_file_info(self, path: Any = None) -> str:
        file = self._path(path)
        if file not in self._state["files"]:
            raise ValueError(f"no file {file}")
        return f"{file}: {self._state['files'][file]} bytes"

    def solution(self) -> list[Any]:
        calls = [{"name": "move_file", "arguments": {"path": p, "destination": "/trash"}} for p in self._pending()]
        return calls + ["done"]
