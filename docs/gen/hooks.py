"""mkdocs hooks of the SPADE site: generated reference content, the published JSON Schemas, the
footer's version line and the hanging indent of wrapped code lines.

mkdocs puts this file's folder on ``sys.path`` while it loads the hook, which is how the
``spade_docgen`` package next to it is found. Nothing here keeps state between calls: the repository
root is the folder of ``mkdocs.yml``.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
from html import escape
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from spade_docgen import directives, layout, schemas

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """The footer's line: the toolkit's version, the commit the site was built from, and the repository
    when ``pyproject.toml`` names one (``[project.urls] Repository``). It is plain text and a plain link:
    Material's own repository widget would ask the hosting service's API for star counts on every view."""
    config.copyright = footer_line(_root(config))
    return config


def footer_line(root: Path) -> str:
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    parts = [f"{escape(project['name'])} {escape(importlib.metadata.version(project['name']))}"]
    commit = _commit(root)
    if commit:
        parts.append(f"built from commit <code>{escape(commit)}</code>")
    repository = project.get("urls", {}).get("Repository")
    if repository:
        parts.append(f'<a href="{escape(repository)}">source repository</a>')
    return " · ".join(parts)


def _commit(root: Path) -> str:
    try:
        result = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Publish ``schemas/*.schema.json`` at ``/schemas/`` so the reference can link to the files."""
    for path in schemas.schema_files(_root(config)):
        files.append(File.generated(config, f"schemas/{path.name}", abs_src_path=str(path)))
    return files


def on_post_build(config: MkDocsConfig) -> None:
    """The search index as a script too (``search/search_index.js``): a page opened from file:// cannot
    fetch the JSON file, and Material loads this script there instead (see docs/javascripts/file-worker.js
    for the other half)."""
    index = Path(config.site_dir) / "search" / "search_index.json"
    if index.is_file():
        script = index.with_name("search_index.js")
        script.write_text("var __index = " + index.read_text(encoding="utf-8") + ";\n", encoding="utf-8")


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    try:
        return directives.expand(markdown, _root(config))
    except Exception as error:  # any generator failure stops the build, naming the page
        raise PluginError(f"{page.file.src_uri}: {error}") from error


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Each code line's hanging indent, for lines that wrap (``spade_docgen.layout``)."""
    return layout.hanging_indents(html)
