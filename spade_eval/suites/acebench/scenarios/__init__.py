"""The worlds ACEBench's agent entries act on, and how a batch of tool calls is executed on them.

A ``World`` holds one instance of each class an entry names in ``involved_classes``. Calls arrive as
parsed ``ToolCall`` structures (nothing the model wrote is evaluated) and are executed as ACEBench's
execution role executes them (``model_inference/multi_turn/multi_turn_utils.py`` and its multi-step
twin, ``execute_agent_func_call``):

- every public method of every involved class is a tool, whether or not the entry's ``function`` list
  documents it (and a documented tool no class has, ``search_reminders``, is unknown);
- a tool several classes have (``turn_on_wifi``, ``login_device``: every phone class inherits them) runs
  on each of them in ``involved_classes`` order, and the call's result is the last one's;
- keyword arguments only: positional ones are dropped, as ACEBench's call decoder drops them, and a
  batch with a dict-valued argument is not executed at all (``decodable``);
- an exception becomes the text ``Error during execution: <exception>``. In a multi-step entry it is
  that call's result and the batch goes on; in a multi-turn entry it ends the batch, and the whole
  batch's result is ACEBench's literal ``Error during execution: {str(e)}`` (its missing ``f``);
- a call of an unknown tool gives the result of the batch's previous successful call again, or, when
  there is none, the error ACEBench's unassigned result variable raises;
- the state ACEBench saves for the checker exists once a batch has counted: any batch of a multi-step
  entry, a batch without an exception in a multi-turn entry (``recorded``).
"""

from __future__ import annotations

import copy
import inspect
import json
from dataclasses import dataclass
from typing import Any

from spade_eval.suites.acebench.scenarios.phone import BaseApi, FoodPlatform, MessageApi, ReminderApi
from spade_eval.suites.acebench.scenarios.travel import Travel
from spade_eval.suites.tool_calls import ToolCall

PHONE_CLASSES: dict[str, type[BaseApi]] = {
    "BaseApi": BaseApi,
    "MessageApi": MessageApi,
    "ReminderApi": ReminderApi,
    "FoodPlatform": FoodPlatform,
}
SCENARIO_CLASSES = (*PHONE_CLASSES, "Travel")
EXECUTION_ERROR = "Error during execution: "
MULTI_TURN_ERROR = "Error during execution: {str(e)}"
"""What a multi-turn batch with an exception returns in ACEBench: the format string itself."""
UNASSIGNED_RESULT = "cannot access local variable 'func_call_result' where it is not associated with a value"
"""The UnboundLocalError ACEBench's executor raises for an unknown tool before any result (Python 3.11+)."""


class UnknownScenarioError(ValueError):
    """An entry names a class this module does not implement."""


@dataclass(frozen=True)
class Execution:
    """What one batch of calls returned: one result per call, as it was when the batch ended (ACEBench
    writes the results out then, so a flight listed by one call shows the seat a later call of the same
    batch took), or, for a multi-turn batch that raised, the single error text (``aborted``; the calls
    after the failing one did not run)."""

    results: list[Any]
    aborted: bool = False


class World:
    """The instances one agent entry acts on."""

    def __init__(self, involved_classes: list[str], initial_config: dict[str, Any]) -> None:
        unknown = [name for name in involved_classes if name not in SCENARIO_CLASSES]
        if unknown:
            raise UnknownScenarioError(f"unknown ACEBench scenario class(es): {', '.join(unknown)}")
        base_config = initial_config.get("BaseApi", {})
        self.instances: dict[str, Any] = {
            name: Travel() if name == "Travel" else PHONE_CLASSES[name](base_config) for name in involved_classes
        }
        self._tools: dict[str, list[Any]] = {}
        for instance in self.instances.values():
            for tool, _method in inspect.getmembers(instance, predicate=inspect.ismethod):
                if not tool.startswith("_"):
                    self._tools.setdefault(tool, []).append(instance)
        self.recorded = False
        """Whether ACEBench would have saved this world's state (see the module docstring)."""

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(self._tools)

    def execute(self, calls: list[ToolCall], *, multi_turn: bool) -> Execution:
        """Run one batch of calls (one agent message) as ACEBench's multi-turn or multi-step executor."""
        results: list[Any] = []
        last: Any = _UNASSIGNED
        for call in calls:
            try:
                for instance in self._tools.get(call.name, []):
                    last = getattr(instance, call.name)(**call.arguments)
                if last is _UNASSIGNED:
                    raise UnboundLocalError(UNASSIGNED_RESULT)
                results.append(last)
            except Exception as error:  # noqa: BLE001 - every failure is reported to the agent, as in ACEBench
                if multi_turn:
                    return Execution([MULTI_TURN_ERROR], aborted=True)
                results.append(f"{EXECUTION_ERROR}{error}")
        self.recorded = True
        return Execution(copy.deepcopy(results))

    def call(self, call: ToolCall, *, multi_turn: bool = False) -> Any:
        """One call as a batch of its own; its result."""
        return self.execute([call], multi_turn=multi_turn).results[0]

    def state(self) -> dict[str, dict[str, Any]]:
        """Each class's saved attributes (ACEBench's ``SAVED_CLASS``) as the JSON its result files hold
        (integer dict keys become strings, as in the answer files)."""
        saved = {
            name: {key: value for key, value in vars(instance).items() if key in instance.saved_attributes}
            for name, instance in self.instances.items()
        }
        return json.loads(json.dumps(saved, default=str))


_UNASSIGNED: Any = object()


def decodable(calls: list[ToolCall]) -> bool:
    """Whether ACEBench's call decoder can write these calls back as code: it reads a dict-valued
    argument as a nested call (``{"f": {...}}`` -> ``f(...)``) and fails on any other dict, so a batch
    with a dict-valued argument is never executed there (nor here, where nested calls are not made)."""
    return not any(isinstance(value, dict) for call in calls for value in call.arguments.values())


def describe_result(result: Any) -> str:
    """A tool result as ACEBench's executor turns it into text: strings as they are, dicts as JSON,
    anything else (a list, a number, None) through ``str``."""
    if isinstance(result, str):
        return result
    if isinstance(result, dict):
        try:
            return json.dumps(result)
        except (TypeError, ValueError):
            return str(result)
    return str(result)
