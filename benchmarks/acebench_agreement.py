"""ACEBench agent scoring, side by side with ACEBench's own code, offline, on all 50 agent entries.

Every replay of ``tests/acebench_replays.py`` (each gold milestone list, the repairs of the defective
ones, a dropped last step, an altered argument, an extra state change the checker sees and one it does
not) runs twice:

- here: ``World.execute`` step by step, then ``end_to_end`` and ``process_accuracy``;
- in ACEBench: its execution roles (``EXECUTION`` for multi-turn, ``EXECUTION_STEP`` for multi-step,
  which decode the step text and call ``execute_agent_func_call`` on its scenario classes), the saved
  classes collected as ``common_inference`` collects them (``SAVED_CLASS``, written to and read back
  from JSON as its result files are), then ``eval_main.agent_eval`` (``agent_checker`` and
  ``agent_eval_process``).

Compared: the verdict, the process accuracy, the saved state and every execution result the agent
would read (as ACEBench's role hands it over). After each entry's base replay a batch of probes (error
paths, unknown tools, positional and mistyped arguments, helper methods, every Travel rule) runs on
both, result by result, to compare the classes beyond what the answers reach.

The step text given to ACEBench's decoder is the parsed milestone written back by
``format_python_calls``: some milestones are not valid Python (``'Domino's'``), which ACEBench's own
decoder rejects; the process texts compared with the milestones are the milestones as written.

ACEBench's code is no dependency and is not in this repository: pass ``--acebench-src`` a checkout of
chenchen0103/ACEBench (MIT). Only its standard-library parts run (scenario classes, executor, checker);
``eval_main``'s spreadsheet imports (pandas, openpyxl) are stubbed when they are not installed, and the
files its scorer writes go to a temporary folder.

Run: ``python benchmarks/acebench_agreement.py --acebench-src /path/to/ACEBench [--data-dir ../shared/data]``.
Prints the table and writes ``benchmarks/results/acebench_agreement.json``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import inspect
import io
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the replays live with the tests

from spade_eval.suites.acebench.agent import UNDECODABLE_STEP, milestone_calls
from spade_eval.suites.acebench.data import load_category
from spade_eval.suites.acebench.scenarios import (
    Execution,
    World,
    decodable,
    describe_result,
)
from spade_eval.suites.tool_calls import format_python_calls
from tests.acebench_replays import replay_ours, replays

CATEGORIES = ("agent_multi_turn", "agent_multi_step")
UNDECODABLE = "(not executed: ACEBench's decoder rejects it)"
_PROBES = """
[search_reminders(keyword='To-do')]
[turn_on_wifi(), search_reminders(keyword='x')]
[no_such_tool()]
[delete_message(1)]
[delete_message(message_id='1')]
[delete_message(message_id=True)]
[search_messages(user_name='Eve', keyword=5)]
[search_messages(user_name='Nobody', keyword='x'), search_messages(user_name='Isaac', keyword='CALL')]
[view_messages_between_users(sender_name='Eve', receiver_name='Nobody')]
[send_message(sender_name='Eve', receiver_name='Frank', message=42)]
[get_latest_message_id(), get_earliest_message_id()]
[get_all_message_times_with_ids()]
[view_reminder_by_title(title='Nope'), view_reminder_by_title(title='Team Meeting')]
[add_reminder(title='A', description='B', time='2024-08-01 10:00'), view_all_reminders()]
[delete_reminder(reminder_id=1001), delete_reminder(reminder_id=2)]
[check_balance(user_name='Eve'), check_balance(user_name='Nobody')]
[get_products(merchant_name='Heytea'), get_products(merchant_name='Nowhere')]
[add_food_delivery_order(username='Eve', merchant_name="Domino's", items=[{'product': 'Super Supreme', 'quantity': 1}])]
[login_food_platform(username='Jack', password='wrong'), login_food_platform(username='Jack', password='password654'), login_food_platform(username='Jack', password='password654')]
[add_food_delivery_order(username='Jack', merchant_name='Heytea', items=[])]
[add_food_delivery_order(username='Jack', merchant_name='Heytea', items=[{'product': 'Cheese Milk Tea', 'quantity': True}])]
[add_food_delivery_order(username='Jack', merchant_name='Heytea', items=[{'product': 'Cheese Milk Tea', 'quantity': 0}])]
[add_food_delivery_order(username='Jack', merchant_name='Heytea', items=[{'product': 'Cheese Milk Tea'}])]
[add_food_delivery_order(username='Jack', merchant_name='Jiutian BBQ', items=[{'product': 'Korean Grilled Beef', 'quantity': 1}])]
[add_food_delivery_order(username='Jack', merchant_name='Heytea', items='tea')]
[add_food_delivery_order(username='Nobody', merchant_name='Heytea', items=[])]
[view_orders(user_name='Jack'), search_orders(keyword='TEA'), view_logged_in_users()]
[get_user_details(user_id='user1', password='bad'), get_user_details(user_id='user2', password='password456')]
[get_reservation_details(), get_reservation_details(reservation_id='res_4'), get_reservation_details(user_id='user2')]
[get_flight_details(), get_flight_details(origin='Nowhere')]
[find_transfer_flights(origin_city='Beijing', transfer_city='Nanjing', destination_city='Shenzhen'), find_transfer_flights(origin_city='A', transfer_city='B', destination_city='C')]
[reserve_flight(user_id='user1', password='bad', flight_no='CA1234', cabin='Economy Class', payment_method='bank', baggage_count=1)]
[reserve_flight(user_id='user1', password='password123', flight_no='XX0000', cabin='Economy Class', payment_method='bank', baggage_count=1)]
[reserve_flight(user_id='user1', password='password123', flight_no='CA1234', cabin='economy', payment_method='bank', baggage_count=1)]
[reserve_flight(user_id='user1', password='password123', flight_no='CA1234', cabin='Economy Class', payment_method='card', baggage_count=1)]
[reserve_flight(user_id='user3', password='password789', flight_no='MU5678', cabin='Business Class', payment_method='cash', baggage_count=5)]
[reserve_flight(user_id='user1', password='password123', flight_no='MU5678', cabin='Business Class', payment_method='bank', baggage_count=4)]
[reserve_flight(user_id='user1', password='password123', flight_no='MU5678', cabin='Economy Class', payment_method='bank')]
[modify_flight(user_id='user1', reservation_id='res_1', new_flight_no='MU5678')]
[modify_flight(user_id='user1', reservation_id='res_2', new_flight_no='CZ4321', new_cabin='Economy Class', add_baggage='1')]
[modify_flight(user_id='user3', reservation_id='res_1')]
[modify_flight(user_id='user2', reservation_id='res_4', add_baggage=1)]
[modify_flight(user_id='user2', reservation_id='res_3', new_cabin='Economy Class', add_baggage=3, new_payment_method='cash')]
[modify_flight(user_id='user1', reservation_id='res_1', new_cabin='Business Class', add_baggage=1)]
[cancel_reservation(user_id='user1', reservation_id='res_1', reason='Change of plans'), cancel_reservation(user_id='user1', reservation_id='res_1', reason='The airline has canceled the flight.')]
[cancel_reservation(user_id='nobody', reservation_id='res_1', reason='x'), cancel_reservation(user_id='user2', reservation_id='res_4', reason='x'), cancel_reservation(user_id='user2', reservation_id='res_9', reason='x')]
[authenticate_user(user_id='user2', password='password456'), get_baggage_allowance(membership_level='gold', cabin_class='Economy Class'), calculate_baggage_fee(membership_level='silver', cabin_class='Business Class', baggage_count=5)]
[calculate_baggage_fee(membership_level='platinum', cabin_class='Economy Class', baggage_count=1)]
[update_balance(user={'cash_balance': 1.0}, payment_method='cash', amount=-5)]
[login_device(), turn_on_wifi()]
[send_message(sender_name='Eve', receiver_name='Frank', message='hello'), get_latest_message_id()]
"""
PROBES = tuple(line for line in _PROBES.splitlines() if line)
"""Steps run after each entry's base replay, one batch a line."""


# ---------------------------------------------------------------------- ACEBench's side
def _saved_class(source: Path) -> dict[str, list[str]]:
    """``SAVED_CLASS`` of ``common_inference.py``, read as data (that module imports model clients)."""
    tree = ast.parse((source / "model_inference" / "common_inference.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SAVED_CLASS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit(f"{source}: no SAVED_CLASS in model_inference/common_inference.py")


class Official:
    """ACEBench's executor, classes and scorer, imported from a checkout."""

    def __init__(self, source: Path, scratch: Path) -> None:
        if not (source / "model_inference" / "multi_turn" / "execution_role.py").is_file():
            raise SystemExit(f"{source} is not a checkout of chenchen0103/ACEBench (no model_inference/)")
        for stub in ("pandas", "openpyxl", "openpyxl.styles"):  # eval_main's spreadsheet output only
            try:
                __import__(stub)
            except ImportError:
                module = types.ModuleType(stub)
                module.Workbook = module.Alignment = object  # type: ignore[attr-defined]
                sys.modules[stub] = module
        sys.path.insert(0, str(source))
        from model_inference.multi_step.execution_role_step import EXECUTION_STEP  # type: ignore[import-not-found]
        from model_inference.multi_turn.execution_role import EXECUTION  # type: ignore[import-not-found]

        self.saved_class, self.roles = _saved_class(source), {"agent_multi_turn": EXECUTION, "agent_multi_step": EXECUTION_STEP}
        os.chdir(scratch)  # agent_eval writes its score files relative to the working folder
        import eval_main  # type: ignore[import-not-found]

        eval_main.language, eval_main.OUTPUT_PATH = "en", str(scratch / "scores")
        (scratch / "score_all" / "score_en").mkdir(parents=True, exist_ok=True)
        self.eval_main, self.scratch, self.runs = eval_main, scratch, 0

    def signatures(self) -> dict[str, dict[str, str]]:
        """Every public method of ACEBench's English multi-step classes, with its parameters."""
        import importlib

        from model_inference.multi_step.multi_step_utils import CLASS_FILE_PATH_MAPPING_EN  # type: ignore

        found = {}
        for name, module in CLASS_FILE_PATH_MAPPING_EN.items():
            found[name] = _public_signatures(getattr(importlib.import_module(module), name)())
        return found

    def replay(
        self, category: str, entry: dict[str, Any], answer: dict[str, Any], steps: list[str], process: list[str]
    ) -> dict[str, Any]:
        """Send each step to ACEBench's execution role, then score as ``eval_main`` does."""
        self.runs += 1
        model = f"spade_{self.runs}"  # ACEBench caches instances by model, entry and class
        role = self.roles[category](model, entry["initial_config"], entry["involved_classes"],
                                    entry["id"].split("_")[-1], "en")
        instances: list[Any] = []
        messages: list[Any] = []
        for text in steps:
            with contextlib.redirect_stdout(io.StringIO()):  # its refunds and balance checks print
                try:
                    message, found = role.respond([{"message": text}])
                except Exception:  # noqa: BLE001 - the multi-turn role does not catch decoder errors
                    messages.append(UNDECODABLE)
                    continue
            messages.append(message["message"])
            if isinstance(found, dict) and found not in instances:
                instances.append(found)
        saved = [
            {name: {key: value for key, value in vars(instance).items() if key in self.saved_class[name]}}
            for found in instances
            for name, instance in found.items()
        ]
        result = json.loads(json.dumps(saved, ensure_ascii=False))  # through the result file, as in ACEBench
        (self.scratch / "score_all" / "score_en" / model).mkdir(parents=True, exist_ok=True)
        with contextlib.redirect_stdout(io.StringIO()):
            accuracy, process_accuracy = self.eval_main.agent_eval(
                [{"id": entry["id"], "result": result, "process": process}], [entry], [answer], category, model
            )
        state = {name: attributes for item in result for name, attributes in item.items()}
        return {"correct": accuracy == 1.0, "process": process_accuracy, "state": state, "messages": messages}


def _public_signatures(instance: Any) -> dict[str, str]:
    """Each public method's parameters: names, kinds and defaults (not annotations)."""
    return {
        name: str(inspect.signature(method).replace(
            parameters=[p.replace(annotation=p.empty) for p in inspect.signature(method).parameters.values()],
            return_annotation=inspect.Signature.empty,
        ))
        for name, method in inspect.getmembers(instance, predicate=inspect.ismethod)
        if not name.startswith("_")
    }


# ---------------------------------------------------------------------- this suite's side
def _official_view(execution: Execution) -> list[Any]:
    """Our results as ACEBench's role hands them to the agent: each result as text, then JSON-decoded
    where it is JSON; an aborted multi-turn batch is its error string, character by character."""

    def decoded(text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text

    if execution.aborted:
        return [decoded(character) for character in execution.results[0]]
    return [decoded(describe_result(result)) for result in execution.results]


def ours_with_probes(category: str, entry: dict[str, Any], steps: list[str]) -> dict[str, Any]:
    world = World(entry["involved_classes"], entry["initial_config"])
    multi_turn = category == "agent_multi_turn"
    messages: list[Any] = []
    results = 0
    for text in steps:
        calls = milestone_calls(text)
        if not decodable(calls):
            messages.append(UNDECODABLE if multi_turn else UNDECODABLE_STEP)
            results += 1
            continue
        execution = world.execute(calls, multi_turn=multi_turn)
        messages.append(_official_view(execution))
        results += len(execution.results)
    return {"state": world.state() if world.recorded else {}, "messages": messages, "results": results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--acebench-src", type=Path, required=True, help="a checkout of chenchen0103/ACEBench")
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "acebench_agreement.json")
    args = parser.parse_args()
    data_dir, out = args.data_dir.resolve(), args.out.resolve()

    with tempfile.TemporaryDirectory() as scratch:
        official = Official(args.acebench_src.resolve(), Path(scratch))
        rows: list[dict[str, Any]] = []
        probe_rows: list[dict[str, Any]] = []
        for category in CATEGORIES:
            for entry, answer in load_category(data_dir, category):
                entry_replays = replays(entry, answer)
                for replay in entry_replays:
                    ours = replay_ours(entry, answer, replay.steps)
                    executable = [format_python_calls(calls) for calls in replay.calls]
                    theirs = official.replay(category, entry, answer, executable, list(replay.steps))
                    mine_messages = [_official_view(execution) for execution in ours.executions]
                    rows.append({
                        "entry": entry["id"],
                        "variant": replay.variant,
                        "ours": {"correct": ours.correct, "process": ours.process},
                        "acebench": {"correct": theirs["correct"], "process": theirs["process"]},
                        "same_state": (ours.state if ours.recorded else {}) == theirs["state"],
                        "same_messages": mine_messages == theirs["messages"],
                    })
                variants = {replay.variant: replay for replay in entry_replays}
                base = variants.get("repaired", variants["gold_0"])
                steps = [format_python_calls(calls) for calls in base.calls] + list(PROBES)
                theirs = official.replay(category, entry, answer, steps, steps)
                mine = ours_with_probes(category, entry, steps)
                differing = [
                    {"step": text, "ours": a, "acebench": b}
                    for text, a, b in zip(steps, mine["messages"], theirs["messages"])
                    if a != b
                ]
                probe_rows.append({
                    "entry": entry["id"],
                    "steps": len(steps),
                    "results": mine["results"],
                    "same_state": mine["state"] == theirs["state"],
                    "differing_results": differing,
                })

        theirs_tools = official.signatures()
        ours_tools = {
            name: _public_signatures(instance)
            for name, instance in World(list(theirs_tools), {}).instances.items()
        }
        tool_differences = {
            name: {"ours": ours_tools[name], "acebench": theirs_tools[name]}
            for name in theirs_tools
            if ours_tools[name] != theirs_tools[name]
        }

    agree = [row for row in rows if row["ours"] == row["acebench"] and row["same_state"] and row["same_messages"]]
    report = {
        "replays": len(rows),
        "agree": len(agree),
        "by_variant": {},
        "differ": [row for row in rows if row not in agree],
        "probes": {
            "entries": len(probe_rows),
            "steps": sum(row["steps"] for row in probe_rows),
            "results_compared": sum(row["results"] for row in probe_rows),
            "states_identical": sum(row["same_state"] for row in probe_rows),
            "differing_results": [row for row in probe_rows if row["differing_results"] or not row["same_state"]],
        },
        "tools": {
            "classes": len(theirs_tools),
            "methods": sum(len(methods) for methods in theirs_tools.values()),
            "differ": tool_differences,
        },
        "rows": rows,
    }
    for row in rows:
        variant = "gold" if row["variant"].startswith("gold") else row["variant"]
        slot = report["by_variant"].setdefault(variant, {"replays": 0, "agree": 0, "acebench_correct": 0})
        slot["replays"] += 1
        slot["agree"] += row in agree
        slot["acebench_correct"] += row["acebench"]["correct"]
    print(f"{len(agree)}/{len(rows)} replays agree (verdict, process accuracy, saved state, every result)")
    for variant, slot in report["by_variant"].items():
        print(f"  {variant:<17} {slot['agree']}/{slot['replays']} agree; ACEBench scores "
              f"{slot['acebench_correct']} correct")
    for row in report["differ"]:
        print(f"  DIFFER {row['entry']} {row['variant']}: {row}")
    probes = report["probes"]
    print(f"probes: {probes['steps']} steps ({probes['results_compared']} results) on {probes['entries']} "
          f"entries; final states identical on "
          f"{probes['states_identical']}; entries with a differing result: {len(probes['differing_results'])}")
    for row in probes["differing_results"][:10]:
        print(f"  PROBE {row['entry']}: {json.dumps(row['differing_results'][:3])[:600]}")
    tools = report["tools"]
    print(f"tools: {tools['methods']} public methods of {tools['classes']} classes; signatures differ in "
          f"{sorted(tools['differ']) or 'none'}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
