"""The ``<!-- gen: NAME ARGS -->`` directives that hand-written pages use to pull in generated content.

A directive stands alone on its line and is replaced by Markdown before the page is converted, so the
generated headings join the page's table of contents and its links are checked like any other. An
unknown directive or a generator error stops the build with the page and the reason.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import shlex
from collections.abc import Callable
from pathlib import Path

from spade_docgen import catalogue, cli_reference, configuration, sandbox, schemas
from spade_docgen.markdown import code, prose, table

DIRECTIVE = re.compile(r"^[ \t]*<!--\s*gen:\s*(.+?)\s*-->[ \t]*$", re.MULTILINE)


class DirectiveError(Exception):
    """A directive that cannot be expanded; the message names it and the fix."""


def _no_args(render: Callable[[], str]) -> Callable[[Path, list[str]], str]:
    def run(root: Path, args: list[str]) -> str:
        if args:
            raise DirectiveError(f"takes no arguments, got {args}")
        return render()
    return run


def _cli(root: Path, args: list[str]) -> str:
    if len(args) != 1:
        raise DirectiveError(f"takes one program name ({', '.join(cli_reference.PROGRAMS)})")
    return cli_reference.render_program(args[0])


def _config_file(root: Path, args: list[str]) -> str:
    if len(args) != 1:
        raise DirectiveError("takes one path relative to the repository root, e.g. configs/embedded.toml")
    return configuration.render_file(root, args[0])


def _constants(root: Path, args: list[str]) -> str:
    """``constants MODULE NAME...``: a table of module (or ``Class.attr``) values with their docstrings."""
    if len(args) < 2:
        raise DirectiveError("takes a module and at least one name, e.g. spade_envs.contract.episode WIN_THRESHOLD")
    module = importlib.import_module(args[0])
    notes = _module_docstrings(module)
    rows = []
    for name in args[1:]:
        value: object = module
        for part in name.split("."):
            if not hasattr(value, part):
                raise DirectiveError(f"{args[0]} has no {name}")
            value = getattr(value, part)
        rows.append([code(name), code(repr(value)), prose(notes.get(name, ""))])
    return table(["name", "value", "meaning"], rows)


def _module_docstrings(module: object) -> dict[str, str]:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    found: dict[str, str] = {}
    for statement, following in zip(tree.body, tree.body[1:]):
        target = statement.target if isinstance(statement, ast.AnnAssign) else (
            statement.targets[0] if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None)
        if (isinstance(target, ast.Name) and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str)):
            found[target.id] = inspect.cleandoc(following.value.value)
    return found


def _plot_panels() -> str:
    from spade_train.run.plots import PANELS, SMOOTHING

    rows = []
    for number, panel in enumerate(PANELS):
        place = f"row {number // 3 + 1}, {('left', 'middle', 'right')[number % 3]}"  # 3 x 3, row by row
        if panel.rejections:
            keys = code("rejected/<reason>")
        else:
            keys = ", ".join(code(key) for key in panel.metrics)
            if panel.secondary:
                keys += "; right axis: " + ", ".join(code(key) for key in panel.secondary)
            if panel.per_skill:
                keys += "; per skill: " + code(f"skill/<skill>/{panel.per_skill}")
        axis = panel.label + (f" (right: {panel.secondary_label})" if panel.secondary else "")
        rows.append([place, prose(panel.title), keys, prose(axis)])
    note = (f"\nWith more than {2 * SMOOTHING} iterations each curve is drawn faintly per iteration with a "
            f"bold centred {SMOOTHING}-iteration mean over it, which does not lag, except over the last "
            f"{SMOOTHING // 2} iterations (they can only average the ones before them). Bands are each "
            "iteration's 95% interval, from the `_low` and `_high` keys of its row.\n")
    return table(["where", "title", "metrics (`metrics.jsonl` keys)", "y axis"], rows) + note


def _deviations() -> str:
    from spade_train.semantics import deviations_table

    return deviations_table()


def _differences() -> str:
    from spade_train.release_differences import differences_table

    return differences_table()


DIRECTIVES: dict[str, Callable[[Path, list[str]], str]] = {
    "cli": _cli,
    "checks": lambda root, args: catalogue.render(root),
    "schema": lambda root, args: schemas.render(root, args or None),
    "config-fields": _no_args(configuration.render_fields),
    "config-shipped": lambda root, args: configuration.render_shipped(root),
    "config-file": _config_file,
    "constants": _constants,
    "sandbox-backends": _no_args(sandbox.render_backends),
    "sandbox-limits": _no_args(sandbox.render_limits),
    "static-limits": _no_args(sandbox.render_static_limits),
    "check-settings": _no_args(sandbox.render_check_settings),
    "wasm-settings": _no_args(sandbox.render_wasm_settings),
    "allowlist": _no_args(sandbox.render_allowlist),
    "forbidden-names": _no_args(sandbox.render_forbidden_names),
    "forbidden-attributes": _no_args(sandbox.render_forbidden_attributes),
    "forbidden-module-members": _no_args(sandbox.render_forbidden_module_members),
    "plot-panels": _no_args(_plot_panels),
    "deviations": _no_args(_deviations),
    "differences": _no_args(_differences),
}


def expand(markdown: str, root: Path) -> str:
    """Replace every directive in ``markdown`` by its generated content."""

    def replace(match: re.Match[str]) -> str:
        name, *args = shlex.split(match.group(1))
        render = DIRECTIVES.get(name)
        if render is None:
            raise DirectiveError(f"unknown directive 'gen: {name}'; known: {', '.join(sorted(DIRECTIVES))}")
        try:
            return render(root, args).rstrip() + "\n"
        except DirectiveError as error:
            raise DirectiveError(f"'gen: {match.group(1)}': {error}") from None

    return DIRECTIVE.sub(replace, markdown)
