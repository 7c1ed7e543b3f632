"""The explorer (issue 48): move grammars read from games, and the moves it plays that solutions never do."""

from __future__ import annotations

from dataclasses import replace

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
    assert played["'add 2' played twice"] == boxed("add 2", "add 2")
    assert played["'add 2' played again on the same target with another value"] == boxed("add 2", "add 5")
    assert played["'add 2' cut short to 'add'"] == boxed("add")
    assert played["'add 2' with an extra part"] == boxed("add 2 1")
    assert played["the advertised command 'remove 2'"] == boxed("remove 2")
    assert played["the advertised command 'remove 2' after a move"] == boxed("add 2", "remove 2")
    assert played["'submit' played twice"] == boxed("submit", "submit")


def test_every_slot_is_left_out_in_turn_and_text_examples_become_templates():
    from spade_envs.checks.explore.families import _cuts

    grammar = read_grammar([boxed("put 4 in r1c2", "put 3 in r2c1")], ["Name a letter, e.g. \\boxed{E}."])
    assert _cuts(grammar.templates[0]) == ["put in r1c2", "put 4 in rc2", "put 4 in r1c", "put"]
    assert [template.example for template in grammar.templates] == ["put 4 in r1c2", "E"]
    assert grammar.templates[1].uses == 0  # from the text, not from a solution


def test_outside_values_are_below_and_above_every_value_used():
    assert outside_values(Slot("number", ("1", "4", "9"))) == ["-1", "0", "-1000", "10"]
    assert outside_values(Slot("number", ("0", "3"))) == ["-1", "-1000", "4"]
    assert outside_values(Slot("number", ("5", "4500"))) == ["-1", "0", "-100000", "4501"]
    assert outside_values(Slot("number", ("-5", "5"))) == ["-6", "6"]
    assert outside_values(Slot("word", ("a", "b"))) == []


def test_wrapped_indexes_shift_each_value_by_the_size():
    from spade_envs.checks.explore.families import outside_mutations

    cards = outside_mutations(Slot("number", ("1", "7", "12")))
    assert [how.applied("8") for how in cards] == ["-1", "0", "-1000", "-4", "13"]  # card 8 of 12, from the end
    cells = outside_mutations(Slot("number", ("0", "3", "5")))
    assert [how.applied("2") for how in cells] == ["-1", "-1000", "-4", "6"]  # index 2 of 6 (0 to 5)
    assert all(how.value is not None for how in outside_mutations(Slot("number", ("-5", "5"))))


def test_positional_clues_are_joined_in_position_order():
    from spade_envs.checks.exploits.decoders import _positions

    notes = "Notes:\n- the second digit is 2 (mirror)\n- the third digit is 8\n- the first digit is 3 (atlas)"
    assert _positions(notes) == ["328"]
    assert _positions("Letter 2 is K; letter 1 is O.") == ["OK"]
    assert _positions("the 1st wheel shows 4, the 2nd wheel shows 9") == ["49"]
    assert _positions("the second digit is 2 and the third is 5") == []  # position 1 missing: no whole code
    assert _positions("digit 1 = 3, digit 2 = 4") == ["34"]
    # a look-alike letter (U+017F matches s when case is ignored) is skipped, not a crash that hides the rest
    assert _positions("the firſt digit is 9; the first digit is 3, the second digit is 2") == ["32"]


def test_a_final_move_names_its_target_and_wrap_puts_a_value_back():
    from spade_envs.checks.probes import SeedCase

    game = SeedCase(1, "Dig for the treasure.", ("\\boxed{dig C1}", "\\boxed{dig H3}"), False)
    assert game.slot == "H3" and game.answer_like() and game.wrap("B2") == "\\boxed{dig B2}"
    guess = SeedCase(1, "Guess.", ("\\boxed{guess 50}", "\\boxed{guess 606}"), False)
    assert guess.slot == "606" and guess.wrap("7") == "\\boxed{guess 7}"
    one = SeedCase(1, "Dig.", ("\\boxed{dig H3}",), False)
    assert one.slot == "dig H3"  # a one-move solution is an answer, unless the explorer reads it as a move
    assert replace(one, as_move=True).slot == "H3"
    puzzle = SeedCase(1, "Slide.", ("\\boxed{move 2 3}", "\\boxed{move 1 3}"), False)
    assert puzzle.slot == "move 1 3" and not puzzle.answer_like()


def test_listed_targets_topic_words_and_moves_without_a_slot():
    from spade_envs.checks.explore.families import _shape_pattern, _without, topic_word

    assert _shape_pattern("B5").findall("You fired at A2. Ships: E1, E2, C4; grid 6x6, 10 shots") == ["A2", "E1", "E2", "C4"]
    assert _shape_pattern("606").findall("tried 5, 60 and 7a") == ["5", "60"]
    assert _shape_pattern("n").findall("Word: F A L C O N. Misses: none") == ["F", "A", "L", "C", "O", "N"]
    assert _shape_pattern("RABBIT").findall("Try a word: A or STONE") == ["Try", "word", "or", "STONE"]
    assert topic_word("Shell Hunt. You are on a server. Find the current deploy passphrase and submit it.") == \
        "passphrase"
    assert topic_word("No goal sentence here") == "help"
    assert _without(["put", " ", "4", " ", "in", " ", "r", "1", "c", "2"], 2) == "put in r1c2"


def test_a_bare_final_move_is_its_own_target():
    from spade_envs.checks.explore.families import target_form
    from spade_envs.checks.probes import SeedCase

    assert target_form(SeedCase(1, "Guess letters.", ("\\boxed{a}", "\\boxed{n}"), False)) == ("{}", "n")
    assert target_form(SeedCase(1, "Dig.", ("\\boxed{F6}",), False, as_move=True)) == ("{}", "F6")
    assert target_form(SeedCase(1, "Dig.", ("\\boxed{dig C1}", "\\boxed{dig H3}"), False)) == ("dig {}", "H3")
    assert target_form(SeedCase(1, "Answer.", ("\\boxed{F6}",), False)) is None  # one answer, not a move
    assert target_form(SeedCase(1, "Slide.", ("\\boxed{move 2 3}", "\\boxed{move 1 3}"), False)) is None


def test_a_number_too_long_to_count_with_is_a_literal_not_a_slot():
    """Moves come from the environment: a 5,000-digit number made the grammar's int() raise, and the gate
    reported a host failure against an honest game."""
    huge = "9" * 5000
    grammar = read_grammar([boxed(f"put {huge} 1", "put 2 2"), boxed(f"put {huge} 1", "put 7 2")], [""])
    kinds = {template.example: [slot.kind for _, slot in template.slots] for template in grammar.templates}
    assert kinds[f"put {huge} 1"] == ["number"] and kinds["put 2 2"] == ["number", "number"]
    assert all(len(value) <= 18 for t in grammar.templates for _, s in t.slots for value in s.values)
