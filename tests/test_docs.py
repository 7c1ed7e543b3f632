"""The documentation site: it builds in strict mode, its generated reference is complete, and every code
sample on every page runs.

Samples are marked in the pages (``<!-- sample: run | file NAME | skip REASON -->``, see
``docs/gen/spade_docgen/samples.py``); each page's samples run in order in a fresh folder with this
virtual environment's commands, as a reader following the page from a fresh clone would.
"""

from __future__ import annotations

import argparse
import html
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GEN = DOCS / "gen"
BIN = Path(sys.executable).parent

pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
pytest.importorskip("material", reason="the docs extra is not installed: pip install -e '.[docs]'")


def _load_docgen() -> ModuleType:
    """Import docs/gen/spade_docgen as a package without putting docs/gen on sys.path for everyone."""
    if "spade_docgen" in sys.modules:
        return sys.modules["spade_docgen"]
    spec = importlib.util.spec_from_file_location("spade_docgen", GEN / "spade_docgen" / "__init__.py",
                                                  submodule_search_locations=[str(GEN / "spade_docgen")])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["spade_docgen"] = package
    spec.loader.exec_module(package)
    return package


_load_docgen()
from spade_docgen import cli_reference, directives, layout, samples

PAGES = sorted(p for p in DOCS.rglob("*.md") if GEN not in p.parents)


def _has_runnable_samples(page: Path) -> bool:
    try:
        return any(sample.kind != "skip" for sample in samples.parse_page(page))
    except samples.SampleError:
        return True  # collected anyway, so that its test reports the malformed sample


RUNNABLE_PAGES = [p for p in PAGES if _has_runnable_samples(p)]


def _page_id(page: Path) -> str:
    return page.relative_to(DOCS).as_posix()


# ---------------------------------------------------------------------- the samples
def test_every_sample_is_marked_and_counted(capsys: pytest.CaptureFixture[str]) -> None:
    counts: dict[str, int] = {"run": 0, "file": 0, "skip": 0}
    skipped = []
    for page in PAGES:
        for sample in samples.parse_page(page):  # raises on an unmarked or malformed sample
            counts[sample.kind] += 1
            if sample.kind == "skip":
                skipped.append(f"{_page_id(page)}:{sample.line}: {sample.argument}")
    with capsys.disabled():
        print(f"\ndocs samples: {counts['run']} run, {counts['file']} files written, "
              f"{counts['skip']} not runnable here:\n  " + "\n  ".join(skipped))
    assert counts["run"] >= 30, counts
    assert counts["skip"] <= counts["run"] // 2, "most samples must run; a skip needs a reason it cannot"
    tutorial = samples.parse_page(DOCS / "tutorial" / "first-environment.md")
    assert [s.kind for s in tutorial].count("skip") == 1, "every tutorial step after installing must run"


@pytest.mark.parametrize("page", RUNNABLE_PAGES, ids=_page_id)
def test_page_samples_run(page: Path) -> None:
    outcomes = samples.run_page(samples.parse_page(page), ROOT, BIN)
    failures = [o.failure for o in outcomes if o.failure]
    assert not failures, "\n\n".join(failures)


def test_diffs_show_the_change_between_the_files_around_them() -> None:
    """A ```diff block shows the edit from the file sample before it to the one after it."""
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").split("\n")
        files = {s.line: s for s in samples.parse_page(page) if s.kind == "file"}
        for number, line in enumerate(lines, start=1):
            if line.strip() != "```diff":
                continue
            end = lines.index("```", number)
            body = lines[number:end]
            before = max((n for n in files if n < number), default=None)
            after = min((n for n in files if n > number), default=None)
            assert before and after, f"{_page_id(page)}:{number}: a diff needs a file sample before and after it"
            old, new = files[before].body.split("\n"), files[after].body.split("\n")
            assert files[before].argument == files[after].argument
            for row in body:
                if row.startswith("-"):
                    assert row[1:] in old, f"{_page_id(page)}:{number}: {row!r} is not in the file before"
                elif row.startswith("+"):
                    assert row[1:] in new, f"{_page_id(page)}:{number}: {row!r} is not in the file after"


def test_console_output_matching() -> None:
    expected = "[1/1] ok   lock.py  (34 checks passed; fuzz:...s)\n...\n1 valid"
    assert samples.output_matches(expected, "[1/1] ok   lock.py  (34 checks passed; fuzz:0.73s)\n\n1 valid\n")
    assert samples.output_matches(expected, "[1/1] ok   lock.py  (34 checks passed; fuzz:1s)\n1 valid")
    assert not samples.output_matches(expected, "[1/1] FAIL lock.py  (34 checks passed; fuzz:1s)\n1 valid")
    assert not samples.output_matches("a\nb", "a\nb\nc")
    assert samples.output_matches("", "\n")
    assert samples.clean_output("bar  10%\rbar 100%\x1b[0m  \n") == "bar 100%"
    assert samples.parse_console("$ a \\\n  --b\nout\n$ c") == [("a \\\n  --b", "out"), ("c", "")]


def test_refreshing_keeps_matching_output_and_rewrites_the_rest(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- sample: run -->\n```console\n$ echo 1 2.50s\n... 2...s\n$ echo new\nold\n```\n",
                    encoding="utf-8")
    outcomes = samples.run_page(samples.parse_page(page), tmp_path, BIN)
    assert outcomes[0].failure and "old" in outcomes[0].failure
    assert samples.refreshed_page(page, outcomes) == (
        "<!-- sample: run -->\n```console\n$ echo 1 2.50s\n... 2...s\n$ echo new\nnew\n```\n")


def test_unmarked_samples_are_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```python\nprint(1)\n```\n", encoding="utf-8")
    with pytest.raises(samples.SampleError, match="without a marker"):
        samples.parse_page(page)
    page.write_text("<!-- sample: skip -->\n```bash\nls\n```\n", encoding="utf-8")
    with pytest.raises(samples.SampleError, match="needs a reason"):
        samples.parse_page(page)


# ---------------------------------------------------------------------- the site
def test_site_builds_strict_and_its_reference_is_complete(tmp_path: Path) -> None:
    """One build (the catalogue validates one zoo example per check): every check below reads its output."""
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                            cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True,
                            text=True, timeout=600, check=False)
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{log[-5000:]}"
    assert "WARNING" not in log, log
    _check_pages_and_no_network(tmp_path)
    _check_layout(tmp_path)
    _check_code_fits(tmp_path)
    _check_no_raw_tags(tmp_path)
    _check_cli_reference(tmp_path)
    _check_catalogue(tmp_path)
    _check_configuration(tmp_path)
    _check_schemas(tmp_path)


def _text(site: Path, page: str) -> str:
    """A built page's visible text (tags dropped, entities decoded)."""
    raw = (site / f"{page}.html").read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def _check_pages_and_no_network(site: Path) -> None:
    for page in PAGES:
        built = site / page.relative_to(DOCS).with_suffix(".html")
        assert built.is_file(), f"{_page_id(page)} was not built"
    for built in site.rglob("*.html"):
        text = built.read_text(encoding="utf-8")
        external = re.findall(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"((?:https?:)?//[^\"]*)\"", text)
        assert not external, f"{built} loads resources from the network: {external}"
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text
    for schema in (ROOT / "schemas").glob("*.schema.json"):
        assert json.loads((site / "schemas" / schema.name).read_text()) == json.loads(schema.read_text())


def _built_pages(site: Path) -> list[Path]:
    return [site / page.relative_to(DOCS).with_suffix(".html") for page in PAGES]


def _check_layout(site: Path) -> None:
    """Every page wraps its code (extra.css), can search from file:// (the worker stand-in and the index
    as a script), links pages as files rather than folders, and says which version it documents."""
    assert (site / "search" / "search_index.js").read_text(encoding="utf-8").startswith("var __index = ")
    version = importlib.metadata.version("spade-toolkit")
    for built in _built_pages(site):
        text = built.read_text(encoding="utf-8")
        where = built.relative_to(site)
        assert re.search(r'<link rel="stylesheet" href="(\.\./)*stylesheets/extra\.css">', text), where
        assert re.search(r'<script src="(\.\./)*javascripts/file-worker\.js"></script>', text), where
        assert f"spade-toolkit {version}" in text, f"{where}: no version in the footer"
        folders = [href for href in re.findall(r'<a [^>]*href="([^"#]*)"', text)
                   if href and not href.startswith(("http:", "https:", "mailto:")) and href.endswith("/")]
        assert not folders, f"{where} links folders, which open as listings from file://: {folders}"


_BLOCK = re.compile(r'<div class="language-([\w+-]+) highlight">(.*?)</pre>', re.DOTALL)
_BLOCK_LINE = re.compile(r'<span id="__span-[0-9-]+"[^>]*>([^\n]*)\n')


def code_lines_too_wide(page_html: str, columns: int = layout.CODE_COLUMNS) -> list[str]:
    """The lines of code blocks wider than ``columns``, except what is allowed to wrap: the output in a
    console block (what a tool printed) and quoted files shown with their line numbers."""
    wide = []
    for language, body in _BLOCK.findall(page_html):
        if 'class="linenos"' in body:
            continue
        continued = False
        for raw in _BLOCK_LINE.findall(body):
            line = html.unescape(re.sub(r"<[^>]+>", "", raw))
            typed = language != "console" or line.startswith("$ ") or continued
            continued = typed and language == "console" and line.endswith("\\")
            if typed and len(line) > columns:
                wide.append(f"[{language}] {line}")
    return wide


def _check_code_fits(site: Path) -> None:
    """Code a reader types or reads as code fits a 1,280 px window without wrapping; long output wraps
    (the stylesheet's rule, checked above), so nothing is ever hidden past the right edge."""
    css = (site / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"pre > code \{[^}]*white-space: pre-wrap", css)
    wide = [f"{built.relative_to(site)}: {line}" for built in _built_pages(site)
            for line in code_lines_too_wide(built.read_text(encoding="utf-8"))]
    assert not wide, (f"{len(wide)} code line(s) wider than {layout.CODE_COLUMNS} columns; put comments "
                      "above commands, split long commands with \\, or shorten the line:\n" + "\n".join(wide[:20]))


class _Tags(HTMLParser):
    """Collects the names of the start tags of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.names.add(tag)


HTML_TAGS = frozenset([
    "a", "abbr", "article", "aside", "b", "blockquote", "body", "br", "button", "caption", "circle",
    "code", "col", "colgroup", "dd", "details", "div", "dl", "dt", "em", "figcaption", "figure",
    "footer", "form", "g", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i",
    "iframe", "img", "input", "kbd", "label", "li", "link", "main", "meta", "nav", "ol", "p", "path",
    "pre", "script", "section", "small", "span", "strong", "sub", "summary", "sup", "svg", "table",
    "tbody", "td", "th", "thead", "title", "tr", "u", "ul",
])
"""The elements Markdown, the generators and the theme write; any other tag on a page is text that was
not escaped (a help string's ``<model>``, say), which the browser swallows."""


def _check_no_raw_tags(site: Path) -> None:
    for built in _built_pages(site):
        parser = _Tags()
        parser.feed(built.read_text(encoding="utf-8"))
        unknown = sorted(parser.names - HTML_TAGS)
        assert not unknown, f"{built.relative_to(site)} has text read as HTML tags: {unknown}"


def _check_cli_reference(site: Path) -> None:
    text = _text(site, "reference/cli")
    for program in cli_reference.PROGRAMS:
        for command in cli_reference.commands(program):
            assert command.name in text, f"{command.name} is missing from the CLI reference"
            for action in cli_reference.options(command.parser):
                for flag in action.option_strings or [action.metavar or action.dest]:
                    assert flag in text, f"{command.name}: {flag} is missing from the CLI reference"
            if command.parser.description:
                assert command.parser.description in text


def _check_catalogue(site: Path) -> None:
    from spade_envs.checks.catalogue import CHECKS

    raw = (site / "reference" / "checks.html").read_text(encoding="utf-8")
    text = _text(site, "reference/checks")
    for check in CHECKS:
        assert f'id="{check.name}"' in raw, f"no catalogue entry for {check.name}"
        if not check.name.startswith("judge_"):  # the judge's checks need a model: tests/test_judge.py shows them
            assert f"[{check.name}]" in text, f"no validator output naming {check.name} in the catalogue"
    assert "Traceback" not in text.replace("Traceback (environment frames only)", "")


def _check_configuration(site: Path) -> None:
    from spade_docgen import configuration

    text = _text(site, "reference/configuration")
    for table_name, model in configuration.sections():
        assert f"[{table_name}]" in text
        for field in model.model_fields:
            assert field in text, f"[{table_name}] {field} is missing from the configuration reference"
    for path in configuration.shipped_configs(ROOT):
        assert path.relative_to(ROOT).as_posix() in text


def _check_schemas(site: Path) -> None:
    text = _text(site, "reference/schemas")
    for path in (ROOT / "schemas").glob("*.schema.json"):
        schema = json.loads(path.read_text())
        for node in [schema, *schema.get("$defs", {}).values()]:
            for key in node.get("properties", {}):
                assert key in text, f"{path.name}: {key} is missing from the schema reference"


def test_unknown_directive_stops_the_build() -> None:
    with pytest.raises(directives.DirectiveError, match="unknown directive 'gen: nonsense'"):
        directives.expand("# Page\n<!-- gen: nonsense -->\n", ROOT)
    with pytest.raises(directives.DirectiveError, match="takes one program name"):
        directives.expand("<!-- gen: cli -->\n", ROOT)
    assert isinstance(cli_reference.build_parser("spade-envs"), argparse.ArgumentParser)


# ---------------------------------------------------------------------- generated text and layout
def test_cli_reference_states_each_default_once_and_escapes_help() -> None:
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("--out", help="run directory (default: runs/eval-<model>-<suite>)")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the episodes (0)")
    parser.add_argument("--port", type=int, default=8000, help="loopback port")
    parser.add_argument("--mode", choices=["fast", "exact"], default="fast", help="how (%(default)s)")
    out, jobs, seed, port, mode = parser._actions[1:]
    assert cli_reference.description(parser, out) == "run directory (default: runs/eval-&lt;model&gt;-&lt;suite&gt;)"
    assert cli_reference.description(parser, jobs) == "worker processes (default: one per core)"
    assert cli_reference.description(parser, seed) == "seed of the episodes (0)"
    assert cli_reference.description(parser, port) == "loopback port (default `8000`)"
    assert cli_reference.description(parser, mode) == "how (fast)"
    assert cli_reference._spelling(parser, mode) == "`--mode` {`fast`, `exact`}"


def test_usage_is_refilled_to_the_code_width() -> None:
    parser = argparse.ArgumentParser(prog="spade-train generate-pool")
    parser.add_argument("--reward", choices=["regret_based", "blend", "learning_potential", "solve_rate"])
    for index in range(12):
        parser.add_argument(f"--option-{index}", metavar="VALUE")
    lines = cli_reference.usage(parser, width=70).split("\n")
    assert lines[0].startswith("usage: spade-train generate-pool [-h]")
    assert all(len(line) <= 70 for line in lines), lines
    assert "    [--reward {regret_based,blend,learning_potential,solve_rate}]" in lines
    assert all(line.startswith("    [") for line in lines[1:])


def test_wrapped_code_lines_hang_under_their_own_indent() -> None:
    page = ('<code><span id="__span-0-1">x = 1\n</span><span id="__span-0-2">        return "a long"\n</span>'
            '<span id="__span-0-3"><span class="linenos" data-linenos="3 "></span>+   y\n</span></code>')
    assert layout.hanging_indents(page).count("--hang:") == 3
    assert '<span id="__span-0-1" style="--hang:4ch">' in layout.hanging_indents(page)
    assert '<span id="__span-0-2" style="--hang:12ch">' in layout.hanging_indents(page)
    # a numbered line: its number ("3 ") and one column more come first
    assert '<span id="__span-0-3" style="--hang:11ch">' in layout.hanging_indents(page)


def test_the_width_check_spares_output_and_numbered_files_only() -> None:
    long = "x" * (layout.CODE_COLUMNS + 1)

    def block(language: str, *lines: str, numbered: bool = False) -> str:
        number = '<span class="linenos" data-linenos="1 "></span>' if numbered else ""
        spans = "".join(f'<span id="__span-0-{i}">{number}{line}\n</span>' for i, line in enumerate(lines))
        return f'<div class="language-{language} highlight"><pre><code>{spans}</code></pre></div>'

    assert code_lines_too_wide(block("bash", long)) == [f"[bash] {long}"]
    assert code_lines_too_wide(block("console", "$ ls", long)) == []
    assert code_lines_too_wide(block("console", "$ run \\", long)) == [f"[console] {long}"]
    assert code_lines_too_wide(block("python", long, numbered=True)) == []
