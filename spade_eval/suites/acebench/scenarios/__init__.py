"""The worlds ACEBench's agent entries act on: which classes an entry involves, and calling their tools.

A ``World`` holds one instance of each class an entry names in ``involved_classes`` (the phone classes
share one ``Device`` built from ``initial_config["BaseApi"]``). Calls arrive as parsed ``ToolCall``
structures and are dispatched by name to the tool methods the classes declare; nothing is evaluated.
Every outcome, including a call to an unknown tool or with wrong arguments, comes back as data the agent
can read.
"""

from __future__ import annotations

import json
from typing import Any

from spade_eval.suites.acebench.scenarios.phone import BaseApi, Device, FoodPlatform, MessageApi, ReminderApi
from spade_eval.suites.acebench.scenarios.travel import Travel
from spade_eval.suites.tool_calls import ToolCall

PHONE_CLASSES = {cls.name: cls for cls in (BaseApi, MessageApi, ReminderApi, FoodPlatform)}
SCENARIO_CLASSES = (*PHONE_CLASSES, Travel.name)


class UnknownScenarioError(ValueError):
    """An entry names a class this module does not implement."""


class World:
    """The instances one agent entry acts on."""

    def __init__(self, involved_classes: list[str], initial_config: dict[str, Any]) -> None:
        unknown = [name for name in involved_classes if name not in SCENARIO_CLASSES]
        if unknown:
            raise UnknownScenarioError(f"unknown ACEBench scenario class(es): {', '.join(unknown)}")
        base_config = initial_config.get("BaseApi") or {}
        device = Device(
            wifi=bool(base_config.get("wifi", False)), logged_in=bool(base_config.get("logged_in", True))
        )
        self.instances: dict[str, Any] = {}
        for name in involved_classes:
            self.instances[name] = Travel() if name == Travel.name else PHONE_CLASSES[name](device)
        self._tools = {tool: instance for instance in self.instances.values() for tool in instance.tools}

    @property
    def tool_names(self) -> frozenset[str]:
        return frozenset(self._tools)

    def call(self, call: ToolCall) -> Any:
        """Run one tool call; the result (or an error description) is always returned, never raised."""
        instance = self._tools.get(call.name)
        if instance is None:
            return {"status": False, "message": f"There is no tool named {call.name!r}."}
        try:
            return getattr(instance, call.name)(*call.positional, **call.arguments)
        except TypeError as error:  # wrong or missing arguments
            return {"status": False, "message": f"Bad arguments for {call.name}: {error}"}
        except Exception as error:  # noqa: BLE001 - a malformed value must not end the episode
            return {"status": False, "message": f"{call.name} failed: {type(error).__name__}: {error}"}

    def state(self) -> dict[str, dict[str, Any]]:
        """Each class's saved attributes as JSON data (dict keys become strings, as in the answer files)."""
        return {name: json.loads(json.dumps(instance.state())) for name, instance in self.instances.items()}


def describe_result(result: Any) -> str:
    """A tool result as the text the agent reads."""
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
