"""Static checks on small snippets: each finding names its check and line."""

from __future__ import annotations

import pytest

from spade_envs.checks import run_static_checks
from tests.conftest import COUNTER_ENV, dedent


def _failures(source: str) -> set[tuple[str, int | None]]:
    return {(f.check, f.line) for f in run_static_checks(source).failures}


def test_reference_style_environment_passes():
    result = run_static_checks(COUNTER_ENV)
    assert result.ok, result.failures
    assert result.class_name == "CounterEnv" and not result.tool_use


@pytest.mark.parametrize(
    ("snippet", "check"),
    [
        ("import os", "imports"),
        ("import collections.abc\nimport subprocess", "imports"),
        ("from pathlib import Path", "imports"),
        ("from . import helpers", "imports"),
        ("x = eval('1')", "forbidden_name"),
        ("f = open", "forbidden_name"),
        ("x = ().__class__.__base__.__subclasses__()", "forbidden_attribute"),
        ("x = getattr(int, '__globals__', None)", "forbidden_attribute"),
        ("x = __builtins__", "forbidden_name"),
    ],
)
def test_escape_hatches_are_rejected_with_their_line(snippet, check):
    source = COUNTER_ENV + "\n\n" + snippet + "\n"
    found = _failures(source)
    line = COUNTER_ENV.count("\n") + 3 + snippet.count("\n")
    assert (check, line) in found, found


def test_allowed_imports_pass():
    source = "import collections.abc\nfrom typing import Any\nfrom __future__ import annotations\n" + COUNTER_ENV
    assert not [f for f in run_static_checks(source).failures if f.check == "imports"]


def test_syntax_error_reports_line():
    assert _failures("class BrokenEnv:\n    def reset(self\n") == {("syntax", 2)}


def test_env_class_count():
    assert {c for c, _ in _failures("class Helper:\n    pass\n")} == {"env_class"}
    two = COUNTER_ENV + "\nclass OtherEnv(CounterEnv):\n    pass\n"
    assert "env_class" in {c for c, _ in _failures(two)}
    private_helper = COUNTER_ENV + "\nclass _HelperEnv:\n    pass\n"
    assert run_static_checks(private_helper).ok


def test_required_methods_and_signatures():
    source = COUNTER_ENV.replace("def solution(self):", "def answer(self):")
    assert "required_methods" in {c for c, _ in _failures(source)}
    source = COUNTER_ENV.replace("def __init__(self, max_turns=5, **kwargs):", "def __init__(self, size):")
    assert "method_signature" in {c for c, _ in _failures(source)}
    source = COUNTER_ENV.replace("def reset(self, seed=None):", "def reset(self):")
    assert "method_signature" in {c for c, _ in _failures(source)}
    source = COUNTER_ENV.replace("def step(self, action):", "def step(self):")
    assert "method_signature" in {c for c, _ in _failures(source)}


def test_tool_use_subclass_inherits_step_and_close():
    source = dedent(
        """
        class ShopEnv(ToolUseBaseEnv):
            def reset(self, seed=None):
                return "task", {}

            def solution(self):
                return ["done"]
        """
    )
    result = run_static_checks(source)
    assert result.ok and result.tool_use and not result.warnings


def test_warnings_do_not_fail():
    source = COUNTER_ENV.replace("def close(self):\n        pass\n", "").replace("boxed", "wrapped")
    result = run_static_checks(source)
    assert result.ok
    assert {w.check for w in result.warnings} == {"close_method", "boxed_actions"}


def test_every_message_is_one_line_and_actionable():
    source = "import os\nimport socket\nclass AEnv:\n    def reset(self):\n        return eval('1')\n"
    for failure in run_static_checks(source).failures:
        assert "\n" not in failure.message and len(failure.message) > 20
