"""mkdocs hooks of the SPADE site: generated reference content and the published JSON Schemas.

mkdocs puts this file's folder on ``sys.path`` while it loads the hook, which is how the
``spade_docgen`` package next to it is found. Nothing here keeps state between calls: the repository
root is the folder of ``mkdocs.yml``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from spade_docgen import directives, schemas


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Publish ``schemas/*.schema.json`` at ``/schemas/`` so the reference can link to the files."""
    for path in schemas.schema_files(_root(config)):
        files.append(File.generated(config, f"schemas/{path.name}", abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    try:
        return directives.expand(markdown, _root(config))
    except Exception as error:  # any generator failure stops the build, naming the page
        raise PluginError(f"{page.file.src_uri}: {error}") from error
