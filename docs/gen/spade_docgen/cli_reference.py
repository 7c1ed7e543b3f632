"""The command-line reference, rendered from the argparse parsers the commands themselves use.

Each program's ``build_parser()`` is the single source: a new option, a changed default or help text
appears in the site on the next build. argparse has no public API to list a parser's arguments, so this
reads ``parser._actions`` the way argparse's own help formatter does.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterator
from dataclasses import dataclass

from spade_docgen.markdown import code, docstring, fence, table

PROGRAMS: dict[str, str] = {
    "spade-envs": "spade_envs.cli",
    "spade-train": "spade_train.cli",
    "spade-eval": "spade_eval.cli",
}
"""Program name -> the module whose ``build_parser()`` defines it (the console scripts in pyproject)."""


@dataclass(frozen=True)
class Command:
    """One (sub)command: its full name, the parser, and the one-line help its parent gives it."""

    name: str
    parser: argparse.ArgumentParser
    summary: str


def build_parser(program: str) -> argparse.ArgumentParser:
    if program not in PROGRAMS:
        raise ValueError(f"unknown program {program!r}; choose one of: {', '.join(PROGRAMS)}")
    return importlib.import_module(PROGRAMS[program]).build_parser()


def commands(program: str) -> list[Command]:
    """The program and every subcommand, depth first, in the order the parser defines them."""
    return list(_walk(program, build_parser(program), ""))


def _walk(name: str, parser: argparse.ArgumentParser, summary: str) -> Iterator[Command]:
    yield Command(name, parser, summary)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for sub_name, sub_parser in action.choices.items():
                yield from _walk(f"{name} {sub_name}", sub_parser, helps.get(sub_name, ""))


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments a user types (help and the subcommand selector left out)."""
    return [a for a in parser._actions
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) and a.help != argparse.SUPPRESS]


def _spelling(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = parser._get_formatter()
    if not action.option_strings:
        return formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    value = formatter._format_args(action, formatter._get_default_metavar_for_optional(action))
    return ", ".join(f"{flag} {value}" for flag in action.option_strings)


def _default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS) or action.default == []:
        return ""
    return code(action.default)


def _description(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    text = parser._get_formatter()._expand_help(action) if action.help else ""
    notes = []
    if action.required and action.option_strings:
        notes.append("required")
    if isinstance(action, argparse._AppendAction):
        notes.append("repeatable")
    suffix = f" ({'; '.join(notes)})" if notes else ""
    return (text + suffix).strip() or "-"


def render_program(program: str) -> str:
    """Markdown for one program: its docstring, then every command with usage and an options table."""
    module = importlib.import_module(PROGRAMS[program])
    all_commands = commands(program)
    top = all_commands[0]
    parts = [f"## {program}\n", (top.parser.description or "") + "\n", docstring(module) + "\n",
             fence(usage(top.parser)), ""]
    subcommands = [c for c in all_commands[1:] if c.name.count(" ") == 1]
    if subcommands:
        rows = [[f"[{code(c.name)}](#{_anchor(c.name)})", c.summary or "-"] for c in subcommands]
        parts.append(table(["command", "what it does"], rows))
    for command in all_commands[1:]:
        parts.append(f"### {command.name} {{#{_anchor(command.name)}}}\n")
        if command.summary:
            parts.append(command.summary[0].upper() + command.summary[1:] + ".\n")
        parts.append(fence(usage(command.parser)))
        rows = [[code(_spelling(command.parser, a)), _default(a), _description(command.parser, a)]
                for a in options(command.parser)]
        if rows:
            parts.append(table(["argument", "default", "description"], rows))
    return "\n".join(parts)


def usage(parser: argparse.ArgumentParser, width: int = 100) -> str:
    """``parser.format_usage()`` at a fixed width, so the page does not depend on the build's terminal."""
    formatter = parser.formatter_class(prog=parser.prog, width=width)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _anchor(name: str) -> str:
    return name.replace(" ", "-")
