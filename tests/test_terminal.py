"""What people see in a terminal: colour only on a terminal and never with NO_COLOR, lines that fit its
width, wrapping with a hanging indent, rates only when they mean something, and ``play`` at a real
terminal (a pseudo-terminal: readline editing and history, the seed, :quit, Ctrl-C)."""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spade_envs.cli import main
from spade_envs.terminal import Screen, rate, styled, table_lines, wants_colour, width_of, wrap
from tests.children import spinners
from tests.conftest import COUNTER_ENV, REPO_ROOT

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture
def counter(tmp_path: Path) -> Path:
    path = tmp_path / "counter_env.py"
    path.write_text(COUNTER_ENV)
    return path


@pytest.fixture
def invalid(tmp_path: Path) -> Path:
    path = tmp_path / "bad_env.py"
    path.write_text(COUNTER_ENV.replace("import re", "import re\nimport os"))
    return path


# ---------------------------------------------------------------------- a pseudo-terminal
_WITH_CONTROLLING_TERMINAL = (
    "import fcntl, os, signal, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.executable, sys.argv[1:])")
"""Run in the child's new session: the pseudo-terminal on stdin becomes its controlling terminal (so
Ctrl-C typed there is SIGINT, as at a person's terminal), SIGINT gets its default action back, then the
command replaces it. A shell starting a foreground job does the same; without it the command inherits
whatever the test run had: a suite started in the background by a non-interactive shell (``make test &``,
as a CI runner may) ignores SIGINT, Python then installs no KeyboardInterrupt handler, and Ctrl-C is lost."""


class Terminal:
    """A command on a pseudo-terminal of ``columns`` columns: what a person's terminal shows it."""

    def __init__(self, argv: list[str], *, columns: int = 100, env: dict[str, str] | None = None) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        environment = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")}
        environment.update({"PYTHONPATH": str(REPO_ROOT), "TERM": "xterm-256color", **(env or {})})
        command = [sys.executable, "-c", _WITH_CONTROLLING_TERMINAL, sys.executable, "-m", "spade_envs.cli", *argv]
        self.process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=environment,
                                        cwd=REPO_ROOT, start_new_session=True)
        os.close(slave)
        self.seen = b""

    def read_until(self, text: str, count: int = 1, timeout: float = 60.0) -> str:
        """Read what the command shows until ``text`` has appeared ``count`` times in all."""
        deadline = time.monotonic() + timeout
        while self.seen.count(text.encode()) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared; the terminal shows:\n{self.text}")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.master, 65536)
                except OSError:  # the command ended and closed the terminal
                    if self.process.poll() is not None:
                        raise AssertionError(f"{text!r} never appeared:\n{self.text}") from None
        return self.text

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self, timeout: float = 60.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None or select.select([self.master], [], [], 0)[0]:
            if time.monotonic() > deadline:
                self.process.kill()
                raise AssertionError(f"the command did not end:\n{self.text}")
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        os.close(self.master)
        return self.process.wait(timeout=10)

    @property
    def text(self) -> str:
        return self.seen.decode(errors="replace")

    @property
    def lines(self) -> list[str]:
        """What is on the screen, line by line, without colour codes."""
        return ANSI.sub("", self.text).replace("\r\n", "\n").split("\n")


# ---------------------------------------------------------------------- colour
def test_colour_needs_a_terminal_and_no_NO_COLOR() -> None:
    master, slave = os.openpty()
    with open(slave, "w", closefd=True) as tty:
        assert wants_colour(tty, {}) and wants_colour(tty, {"NO_COLOR": ""})  # empty: not set (no-color.org)
        assert not wants_colour(tty, {"NO_COLOR": "1"})
    os.close(master)
    assert not wants_colour(io.StringIO(), {}) and not wants_colour(io.StringIO(), {"FORCE_COLOR": "1"})


def test_validate_is_coloured_on_a_terminal_only(counter: Path, invalid: Path) -> None:
    argv = ["validate", str(counter), str(invalid), "--examples", "0", "--seeds", "1"]
    terminal = Terminal(argv)
    assert terminal.finish() == 1
    assert "\x1b[" in terminal.text and "FAIL" in terminal.text
    assert re.search(r"\x1b\[[0-9;]*31m\s*FAIL", terminal.text) or re.search(r"\x1b\[1;31mFAIL", terminal.text)

    no_colour = Terminal(argv, env={"NO_COLOR": "1"})
    assert no_colour.finish() == 1
    assert "\x1b[" not in no_colour.text and "FAIL" in no_colour.text

    piped = subprocess.run([sys.executable, "-m", "spade_envs.cli", *argv], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "FORCE_COLOR": "1"}, timeout=300,
                           check=False)
    assert piped.returncode == 1 and "FAIL" in piped.stdout
    assert "\x1b" not in piped.stdout + piped.stderr  # a pipe never gets escape codes, whatever FORCE_COLOR says


def test_error_lines_are_coloured_on_a_terminal_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "no-such-environment"]) == 2
    assert capsys.readouterr().err == ("spade-envs: error: no such file, pool or bundled environment: "
                                       "no-such-environment (see spade-envs list; name one environment of a "
                                       "pool as DIR#ID)\n")
    terminal = Terminal(["play", "no-such-environment"])
    assert terminal.finish() == 2
    assert "\x1b[1;31mspade-envs: error:\x1b[0m no such file" in terminal.text


# ---------------------------------------------------------------------- width
@pytest.mark.parametrize("columns", [40, 60, 100, 160])
def test_list_fits_the_terminal_in_aligned_columns(columns: int) -> None:
    terminal = Terminal(["list"], columns=columns)
    assert terminal.finish() == 0
    lines = [line for line in terminal.lines if line]
    assert max(len(line) for line in lines) <= columns
    names = [line for line in lines if line.startswith(("maze_walk", "archive_quest"))]
    assert len(names) == 2
    if columns >= 100:  # the kind column starts at one place on every row
        assert len({line.index("multi_turn_game") for line in lines if "multi_turn_game" in line}) == 1


def test_piped_output_fits_COLUMNS_or_the_default(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "64")
    assert main(["list"]) == 0
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 64
    monkeypatch.delenv("COLUMNS")
    assert width_of(io.StringIO()) == 100


def test_findings_wrap_with_a_hanging_indent(invalid: Path) -> None:
    terminal = Terminal(["validate", str(invalid), "--examples", "0", "--seeds", "1"], columns=60)
    assert terminal.finish() == 1
    lines = [line for line in terminal.lines if line.strip()]
    assert max(len(line) for line in lines) <= 60
    start = next(index for index, line in enumerate(lines) if "[imports]" in line)
    assert lines[start].startswith("      [imports] line 3:")  # under the file's line
    assert lines[start + 1].startswith("          ") and lines[start + 1].strip()  # continues further in
    summary = next(line for line in lines if "valid," in line)
    assert "environments/s" not in summary  # one file: no rate


def test_wrap_keeps_a_figure_with_its_unit() -> None:
    text = styled(("0 valid", "ok"), ", 1 invalid (wasm backend, 2 worker(s), 12.91 s, 4.2 environments/s)")
    for width in range(26, 80):  # from the narrowest a line holds "4.2 environments/s)" in after the indent
        lines = [line.plain for line in wrap(text, width, indent=2, hang=4)]
        joined = " ".join(line.strip() for line in lines)
        assert "12.91 s" in joined and "4.2 environments/s" in joined and "2 worker(s)" in joined
        assert all(len(line) <= width for line in lines)
        assert all(line.startswith("      ") for line in lines[1:])


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("ab 1.s/-"), max_size=300), st.integers(10, 120), st.integers(0, 8),
       st.integers(0, 6))
def test_wrap_never_exceeds_the_width_and_loses_no_word(text: str, width: int, indent: int, hang: int) -> None:
    lines = [line.plain for line in wrap(styled(text), width, indent=indent, hang=hang)]
    assert all(len(line) <= max(width, indent + hang + 1) for line in lines)
    assert "".join("".join(line.split()) for line in lines) == "".join(text.split())


def test_table_lines_align_and_fall_back_below_the_minimum() -> None:
    rows = [["a", "kind", "a long description that has to wrap somewhere"], ["bbbbbb", "k", "short"]]
    wide = [line.plain for line in table_lines(("name", "kind", "what"), rows, 40)]
    assert wide[0].startswith("name    kind  what") and all(len(line) <= 40 for line in wide)
    assert wide[2].startswith(" " * 14)  # the description continues under itself
    narrow = [line.plain for line in table_lines(("name", "kind", "what"), rows, 30)]
    assert narrow[1].startswith("    what") or narrow[1].startswith("    ")  # below the other cells, indented


def test_rates_only_when_they_mean_something() -> None:
    assert rate(1, 0.004, "environments") is None  # one file in 4 ms is not 250 files a second
    assert rate(2, 10.0, "environments") is None
    assert rate(3, 0.5, "environments") is None
    assert rate(30, 10.0, "environments") == "3.0 environments/s"


def test_screen_writes_no_escape_codes_without_colour() -> None:
    stream = io.StringIO()
    Screen(stream, colour=False, width=50).wrapped(styled(("FAIL", "fail"), " [x] what [bold]looks[/] like markup"))
    assert stream.getvalue() == "FAIL [x] what [bold]looks[/] like markup\n"  # markup is shown, not read


# ---------------------------------------------------------------------- play
def test_play_shows_the_seed_and_quit_reveals_the_solution(counter: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(counter.parent)
    out = io.StringIO()
    code = main(["play", counter.name, "--seed", "4", "--sandbox", "inprocess"], out=out,
                stdin=io.StringIO("12\n:quit\n"))
    text = out.getvalue()
    target = re.search(r"It is (\d+) plus (\d+)", text)
    answer = int(target.group(1)) + int(target.group(2))
    header = " ".join(line.strip() for line in text.split("\n\n")[0].splitlines())
    assert code == 0 and header.startswith("playing counter_env.py (CounterEnv), seed 4;")
    assert "Stopped (:quit) after 1 actions" in text
    assert f"The solution (1 action(s)):\n  > \\boxed{{{answer}}}\n" in text


def test_play_at_a_terminal_edits_recalls_and_interrupts(counter: Path, tmp_path: Path) -> None:
    log = tmp_path / "episode.json"
    terminal = Terminal(["play", str(counter), "--seed", "4", "--sandbox", "inprocess", "--log", str(log)])
    terminal.read_until("action> ")
    assert "seed 4" in terminal.text
    terminal.type("13\x1b[D5\r")  # type 13, left arrow, 5: readline edits the line to 153
    terminal.read_until("wrong")
    terminal.read_until("action> ", count=2)
    terminal.type("\x1b[A\r")  # up arrow recalls 153
    terminal.read_until("wrong", count=2)
    terminal.read_until("action> ", count=3)
    terminal.type(":quit\r")
    terminal.read_until("The solution")
    assert terminal.finish() == 0
    episode = json.loads(log.read_text())
    assert episode["actions"] == ["\\boxed{153}", "\\boxed{153}"] and episode["seed"] == 4
    assert "^[[A" not in terminal.text  # the arrow key moved through history, it was not printed

    interrupted = Terminal(["play", str(counter), "--sandbox", "inprocess"])
    interrupted.read_until("action> ")
    interrupted.type("12")
    interrupted.read_until("action> 12")  # readline has the half-typed move
    interrupted.type("\x03")  # Ctrl-C
    assert interrupted.finish() == 130
    message = next(line for line in interrupted.lines if "interrupted" in line)
    assert message.strip() == "spade-envs: interrupted"  # on a line of its own, not after the prompt


def test_ctrl_c_is_never_held_back_on_a_busy_machine(counter: Path) -> None:
    """CPython's readline sees a signal only when its ``select()`` is interrupted: a Ctrl-C that lands
    while readline echoes a key waited for Enter. On a loaded machine (four processes spinning here) that
    window is wide, and a Ctrl-C typed right after the echo was lost in about a third of the tries before
    ``play.signals_reach_readline``; every one of these tries must now end the command at once."""
    with spinners(4):  # they end with this test, or with its process if that is killed (tests/children.py)
        for attempt in range(12):
            terminal = Terminal(["play", str(counter), "--sandbox", "inprocess"])
            terminal.read_until("action> ")
            terminal.type("12")
            terminal.read_until("action> 12")
            terminal.type("\x03")
            assert terminal.finish(timeout=15) == 130, f"try {attempt}: Ctrl-C did not end the command"
