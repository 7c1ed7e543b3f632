"""A pool shaped like the one ``make demo`` exports, built in a second, for the interop tests.

``make demo`` trains for many minutes; its pool holds signal-language environments
(``spade_train.designer.signal_language``) with their accepted hints and regret statistics. This fixture
renders a few designs the same way, records them as the run does (``EnvironmentRecord`` with the hint,
``write_pool`` with the statistics) and adds a bundled tool-use environment, so the stacks see single
moves in ``\\boxed{}`` and tool calls. ``signal_agent`` plays the signal game as an agent that read the
hint would, so tests can tell a reward that came from the environment from noise.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spade_envs.pool import write_pool
from spade_envs.registry import bundled_registry
from spade_envs.spec.models import EnvSpec, Provenance, env_id_for
from spade_train.designer.signal_language import CODES, COLOURS, SignalDesign, render_environment
from spade_train.environments import EnvironmentRecord, pool_entries

DESIGNS = (SignalDesign("oak", 3, 3, 1), SignalDesign("elm", 4, 4, 0), SignalDesign("ash", 2, 3, 1))
TOOL_ENV = "warehouse_tools"


def demo_records() -> list[EnvironmentRecord]:
    """Three signal games with their hints, and the bundled warehouse tool-use environment."""
    records = []
    for design in DESIGNS:
        code = render_environment(design)
        spec = EnvSpec(id=env_id_for(code), class_name="SignalGameEnv", kind="multi_turn_game",
                       skill="Logical Deduction", max_turns=10, reward_range=(0.0, 1.0),
                       provenance=Provenance(author="tiny-qwen2", step=3), description=f"signal game {design}")
        records.append(EnvironmentRecord(spec, code).with_hint(design.hint))
    tools = bundled_registry().get(TOOL_ENV)
    records.append(EnvironmentRecord(tools.spec(), tools.source(), name=TOOL_ENV))
    return records


def write_demo_pool(directory: Path) -> Path:
    records = demo_records()
    stats = {record.id: {"regret": 0.5, "hinted_win_rate": 1.0, "unhinted_win_rate": 0.5} for record in records}
    write_pool(directory, "spade-demo", pool_entries(records), validated=True, stats=stats)
    return directory


@pytest.fixture(scope="session")
def demo_pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_demo_pool(tmp_path_factory.mktemp("demo") / "pool")


_SIGNAL = re.compile(r"signal : (\w+) \.")
_CODE = re.compile(r"code (\w+) \.")


def signal_agent(transcript: str) -> str:
    """The move an agent that read the hint (``code X .``) plays for the last signal shown."""
    codes = _CODE.findall(transcript)
    signals = _SIGNAL.findall(transcript)
    if not codes or not signals or codes[-1] not in CODES or signals[-1] not in COLOURS:
        return "\\boxed{left}"
    move = dict(zip(COLOURS, CODES[codes[-1]]))[signals[-1]]
    return f"I follow the code. \\boxed{{{move}}}"
