"""The run configuration reference, from ``spade_train.config.RunConfig`` and the shipped files.

Field types, defaults and constraints come from the model's JSON Schema; the explanations come from the
attribute docstrings in ``spade_train/config/sections.py`` (the string under each field), which pydantic does not put
in the schema, so they are read from the source with ``ast``. Every shipped configuration under
``configs/`` is loaded through the real loader while the page is built: a file the loader rejects
fails the build.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from spade_docgen.markdown import docstring, fence, first_sentence, prose
from spade_docgen.schemas import object_table
from spade_docgen.source import attribute_docstrings
from spade_train.config import RunConfig, load_run_config


def sections() -> list[tuple[str, type[BaseModel]]]:
    """``[(TOML table name, model)]`` in file order, nested tables (``model.tiny``) after their parent."""
    found: list[tuple[str, type[BaseModel]]] = []
    for name, field in RunConfig.model_fields.items():
        model = field.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            found.append((name, model))
            for sub_name, sub_field in model.model_fields.items():
                sub = sub_field.annotation
                if isinstance(sub, type) and issubclass(sub, BaseModel):
                    found.append((f"{name}.{sub_name}", sub))
    return found


def render_fields() -> str:
    schema = RunConfig.model_json_schema()
    definitions = schema.get("$defs", {})
    tables = sections()
    anchors = {model.__name__: _anchor(table_name) for table_name, model in tables}
    parts = []
    for table_name, model in tables:
        node = definitions.get(model.__name__, {})
        node = {key: value for key, value in node.items() if key != "description"}
        parts.append(f"### `[{table_name}]` {{#{_anchor(table_name)}}}\n")
        doc = docstring(model)
        if doc:
            parts.append(doc + "\n")
        parts.append(object_table(node, "run_config", attribute_docstrings(model), anchors))
    return "\n".join(parts)


def _anchor(table_name: str) -> str:
    return table_name.replace(".", "-")


def shipped_configs(root: Path) -> list[Path]:
    return sorted((root / "configs").rglob("*.toml"))


def _header(path: Path) -> str:
    """The file's leading comment block, as one paragraph."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    return first_sentence("\n".join(lines))


def render_shipped(root: Path) -> str:
    """A table of every shipped configuration (each loaded by the real loader first): the file, then what
    it is with its backend, model and length (two columns, so that it fits a phone)."""
    rows = []
    for path in shipped_configs(root):
        config = load_run_config(path)  # raises ConfigError: the build fails on a broken shipped file
        relative = path.relative_to(root).as_posix()
        model = config.policies.designer or config.model.path or "tiny model built from `[model.tiny]`"
        rows.append(f"| `{relative}` | {prose(_header(path))} Backend {config.run.backend}, model "
                    f"{prose(model)}, {config.run.iterations} iterations. |")
    head = "| file | what it is |\n| --- | --- |\n"
    return head + "\n".join(rows) + "\n"


def render_file(root: Path, relative: str) -> str:
    """One shipped configuration in full, after checking that it loads."""
    path = root / relative
    load_run_config(path)
    # Numbered, as a quoted file: its long comment lines wrap under their line number.
    return fence(path.read_text(encoding="utf-8"), "toml", attributes=f'title="{relative}" linenums="1"')
