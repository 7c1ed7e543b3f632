"""The command-line reference, rendered from the argparse parsers the commands themselves use.

Each program's ``build_parser()`` is the single source: a new option, a changed default or help text
appears in the site on the next build. argparse has no public API to list a parser's arguments, so this
reads ``parser._actions`` the way argparse's own help formatter does.

Each option's row says its default once: the help text's own words when it names the default (it can
say "one per core" where the value is a sentinel), else the value. Help text is plain text and is
escaped as such, so ``runs/eval-<model>-<suite>`` reads as written rather than becoming HTML tags.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from spade_docgen.layout import CODE_COLUMNS
from spade_docgen.markdown import code, docstring, fence, prose, table

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
    """How the argument is typed, each flag, value and choice as its own code span: the table's CSS
    keeps a span whole, so a narrow screen breaks between ``--sandbox`` and its choices and between
    the choices, never inside a name."""
    formatter = parser._get_formatter()
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        value = "{" + ", ".join(code(choice) for choice in action.choices) + "}"
    elif action.option_strings:
        value = code(formatter._format_args(action, formatter._get_default_metavar_for_optional(action)))
    else:
        value = code(formatter._format_args(action, formatter._get_default_metavar_for_positional(action)))
    if not action.option_strings:
        return value
    if action.nargs == 0:
        return ", ".join(code(flag) for flag in action.option_strings)
    return ", ".join(f"{code(flag)} {value}" for flag in action.option_strings)


_NAMES_DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)


def _states_default(help_text: str, default: str) -> bool:
    """Whether the help already gives the default: in words ("default: wasm", "default: one per core"), through
    argparse's ``%(default)s``, or as the value in parentheses ("both roles (0.6)")."""
    return bool(_NAMES_DEFAULT.search(help_text)) or "%(default)" in help_text or any(
        f"({default}{end}" in help_text for end in (")", ";", ","))


def default_text(action: argparse.Action) -> str:
    """The default worth stating: none for switches, unset values and empty lists."""
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS) or action.default == []:
        return ""
    return str(action.default)


def description(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text as Markdown, with the default appended when the text does not already say it."""
    text = prose(parser._get_formatter()._expand_help(action)) if action.help else ""
    notes = []
    if action.required and action.option_strings:
        notes.append("required")
    if isinstance(action, argparse._AppendAction):
        notes.append("repeatable")
    default = default_text(action)
    if default and not _states_default(action.help or "", default):
        notes.append(f"default {code(default)}")
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
        rows = [[_spelling(command.parser, a), description(command.parser, a)] for a in options(command.parser)]
        if rows:
            parts.append('<div class="keep-words" markdown>\n\n' + table(["argument", "description"], rows)
                         + "\n</div>\n")
    return "\n".join(parts)


def usage(parser: argparse.ArgumentParser, width: int = CODE_COLUMNS) -> str:
    """The usage line, wrapped to ``width`` with a four-space continuation indent.

    argparse indents continuation lines to the end of ``usage: PROG SUBCOMMAND``, which leaves a long
    choice list (``[--reward {regret_based,blend,...}]``) too little room; so the one-line usage is
    split into its bracketed groups here and refilled. The page then does not depend on the build's
    terminal either.
    """
    formatter = parser.formatter_class(prog=parser.prog, width=10_000)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    words = _usage_words(formatter.format_help().strip())
    lines = [words[0]]
    for word in words[1:]:
        if len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append("    " + word)
    return "\n".join(lines)


def _usage_words(line: str) -> list[str]:
    """``usage: prog [-h] [--a A | --b B] X`` -> its words, a bracketed group counting as one word."""
    words, current, depth = [], "", 0
    for char in line:
        if char == " " and depth == 0:
            if current:
                words.append(current)
            current = ""
            continue
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        current += char
    return [*words, current] if current else words


def _anchor(name: str) -> str:
    return name.replace(" ", "-")
