"""Shell Hunt: find the deploy passphrase on a small Unix-like server (skill: Information Seeking).

The player is logged into a toy file system through a handful of shell commands. The passphrase that
unlocks the deploy is in the notes of whoever is on call this week: /etc/motd names the current
week, /ops/rota.txt maps weeks to people, and every person keeps notes with a passphrase line (only
the on-call person's is current). /root holds the server's own copy but is not readable. One wrong
submission ends the game, so following the clues beats guessing among the notes.
"""

from __future__ import annotations

import random
import re
from typing import Any

_PEOPLE = ("alice", "bruno", "chen", "dana", "emeka", "farah", "gus", "hana", "ivan", "joy")
_WORDS = ("amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
          "kestrel", "lagoon", "meadow", "nimbus", "onyx", "pepper", "quartz", "raven", "saffron", "tundra")
_BOX = re.compile(r"\\boxed\{([^{}]*)\}")


def _normalise(cwd: str, path: str) -> str:
    """Absolute form of `path` seen from `cwd`, with '.' and '..' resolved."""
    parts = [] if path.startswith("/") else [p for p in cwd.split("/") if p]
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
        else:
            parts.append(part)
    return "/" + "/".join(parts)


class ShellHuntEnv:
    """Explore the files with shell commands and submit the current deploy passphrase."""

    reward_range = (0.0, 1.0)

    def __init__(self, max_turns: int = 8, **kwargs: Any) -> None:
        self.max_turns = max(1, int(max_turns))
        self._files: dict[str, str] = {}
        self._passphrase = ""
        self._user = ""
        self._cwd = "/"
        self._turn = 0
        self._terminated = False
        self._truncated = False
        self.reset()

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        """Write the rota, the motd, everyone's notes and the root copy of the passphrase."""
        rng = random.Random(seed)
        people = rng.sample(_PEOPLE, 5)
        self._user = people[0]
        staff = people[1:]
        words = rng.sample(_WORDS, len(staff))
        rota = list(staff)
        rng.shuffle(rota)
        week = rng.randint(1, 4)
        on_call = rota[week - 1]
        self._passphrase = words[staff.index(on_call)]
        files = {
            "/etc/motd": f"Welcome to build-{rng.randint(10, 99)}. This is week {week} of the release cycle.",
            "/etc/hostname": "build-server",
            "/ops/README": ("The deploy passphrase lives in the notes of whoever is on call this week.\n"
                            "The rota is /ops/rota.txt; the current week is announced in /etc/motd."),
            "/ops/rota.txt": "\n".join(f"week {i + 1}: {name}" for i, name in enumerate(rota)),
            "/root/vault.key": f"deploy passphrase = {self._passphrase}",
            f"/home/{self._user}/todo.txt": "- find the deploy passphrase\n- submit it before the window closes",
        }
        for name, word in zip(staff, words):
            files[f"/home/{name}/notes.txt"] = (f"notes of {name}\npassphrase: {word}\n"
                                                f"remember to water the office plant on week {rng.randint(1, 4)}")
        self._files = files
        self._cwd = f"/home/{self._user}"
        self._turn, self._terminated, self._truncated = 0, False, False
        intro = (
            f"Shell Hunt. You are logged in as {self._user} on a build server. Find the current deploy "
            "passphrase and submit it. Start with /ops/README.\n"
            "Commands (one per turn, inside \\boxed{}): ls [DIR], cd DIR, cat FILE, pwd, "
            "grep WORD (search the files you can read), help, submit PASSPHRASE.\n"
            "Example: \\boxed{cat /ops/README}. Only one submission is allowed.\n"
            f"You have {self.max_turns} turns. Current directory: {self._cwd}"
        )
        return intro, self._info()

    def _info(self) -> dict:
        return {"turn": self._turn, "max_turns": self.max_turns, "cwd": self._cwd}

    def _readable(self, path: str) -> bool:
        return not (path == "/root" or path.startswith("/root/"))

    def _is_dir(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return path == "/" or any(f.startswith(prefix) for f in self._files)

    def _listing(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        names = set()
        for f in self._files:
            if f.startswith(prefix):
                rest = f[len(prefix):]
                names.add(rest.split("/")[0] + ("/" if "/" in rest else ""))
        return sorted(names)

    def _run(self, command: str) -> tuple[str, float]:
        verb, _, arg = command.partition(" ")
        arg = arg.strip()
        if verb == "help":
            return ("ls [DIR] lists a directory, cd DIR changes directory, cat FILE prints a file, pwd prints "
                    "the current directory, grep WORD prints matching lines of readable files, submit "
                    "PASSPHRASE ends the game."), 0.0
        if verb == "pwd":
            return self._cwd, 0.0
        if verb in ("ls", "cd", "cat"):
            path = _normalise(self._cwd, arg or (self._cwd if verb == "ls" else "/"))
            if not self._readable(path):
                return f"{verb}: {path}: Permission denied", 0.0
            if verb == "cat":
                if path in self._files:
                    return self._files[path], 0.0
                return f"cat: {path}: {'Is a directory' if self._is_dir(path) else 'No such file'}", 0.0
            if not self._is_dir(path):
                return f"{verb}: {path}: No such directory", 0.0
            if verb == "cd":
                self._cwd = path
                return f"Now in {path}", 0.0
            return "  ".join(self._listing(path)) or "(empty)", 0.0
        if verb == "grep":
            if not arg:
                return "grep: give a word to search for, e.g. grep week", 0.0
            hits = []
            for path in sorted(self._files):
                if not self._readable(self._cwd):
                    continue
                hits += [f"{path}: {line}" for line in self._files[path].splitlines() if arg.lower() in line.lower()]
            return "\n".join(hits[:20]) or f"grep: no readable line contains '{arg[:30]}'", 0.0
        if verb == "submit":
            self._terminated = True
            if arg.lower() == self._passphrase:
                return "Passphrase accepted: the deploy is unlocked!", 1.0
            return "Wrong passphrase: the deploy stays locked and your session is closed.", 0.0
        return f"Unknown command '{verb[:20]}'. Type \\boxed{{help}} for the list of commands.", 0.0

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        """Run one command; the right passphrase wins, a wrong one ends the game."""
        if self._terminated or self._truncated:
            return "The session is closed; call reset() to start again.", 0.0, self._terminated, self._truncated, self._info()
        self._turn += 1
        boxes = [b for b in _BOX.findall(action) if b.strip()] if isinstance(action, str) else []
        command = " ".join(boxes[-1].split()) if boxes else ""
        if not command:
            obs, reward = "Invalid move. Put one shell command inside \\boxed{}, e.g. \\boxed{ls /ops}.", 0.0
        else:
            verb, _, arg = command.partition(" ")
            obs, reward = self._run(verb.lower() + (" " + arg if arg else ""))
        if self._terminated:
            return obs, reward, True, False, self._info()
        if self._turn >= self.max_turns:
            self._truncated = True
            obs += "\nOut of turns: the deploy window has closed."
        else:
            obs += f"\n[{self._cwd}] turns left: {self.max_turns - self._turn}"
        return obs, 0.0, False, self._truncated, self._info()

    def solution(self) -> list[str]:
        """Read the motd and the rota, read the on-call person's notes, submit."""
        week = int(re.search(r"week ([0-9])", self._files["/etc/motd"]).group(1))
        on_call = self._files["/ops/rota.txt"].splitlines()[week - 1].split(": ")[1]
        return ["\\boxed{cat /etc/motd}", "\\boxed{cat /ops/rota.txt}",
                f"\\boxed{{cat /home/{on_call}/notes.txt}}", f"\\boxed{{submit {self._passphrase}}}"]

    def close(self) -> None:
        """Nothing to release."""
