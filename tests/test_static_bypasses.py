"""The static tier's cheap bypasses are closed, ordinary code still passes, and the checker cannot be crashed.

The static tier is designer feedback, not the security boundary (the sandbox is; see
tests/test_sandbox_hostile.py). These tests pin down which tricks it sees through.
"""

from __future__ import annotations

import time

import pytest

from spade_envs.checks import run_static_checks
from spade_envs.checks.folding import MAX_CHARS, ConstantFolder
from tests.conftest import COUNTER_ENV

BYPASSES = {
    "reversed literal": ('x = getattr(obj, "__slabolg__"[::-1])', "forbidden_attribute"),
    "percent formatting": ('x = getattr(obj, "%sglobals%s" % ("__", "__"))', "forbidden_attribute"),
    "str.join": ('x = getattr(obj, "".join(["__", "glob", "als__"]))', "forbidden_attribute"),
    "join of reversed": ('x = getattr(obj, "".join(reversed("__slabolg__")))', "forbidden_attribute"),
    "str.format": ('x = getattr(obj, "{}globals{}".format("_" * 2, "_" * 2))', "forbidden_attribute"),
    "f-string of constants": ('U = "_"\nx = getattr(obj, f"{U}{U}globals{U * 2}")', "forbidden_attribute"),
    "chr arithmetic": ('x = getattr(obj, chr(90 + 5) * 2 + "globals" + chr(ord("^") + 1) * 2)', "forbidden_attribute"),
    "case methods": ('x = getattr(obj, "__GLOBALS__".lower())', "forbidden_attribute"),
    "replace": ('x = getattr(obj, "--globals--".replace("-", "_"))', "forbidden_attribute"),
    "names assigned once": ('A = "__glo"\nB = A + "bals__"\nx = getattr(obj, B)', "forbidden_attribute"),
    "format string escape": ('x = ("{0.__" + "globals__}").format(f)', "forbidden_attribute"),
    "computed name": ("def f(obj, name):\n    return getattr(obj, name)", "forbidden_attribute"),
    "computed with unknown count": ('def f(obj, n):\n    return getattr(obj, "_" * n + "globals" + "_" * n)',
                                    "forbidden_attribute"),
    "underscore prefix": ('def f(obj, n):\n    return getattr(obj, "_" + n)', "forbidden_attribute"),
    "setattr computed": ("def f(obj, n, v):\n    setattr(obj, n, v)", "forbidden_attribute"),
    "hasattr computed": ("def f(obj, n):\n    return hasattr(obj, n)", "forbidden_attribute"),
    "delattr computed": ("def f(obj, n):\n    delattr(obj, n)", "forbidden_attribute"),
    "mro literal": ('x = getattr(int, "mro")', "forbidden_attribute"),
    "getattr renamed": ("g = getattr", "forbidden_attribute"),
    "getattr passed": ('x = list(map(getattr, [1], ["real"]))', "forbidden_attribute"),
    "attrgetter computed": ("import operator\ndef f(n):\n    return operator.attrgetter(n)", "forbidden_attribute"),
    "attrgetter imported": ('from operator import attrgetter\nx = attrgetter("__glo" + "bals__")',
                            "forbidden_attribute"),
    "methodcaller computed": ("import operator\ndef f(n):\n    return operator.methodcaller(n)",
                              "forbidden_attribute"),
    "from dataclasses import sys": ("from dataclasses import sys", "imports"),
    "from random import _os": ("from random import _os", "imports"),
    "from typing import sys as s": ("from typing import sys as s", "imports"),
    "module attribute": ("import dataclasses\nx = dataclasses.sys.modules", "forbidden_attribute"),
    "aliased module attribute": ("import random as r\nx = r._os", "forbidden_attribute"),
    "module behind a module": ("import textwrap\nx = textwrap.re.copyreg", "forbidden_attribute"),
    "getattr on a module": ('import random\nx = getattr(random, "_os")', "forbidden_attribute"),
    "computed getattr on a module": ("import math\ndef f(n):\n    return getattr(math, n)", "forbidden_attribute"),
    "typing.get_type_hints": ("import typing\nx = typing.get_type_hints", "forbidden_name"),
    "from typing import ForwardRef": ("from typing import ForwardRef", "forbidden_name"),
}

ALLOWED = {
    "literal prefix": 'def f(obj, name):\n    return getattr(obj, "tool_" + name)',
    "f-string prefix": 'def f(obj, verb):\n    return getattr(obj, f"_handle_{verb}", None)',
    "literal suffix": 'def f(obj, kind):\n    return hasattr(obj, kind + "_handler")',
    "format prefix": 'def f(obj, n):\n    return getattr(obj, "cmd_{}".format(n))',
    "ordinary literal": 'x = getattr(obj, "pending_action", "")',
    "public module member": 'import math\ndef f(n):\n    return getattr(math, "sin" + n)',
    "allowed submodule": "from collections import abc\nimport collections.abc\nx = collections.abc.Sequence",
    "json submodule": "import json\nx = json.decoder.JSONDecodeError",
    "attrgetter literal": 'import operator\nx = operator.attrgetter("real", "imag")',
    "dunder class": 'x = type(obj).__name__ + getattr(obj, "__class__").__name__',
    "future import": "from __future__ import annotations",
}


@pytest.mark.parametrize(("snippet", "check"), list(BYPASSES.values()), ids=list(BYPASSES))
def test_cheap_bypasses_are_rejected(snippet: str, check: str) -> None:
    source = COUNTER_ENV + "\n\n" + snippet + "\n"
    failures = run_static_checks(source).failures
    first_line = COUNTER_ENV.count("\n") + 3
    hits = [f for f in failures if f.check == check and f.line is not None and f.line >= first_line]
    assert hits, [(f.check, f.line, f.message) for f in failures]
    assert all("\n" not in f.message for f in failures)


@pytest.mark.parametrize("snippet", list(ALLOWED.values()), ids=list(ALLOWED))
def test_ordinary_code_still_passes(snippet: str) -> None:
    result = run_static_checks(snippet + "\n" + COUNTER_ENV)
    assert result.ok, [(f.check, f.line, f.message) for f in result.failures]


def test_long_chains_and_deep_nesting_do_not_crash_the_checker() -> None:
    chained = COUNTER_ENV + "\nBANNER = " + " + ".join(['"ab"'] * 1500) + "\n"
    assert run_static_checks(chained).ok
    deep = COUNTER_ENV + "\nDEPTH = " + "-" * 5000 + "1\n"
    (failure,) = run_static_checks(deep).failures
    assert failure.check == "syntax" and "nested too deeply" in failure.message


def test_folding_is_bounded_in_size_and_time() -> None:
    """Values a fold would make huge stay unknown, and a file of hostile constants is read in well under a second."""
    source = "\n".join([
        "A = 'x' * 10**9",
        "B = ('{}' * 5000).format(*(['y' * 9000] * 5000))",
        "C = '%09999d' % 1",
        "D = 'z' * 9000",
        *[f"E{i} = f'{{D}}{{D}}'" for i in range(2000)],
        "T = (" + ", ".join(["'" + "w" * 60 + "'"] * 1500) + ")",
        "S = str(T)",
    ])
    started = time.perf_counter()
    result = run_static_checks(source)
    # About 0.4 s on the reference VM; folding the constants out would take minutes and gigabytes.
    assert time.perf_counter() - started < 10.0
    assert [f.check for f in result.failures] == ["env_class"]
    import ast

    folder = ConstantFolder(ast.parse(source))
    assert all(len(text) <= MAX_CHARS for text, _ in folder.strings())
