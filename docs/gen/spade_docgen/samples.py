"""Every code sample of the documentation runs as a test; this module finds, runs and refreshes them.

A sample is a fenced code block in a sample language (Python, shell, console, TOML). Each one is marked
by an HTML comment on the line before its fence, which the rendered page does not show:

* ``<!-- sample: file NAME -->``: the block's text is written to the file NAME;
* ``<!-- sample: run -->``: Python runs in a fresh interpreter, shell (``bash``) runs with ``bash -e``;
  both must exit 0. In a ``console`` block every ``$ command`` runs and what follows it, up to the next
  ``$``, is the expected output: stdout and stderr together, compared line by line after trailing spaces
  are dropped. ``...`` inside a line matches any text; a line that is only ``...`` matches any number of
  lines;
* ``<!-- sample: skip REASON -->``: not runnable here (it needs a GPU, a model server, or hours); the
  reason is required and the tests count these.

A block in a sample language without a marker is an error, so no sample goes untested by accident.

The samples of one page run in order in one empty temporary folder, as a reader following the page
would, with the project's ``.venv/bin`` first on ``PATH``. The folder also links the repository's
``configs``, ``schemas`` and ``tests`` folders, so commands that name them behave as they do from the
root of a fresh clone.

``python docs/gen/update_samples.py PAGE...`` reruns a page's samples and rewrites the expected output of
its console blocks from the real output, with timings replaced by ``...``: outputs are never typed by
hand.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spade_docgen.layout import CODE_COLUMNS

SAMPLE_LANGUAGES = frozenset({"python", "py", "bash", "sh", "shell", "console", "toml"})
LINKED_FOLDERS = ("configs", "schemas", "tests")
COMMAND_TIMEOUT_S = 300

_MARKER = re.compile(r"^[ \t]*<!--\s*sample:\s*(?P<kind>\w+)\s*(?P<argument>.*?)\s*-->\s*$")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<language>[\w+-]*)(?P<attributes>.*)$")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_VOLATILE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(static|contract|feasibility|fuzz):\d+\.\d+s\b"), r"\1:...s"),
    (re.compile(r"\b\d+\.\d+ s, \d+\.\d+ environments/s"), "... s, ... environments/s"),
    (re.compile(r"\b\d+\.\d+ s\)"), "... s)"),  # the validator's time, without a rate for a few files
    (re.compile(r"\b\d+ worker\(s\)"), "... worker(s)"),  # one per core, at most one per file
    (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"), "..."),
)


class SampleError(Exception):
    """A page whose samples are malformed (an unmarked block, an unknown marker, an empty reason)."""


@dataclass(frozen=True)
class Sample:
    page: Path
    line: int
    """1-based line of the opening fence."""
    kind: str
    argument: str
    language: str
    body: str
    indent: str
    body_lines: tuple[int, int]
    """0-based [start, end) of the body's lines in the page."""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


@dataclass
class Outcome:
    """What running one sample gave; ``failure`` is None when it passed."""

    sample: Sample
    failure: str | None = None
    outputs: list[str] = field(default_factory=list)
    """Console blocks: the real output of each command, for --update."""


# ---------------------------------------------------------------------- parsing
def parse_page(page: Path) -> list[Sample]:
    lines = page.read_text(encoding="utf-8").split("\n")
    samples: list[Sample] = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, indent = opening.group("fence"), opening.group("indent")
        end = index + 1
        while end < len(lines) and not (lines[end].strip().startswith(fence[0] * len(fence))
                                        and set(lines[end].strip()) == {fence[0]}):
            end += 1
        language = opening.group("language").lower()
        marker = _marker_before(lines, index)
        if marker is not None or language in SAMPLE_LANGUAGES:
            samples.append(_sample(page, lines, index, end, marker, language, indent))
        index = end + 1
    return samples


def _marker_before(lines: list[str], fence_index: int) -> re.Match[str] | None:
    previous = fence_index - 1
    while previous >= 0 and not lines[previous].strip():
        previous -= 1
    return _MARKER.match(lines[previous]) if previous >= 0 else None


def _sample(page: Path, lines: list[str], start: int, end: int, marker: re.Match[str] | None, language: str,
            indent: str) -> Sample:
    where = f"{page}:{start + 1}"
    if marker is None:
        raise SampleError(f"{where}: a {language} block without a marker; put <!-- sample: run -->, "
                          "<!-- sample: file NAME --> or <!-- sample: skip REASON --> on the line before it")
    kind, argument = marker.group("kind"), marker.group("argument")
    if kind not in ("file", "run", "skip"):
        raise SampleError(f"{where}: unknown sample marker {kind!r}; use run, file NAME or skip REASON")
    if kind in ("file", "skip") and not argument:
        raise SampleError(f"{where}: 'sample: {kind}' needs " + ("a file name" if kind == "file" else "a reason"))
    if kind == "run" and language not in ("python", "py", "bash", "sh", "shell", "console"):
        raise SampleError(f"{where}: cannot run a {language or 'plain'} block; mark it file NAME or skip REASON")
    body = "\n".join(line[len(indent):] if line.startswith(indent) else line.lstrip()
                     for line in lines[start + 1:end])
    return Sample(page, start + 1, kind, argument, language, body, indent, (start + 1, end))


def parse_console(body: str) -> list[tuple[str, str]]:
    """``[(command, expected output)]`` of a console block (``\\`` continues a command line)."""
    pairs: list[tuple[str, list[str]]] = []
    lines = body.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("$ "):
            command = [line[2:]]
            while command[-1].endswith("\\") and index + 1 < len(lines):
                index += 1
                command.append(lines[index])
            pairs.append(("\n".join(command), []))
        elif pairs:
            pairs[-1][1].append(line)
        elif line.strip():
            raise SampleError(f"console output before the first '$ ' command: {line!r}")
        index += 1
    return [(command, "\n".join(output)) for command, output in pairs]


# ---------------------------------------------------------------------- comparing
def clean_output(text: str) -> str:
    """Output as a terminal would leave it: colours dropped, progress-bar rewrites collapsed."""
    lines = [_ANSI.sub("", line).split("\r")[-1].rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


def expected_pattern(expected: str) -> re.Pattern[str]:
    pieces = []
    for line in clean_output(expected).split("\n"):
        if line.strip() == "...":
            pieces.append(r"(?:[^\n]*\n)*?")
        else:
            pieces.append("[^\n]*?".join(re.escape(part) for part in line.split("...")) + "\n")
    return re.compile("".join(pieces))


def output_matches(expected: str, actual: str) -> bool:
    if not clean_output(expected):
        return not clean_output(actual)
    return expected_pattern(expected).fullmatch(clean_output(actual) + "\n") is not None


def volatile_to_ellipsis(text: str) -> str:
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


# ---------------------------------------------------------------------- running
def environment(bin_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # The tools fit their output to COLUMNS when it is not a terminal (argparse, progress bars, the
    # validator's wrapped findings): the width of a code block, so output shows as printed, unwrapped.
    env["COLUMNS"] = str(CODE_COLUMNS)
    env.pop("VIRTUAL_ENV", None)
    return env


def run_page(samples: list[Sample], repo_root: Path, bin_dir: Path,
             on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run one page's samples in order in a fresh folder; returns one outcome per sample."""
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="spade-docs-samples-") as folder:
        work = Path(folder)
        for name in LINKED_FOLDERS:
            if (repo_root / name).is_dir():
                (work / name).symlink_to(repo_root / name, target_is_directory=True)
        env = environment(bin_dir)
        python = bin_dir / "python"
        for sample in samples:
            outcome = _run_sample(sample, work, env, python)
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    return outcomes


def _run_sample(sample: Sample, work: Path, env: dict[str, str], python: Path) -> Outcome:
    outcome = Outcome(sample)
    if sample.kind == "skip":
        return outcome
    if sample.kind == "file":
        target = work / sample.argument
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sample.body + "\n", encoding="utf-8")
        return outcome
    if sample.language == "console":
        for command, expected in parse_console(sample.body):
            actual = _execute(["bash", "-c", command], work, env)
            outcome.outputs.append(actual)
            if outcome.failure is None and not output_matches(expected, actual):
                outcome.failure = (f"{sample.where}: `{command}` printed\n{clean_output(actual)}\n"
                                   f"--- but the page expects ---\n{clean_output(expected)}")
        return outcome
    program = [str(python), "-"] if sample.language in ("python", "py") else ["bash", "-e", "-s"]
    result = subprocess.run(program, input=sample.body, cwd=work, env=env, capture_output=True, text=True,
                            timeout=COMMAND_TIMEOUT_S, check=False)
    if result.returncode != 0:
        outcome.failure = (f"{sample.where}: the {sample.language} sample exited with {result.returncode}\n"
                           f"{(result.stdout + result.stderr).strip()[-3000:]}")
    return outcome


def _execute(command: list[str], work: Path, env: dict[str, str]) -> str:
    try:
        result = subprocess.run(command, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=COMMAND_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return f"<timed out after {COMMAND_TIMEOUT_S} s>"
    return result.stdout


# ---------------------------------------------------------------------- refreshing outputs
def refreshed_page(page: Path, outcomes: list[Outcome]) -> str:
    """The page's text with every console block's expected output replaced by what really ran."""
    lines = page.read_text(encoding="utf-8").split("\n")
    for outcome in sorted(outcomes, key=lambda o: o.sample.line, reverse=True):
        sample = outcome.sample
        if sample.kind != "run" or sample.language != "console":
            continue
        commands = parse_console(sample.body)
        if len(outcome.outputs) != len(commands):
            raise SampleError(f"{sample.where}: a command failed to run; fix it before refreshing")
        body: list[str] = []
        for (command, expected), actual in zip(commands, outcome.outputs):
            first, *rest = command.split("\n")
            body += [f"$ {first}", *rest]
            # Output that still matches is kept as written, with any wildcards placed by hand.
            text = clean_output(expected) if output_matches(expected, actual) else volatile_to_ellipsis(
                clean_output(actual))
            body += text.split("\n") if text else []
        start, end = sample.body_lines
        lines[start:end] = [f"{sample.indent}{line}" if line else line for line in body]
    return "\n".join(lines)
