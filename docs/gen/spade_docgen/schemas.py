"""Reference tables rendered from the JSON Schemas in ``schemas/`` (themselves generated from the models).

The schemas are the contract with tools in other languages, so the site shows them as they are
committed: every object (the document and each ``$defs`` entry) becomes a table of its properties with
type, whether it is required, default, constraints and description. ``$ref`` types link to the table of
the object they name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spade_docgen.markdown import code, fence, prose, table

_CONSTRAINTS = (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<"),
                ("minLength", "min length"), ("maxLength", "max length"), ("pattern", "pattern"),
                ("minItems", "min items"), ("maxItems", "max items"))


def schema_files(root: Path) -> list[Path]:
    return sorted((root / "schemas").glob("*.schema.json"))


def schema_name(path: Path) -> str:
    return path.name.removesuffix(".schema.json")


def anchor(schema: str, definition: str | None = None) -> str:
    return f"{schema}" if definition is None else f"{schema}-{definition.lower()}"


def type_text(node: dict[str, Any], schema: str, anchors: dict[str, str] | None = None) -> str:
    """A property's type as Markdown: ``$ref`` as a link, unions joined with 'or', enums listed.

    ``anchors`` maps a definition name to the anchor of its table when a page lays tables out its own
    way (the configuration reference); by default each definition has its own ``SCHEMA-name`` anchor.
    """
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{(anchors or {}).get(name) or anchor(schema, name)})"
    if "anyOf" in node:
        return " or ".join(type_text(option, schema, anchors) for option in node["anyOf"])
    if "enum" in node:
        return " | ".join(code(json.dumps(value)) for value in node["enum"])  # cell() escapes the pipes
    if "const" in node:
        return code(json.dumps(node["const"]))
    kind = node.get("type", "any")
    if kind == "array":
        return f"array of {type_text(node.get('items', {}), schema, anchors)}"
    if kind == "object" and "additionalProperties" in node and isinstance(node["additionalProperties"], dict):
        return f"object of {type_text(node['additionalProperties'], schema, anchors)}"
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) + (f" ({node['format']})" if "format" in node else "")


def constraints(node: dict[str, Any]) -> str:
    found = [f"{label} {code(node[key])}" for key, label in _CONSTRAINTS if key in node]
    for option in node.get("anyOf", []):
        found += [f"{label} {code(option[key])}" for key, label in _CONSTRAINTS if key in option]
    return ", ".join(found)


def object_table(node: dict[str, Any], schema: str, descriptions: dict[str, str] | None = None,
                 anchors: dict[str, str] | None = None) -> str:
    """The properties of one object schema. ``descriptions`` fills in fields the schema leaves undescribed.

    Three columns (key, type, description), so that the table fits a phone's width: whether a key is
    required, its default and its constraints lead its description.
    """
    required = set(node.get("required", []))
    rows = []
    for name, prop in sorted(node.get("properties", {}).items()):
        facts = (["**required**"] if name in required else []) + (
            [f"default {code(json.dumps(prop['default']))}"] if "default" in prop else [])
        limits = constraints(prop)
        if limits:
            facts.append(limits)
        description = prose(prop.get("description") or (descriptions or {}).get(name, ""))
        lead = "; ".join(facts)
        text = f"{lead}. {description}" if lead and description else lead or description
        rows.append([code(name), type_text(prop, schema, anchors), text])
    closed = "; no other keys are allowed" if node.get("additionalProperties") is False else ""
    intro = prose(node.get("description", "")) + "\n\n" if node.get("description") else ""
    body = table(["key", "type", "description"], rows)
    return intro + body + (
        f"\n*Object{closed}.*\n" if closed else "")


def render_schema(path: Path) -> str:
    schema = json.loads(path.read_text(encoding="utf-8"))
    name = schema_name(path)
    parts = [f"## {name} {{#{anchor(name)}}}\n",
             f"File: [`schemas/{path.name}`](../schemas/{path.name}) · `$id`: {code(schema.get('$id', ''))}\n",
             object_table(schema, name)]
    for definition, node in sorted(schema.get("$defs", {}).items()):
        parts.append(f"### {definition} {{#{anchor(name, definition)}}}\n")
        if node.get("type") == "object" or "properties" in node:
            parts.append(object_table(node, name))
        else:
            parts.append(fence(json.dumps(node, indent=2), "json"))
    return "\n".join(parts)


def render(root: Path, names: list[str] | None = None) -> str:
    files = [p for p in schema_files(root) if names is None or schema_name(p) in names]
    if names is not None and len(files) != len(names):
        known = ", ".join(schema_name(p) for p in schema_files(root))
        raise ValueError(f"unknown schema in {names}; schemas/ holds: {known}")
    return "\n".join(render_schema(path) for path in files)
