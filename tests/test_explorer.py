"""The explorer (issue 48): move grammars read from games, and the moves it plays that solutions never do."""

from __future__ import annotations

import pytest

from spade_envs.checks.explore.families import explorations, outside_values
from spade_envs.checks.explore.grammar import Slot, read_grammar


def boxed(*moves: str) -> list[str]:
    return [f"\\boxed{{{move}}}" for move in moves]


def test_templates_have_literal_verbs_and_typed_slots():
    grammar = read_grammar([boxed("move 2 3", "move 1 3", "swap 4 1"), boxed("move 5 1")], ["Slide tiles."])
    move = grammar.templates[0]
    assert move.uses == 4 and move.example == "move 2 3"
    assert [part if isinstance(part, str) else (part.kind, part.values) for part in move.parts] == [
        ("word", ("move", "swap")), " ", ("number", ("1", "2", "4", "5")), " ", ("number", ("1", "3"))]
    assert grammar.boxed_moves and grammar.wrap("move 9 9") == "\\boxed{move 9 9}"
    assert move.render({2: "0"}) == "move 0 3"
    assert grammar.template_of("move 7 7") is not None and grammar.template_of("jump") is None


def test_shapes_keep_punctuation_and_separate_words_from_codes():
    grammar = read_grammar([boxed("r2c3=4", "r1c1=2"), boxed("B2", "C4", "B1")], [""])
    shapes = {template.example: template for template in grammar.templates}
    cell = shapes["r2c3=4"]
    assert [p if isinstance(p, str) else p.kind for p in cell.parts] == ["r", "number", "c", "number", "=", "number"]
    code = shapes["B2"]
    assert [p if isinstance(p, str) else (p.kind, p.values) for p in code.parts] == [
        ("word", ("B", "C")), ("number", ("1", "2", "4"))]


@pytest.mark.parametrize("text, commands", [
    ("Move with \\boxed{up}. You can also type: look, inventory or help.", ("look", "inventory", "help")),
    ("Actions: \\boxed{add N}, \\boxed{remove N} and \\boxed{submit}.", ("remove N",)),
    ("Guess a code like \\boxed{BBIM}; commands: `status`.", ("status",)),
    ("Reply with \\boxed{up}, \\boxed{down} or \\boxed{left}.", ()),
])
def test_advertised_commands_are_the_offered_moves_no_solution_plays(text, commands):
    solutions = [boxed("up", "down", "add 2", "submit", "BBIM")]
    assert read_grammar(solutions, [text]).commands == commands


def test_explorations_repeat_retarget_cut_pad_and_try_each_command():
    grammar = read_grammar([boxed("add 2", "add 5", "submit")], ["Actions: \\boxed{add N}, \\boxed{remove N}."])
    played = {e.label: [m.split("Let me think this through step by step before answering. ")[1] for m in e.moves]
              for e in explorations(grammar)}
    assert played["a move played twice"] == boxed("add 2", "add 2")
    assert played["a move played again on the same target with another value"] == boxed("add 2", "add 5")
    assert played["a move cut short (its last part missing)"] == boxed("add")
    assert played["a move with an extra part"] == boxed("add 2 1")
    assert played["the advertised command 'remove 2'"] == boxed("remove 2")
    assert played["the advertised command 'remove 2' after a move"] == boxed("add 2", "remove 2")


def test_outside_values_are_below_and_above_every_value_used():
    assert outside_values(Slot("number", ("1", "4", "9"))) == ["0", "-1", "10"]
    assert outside_values(Slot("number", ("0", "3"))) == ["-1", "4"]
    assert outside_values(Slot("number", ("-5", "5"))) == ["-6", "6"]
    assert outside_values(Slot("word", ("a", "b"))) == []
