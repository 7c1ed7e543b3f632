"""The check catalogue: every check of the validator with a real failing example and its real message.

The list of checks, their tiers, what they catch and their fixes come from
``spade_envs.checks.catalogue.CHECKS``. The examples are the defect zoo (``tests/zoo/``: one broken
environment per file, its first line naming the check that must reject it). Their messages are not
written by hand: the generator copies one example per check (``featured``) into a temporary folder and
runs the real ``spade-envs validate`` on it in the WebAssembly sandbox, exactly as a user would, then
quotes each file's block of output; the check's other zoo files are listed by name. A check without a zoo
example is a build error, so the catalogue cannot fall behind the code.

Validating the examples takes a minute or more on two cores, so the captured output is cached under
``.cache/docs/`` keyed on everything that can change it: the examples, every source file of
``spade_envs``, the command and the Python version.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from spade_docgen.layout import CODE_COLUMNS
from spade_docgen.markdown import code, fence, prose
from spade_envs.checks.catalogue import CHECKS, TIERS, CheckInfo

VALIDATE_ARGS: tuple[str, ...] = ("validate", ".", "--timeout", "2", "--plan-seed", "0")
"""How the zoo is validated: the CLI's defaults (WebAssembly sandbox, 3 seeds, 100 fuzz examples), except
a 2 s call limit instead of 10 s so that the infinite-loop example does not hold the build for 10 s, and
the plan seed of the test suite (0) so that the pages are the same at every build."""

_EXPECT = re.compile(r"#\s*(expect|expect-warning):\s*([a-z_]+)\s*$")
_PAD = re.compile(r"^#\s*zoo-pad-bytes:\s*(\d+)", re.MULTILINE)
_HEADER = re.compile(r"^(\[ *\d+/\d+\] )(?:ok  |FAIL) (\S+)(?:  |$)")
_FINDING = re.compile(r"^\s+(?:warning )?\[([a-z_]+)\]")
_DEFECT_MARK = re.compile(r"#\s*defect\b", re.IGNORECASE)


@dataclass(frozen=True)
class ZooCase:
    """One zoo file: the check it expects, whether that is a warning, and its source as validated."""

    name: str
    check: str
    warning: bool
    source: str
    padded: bool


@dataclass(frozen=True)
class Capture:
    """What ``spade-envs validate`` printed for one zoo file, and which checks its findings name."""

    output: str
    checks: tuple[str, ...]


def zoo_cases(zoo: Path) -> list[ZooCase]:
    """The zoo files that demonstrate a check (the ``# expect: valid`` ones are left out)."""
    cases = []
    for path in sorted(zoo.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        match = _EXPECT.fullmatch(text.split("\n", 1)[0].strip())
        if match is None:
            raise ValueError(f"{path}: the first line must be '# expect: <check>' or '# expect-warning: <check>'")
        tag, check = match.groups()
        if check == "valid":
            continue
        pad = _PAD.search(text)
        source = text if pad is None else _padded(text, int(pad.group(1)))
        cases.append(ZooCase(path.stem, check, tag == "expect-warning", source, pad is not None))
    return cases


def _padded(source: str, size: int) -> str:
    """The zoo's file-size example: generated data appended, as tests/test_defect_zoo.py does."""
    words = ", ".join(f'"w{i:07d}"' for i in range(size // 11 + 1))
    return f"{source}\n\n_WORD_LIST = [{words}]\n"


def _cache_key(root: Path, cases: list[ZooCase]) -> str:
    digest = hashlib.sha256()
    tools = [_version(name) for name in ("hypothesis", "wasmtime", "componentize-py", "pydantic")]
    digest.update(repr((VALIDATE_ARGS, sys.version, tools)).encode() + Path(__file__).read_bytes())
    for path in sorted((root / "spade_envs").rglob("*")):
        if path.is_file() and path.suffix in (".py", ".wit", ".json", ".txt"):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    for case in cases:
        digest.update(case.name.encode() + b"\0" + case.source.encode())
    return digest.hexdigest()[:24]


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def capture(root: Path, cases: list[ZooCase]) -> dict[str, Capture]:
    """Each case's block of real ``spade-envs validate`` output, from the cache when nothing changed."""
    cache = root / ".cache" / "docs" / f"zoo-{_cache_key(root, cases)}.json"
    if cache.is_file():
        return {name: Capture(item["output"], tuple(item["checks"]))
                for name, item in json.loads(cache.read_text(encoding="utf-8")).items()}
    captured = _run_validator(cases)
    cache.parent.mkdir(parents=True, exist_ok=True)
    partial = cache.with_suffix(".tmp")
    partial.write_text(json.dumps({name: asdict(c) for name, c in captured.items()}, indent=1), encoding="utf-8")
    partial.replace(cache)
    return captured


def _run_validator(cases: list[ZooCase]) -> dict[str, Capture]:
    with tempfile.TemporaryDirectory(prefix="spade-docs-zoo-") as folder:
        for case in cases:
            Path(folder, f"{case.name}.py").write_text(case.source, encoding="utf-8")
        # Fitted to a code block's width, as the page shows it (the validator wraps to COLUMNS off a terminal).
        result = subprocess.run([sys.executable, "-m", "spade_envs.cli", *VALIDATE_ARGS], cwd=folder,
                                capture_output=True, text=True, timeout=600, check=False,
                                env={**os.environ, "COLUMNS": str(CODE_COLUMNS)})
    if result.returncode not in (0, 1):
        raise RuntimeError(f"spade-envs validate failed on the zoo (exit {result.returncode}): "
                           f"{result.stderr.strip()[-2000:]}")
    return parse_report(result.stdout)


def parse_report(text: str) -> dict[str, Capture]:
    """Split the validator's text report into one block per file (header line plus its findings)."""
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    shift = 0
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:  # shown as if the file had been validated alone, as the page's command line says
            current = blocks.setdefault(Path(header.group(2)).stem, [])
            counter = header.group(1)
            shift = len(counter) - len("[1/1] ")  # the lines under it were indented past "[ 7/98] "
            line = "[1/1] " + line[len(counter):]
        elif not line.strip():
            current = None
            continue
        elif current is not None:
            line = line[min(shift, len(line) - len(line.lstrip(" "))):]
        if current is not None:
            current.append(line)
    return {name: Capture("\n".join(lines), tuple(m.group(1) for m in map(_FINDING.match, lines[1:]) if m))
            for name, lines in blocks.items()}


# ---------------------------------------------------------------------- rendering
def defect_excerpt(source: str, context: int = 3) -> tuple[int, str, list[int]] | None:
    """The lines that carry the defect (marked ``# defect`` in the zoo) with the code around them.

    A marker inside a short function shows the whole function; otherwise a few lines either side.
    Returns (first line number, text, the marked lines' numbers), or None when the file marks no line.
    """
    lines = source.split("\n")
    marks = [i + 1 for i, line in enumerate(lines) if _DEFECT_MARK.search(line) and i > 0]
    if not marks:
        return None
    try:
        functions = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    except SyntaxError:
        functions = []
    spans: list[tuple[int, int]] = []
    for mark in marks:
        enclosing = [f for f in functions if f.lineno <= mark <= (f.end_lineno or f.lineno)
                     and (f.end_lineno or f.lineno) - f.lineno < 25]
        if enclosing:
            inner = max(enclosing, key=lambda f: f.lineno)
            start = min([inner.lineno, *(d.lineno for d in getattr(inner, "decorator_list", []))])
            spans.append((start, inner.end_lineno or inner.lineno))
        else:
            spans.append((max(2, mark - context), min(len(lines), mark + context)))
    first, last = min(s for s, _ in spans), max(e for _, e in spans)
    if last - first > 40:  # markers far apart: keep the first one's span only
        first, last = spans[0]
    return first, "\n".join(lines[first - 1:last]), [m for m in marks if first <= m <= last]


def defect_story(source: str) -> str:
    """The module docstring's 'The defect: ...' paragraph, when the zoo file explains itself."""
    try:
        doc = ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        return ""
    for paragraph in doc.split("\n\n"):
        if paragraph.startswith("The defect"):
            return " ".join(paragraph.split())
    return ""


def featured(cases: list[ZooCase]) -> list[ZooCase]:
    """One example per check, the one whose output the page quotes: the first that marks its defect line and
    tells its story, else the first. The others are listed by name; quoting all ~150 zoo files would make
    every build validate them all (minutes on a clean checkout), for pages nobody reads past one example."""
    by_check: dict[str, list[ZooCase]] = {}
    for case in cases:
        by_check.setdefault(case.check, []).append(case)
    return [max(group, key=lambda case: (defect_excerpt(case.source) is not None, bool(defect_story(case.source))))
            for group in by_check.values()]


def render(root: Path, repository_url: str | None = None) -> str:
    """The catalogue as Markdown: one section per tier, one entry per check, its example under each."""
    cases = zoo_cases(root / "tests" / "zoo")
    shown = featured(cases)
    captured = capture(root, shown)
    by_check: dict[str, list[ZooCase]] = {}
    for case in shown + [case for case in cases if case not in shown]:
        by_check.setdefault(case.check, []).append(case)
    # The model judge's checks need a model to fire: their examples are the scripted judges of tests/test_judge.py.
    missing = [check.name for check in CHECKS if check.name not in by_check and not check.name.startswith("judge_")]
    if missing:
        raise ValueError(f"checks without a defect-zoo example in tests/zoo/: {', '.join(missing)}; add one "
                         "file per check whose first line is '# expect: <check>'")
    parts = [_summary_table()]
    for tier in TIERS:
        parts.append(f"## Tier: {tier}\n")
        for check in (c for c in CHECKS if c.stage == tier):
            parts.append(_render_check(check, by_check.get(check.name, []), captured))
    return "\n".join(parts)


def _summary_table() -> str:
    rows = [f"| [{code(c.name)}](#{c.name}) | {c.stage} | {prose(c.catches)} |" for c in CHECKS]
    return "| check | tier | catches |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n"


def _render_check(check: CheckInfo, cases: list[ZooCase], captured: dict[str, Capture]) -> str:
    severity = "warning (the environment is still valid)" if cases and all(c.warning for c in cases) else "error"
    parts = [f"### `{check.name}` {{#{check.name}}}\n",
             f"**Tier:** {check.stage} · **Severity:** {severity}\n",
             f"**Catches:** {prose(check.catches)}.\n",
             f"**Fix:** {prose(check.fix)}.\n"]
    if not cases:
        parts.append("Only with a model judge (`spade-envs validate --judge URL`, a heuristic; "
                     "`--judge-severity warning` makes its findings warnings). Its examples are the scripted "
                     "judges of `tests/test_judge.py`.\n")
    for case in cases[:1]:
        result = captured.get(f"{case.name}")
        if result is None:
            raise ValueError(f"the validator printed nothing for tests/zoo/{case.name}.py")
        if case.check not in result.checks:
            raise ValueError(f"tests/zoo/{case.name}.py should be caught by {case.check}, but the validator "
                             f"reported {list(result.checks) or 'nothing'}")
        parts.append(f"**Example:** `tests/zoo/{case.name}.py`" + (
            " (the file is padded with generated data before validation)" if case.padded else "") + "\n")
        story = defect_story(case.source)
        if story:
            parts.append(prose(story) + "\n")
        excerpt = defect_excerpt(case.source)
        if excerpt is not None:
            start, text, marked = excerpt
            highlighted = " ".join(str(line - start + 1) for line in marked)  # relative to the block
            parts.append(fence(text, "python", attributes=f'linenums="{start}" hl_lines="{highlighted}"'))
        parts.append(fence(f"$ spade-envs validate {case.name}.py\n{result.output}", "console"))
    if len(cases) > 1:
        parts.append("**More examples:** " + ", ".join(f"`tests/zoo/{case.name}.py`" for case in cases[1:]) + "\n")
    return "\n".join(parts)
