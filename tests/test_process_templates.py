"""The process backend forks each session from a template that has imported the environment's libraries
(``runtime/process_zygote.py``): as fresh as a new interpreter, without importing the libraries again."""

from __future__ import annotations

import os
from textwrap import dedent

import pytest

from spade_envs.runtime import EnvMemoryError, EnvTimeoutError, ExecutionLimits, create_backend
from spade_envs.runtime.process import ProcessBackend, libraries_imported

LIMITS = ExecutionLimits(call_timeout_s=2.0, memory_mb=400)  # a new interpreter must hold numpy

# Module state a session changes, and who its parent is: a fork of the template, or a new interpreter.
STATEFUL = dedent('''
    import os

    import numpy

    RESETS = []


    class StatefulEnv:
        def __init__(self, max_turns=3, **kwargs):
            self.max_turns = max_turns

        def reset(self, seed=None):
            RESETS.append(seed)
            return f"resets={len(RESETS)} parent={os.getppid()} numpy={numpy.__name__}", {}

        def step(self, action):
            if action == "allocate":
                return str(len(bytearray(2048 << 20))), 0.0, True, False, {}
            if action == "spin":
                while True:
                    pass
            return "ok", 0.0, True, False, {}

        def solution(self):
            return "x"
''')


def _parent(observation: str) -> int:
    return int(observation.split("parent=")[1].split()[0])


def test_sessions_are_forks_of_one_template_and_start_fresh():
    backend = ProcessBackend(LIMITS)
    try:
        seen = []
        for _ in range(3):
            with backend.open_session(STATEFUL) as session:
                session.reset(0)
                seen.append(session.reset(1).observation)
        # The environment's module is loaded after the fork: a session never sees another's module state.
        assert all(text.startswith("resets=2 ") for text in seen), seen
        (template,) = backend._templates.values()
        assert template.preload == ("numpy",)
        assert {_parent(text) for text in seen} == {template._process.pid}
    finally:
        backend.close()


def test_a_forked_session_keeps_its_limits_and_a_dead_template_is_replaced_by_new_interpreters():
    backend = ProcessBackend(LIMITS)
    try:
        with backend.open_session(STATEFUL) as session:
            session.reset(0)
            with pytest.raises(EnvMemoryError):  # 2 GB over a 400 MB allowance, above what numpy maps
                session.step("allocate")
        with backend.open_session(STATEFUL) as session:
            session.reset(0)
            with pytest.raises(EnvTimeoutError):
                session.step("spin")
        (template,) = backend._templates.values()
        template._process.kill()
        template._process.wait()
        with backend.open_session(STATEFUL) as session:  # the broken template is noticed, the session runs
            assert _parent(session.reset(0).observation) == os.getpid()
        with backend.open_session(STATEFUL) as session:  # and the next session gets a new template
            parent = _parent(session.reset(0).observation)
            assert parent not in (os.getpid(), template._process.pid)
    finally:
        backend.close()


def test_closing_the_backend_stops_its_templates():
    backend = ProcessBackend(LIMITS)
    with backend.open_session(STATEFUL) as session:
        session.reset(0)
    (template,) = backend._templates.values()
    backend.close()
    assert template._process.poll() is not None


def test_without_templates_every_session_is_a_new_interpreter():
    backend = ProcessBackend(LIMITS, templates=False)
    with backend.open_session(STATEFUL) as session:
        assert _parent(session.reset(0).observation) == os.getpid()
    assert not backend._templates


def test_a_backend_sent_to_another_process_takes_its_settings_not_its_templates():
    import pickle

    backend = create_backend("process", LIMITS)
    with backend.open_session(STATEFUL) as session:
        session.reset(0)
    copy = pickle.loads(pickle.dumps(backend))
    assert copy.limits == backend.limits and copy.templates and not copy._templates
    backend.close()


@pytest.mark.parametrize(("source", "expected"), [
    ("import numpy\nimport os, json\nfrom textarena.envs import registration\n", ("numpy", "textarena.envs")),
    ("from . import sibling\nfrom __future__ import annotations\nimport collections.abc\n", ()),
    ("def f():\n    import numpy\n", ()),  # imports inside functions run in the session, not the template
    ("import gem.envs as g\nimport reasoning_gym\nimport gem\n", ("gem", "gem.envs", "reasoning_gym")),
    ("def broken(:\n", ()),
])
def test_a_template_preloads_the_libraries_a_file_imports_at_its_top_level(source, expected):
    assert libraries_imported(source) == expected
