"""The session re-checks every reply on the host: what a guest may claim, and a session that replied badly.

A scripted transport stands in for a compromised guest, so each forged reply is exactly the one under test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from spade_envs.runtime import EnvCodeError, EnvCrashError, EnvLoadError, EnvMemoryError, EnvTimeoutError
from spade_envs.runtime.errors import ContractViolation
from spade_envs.runtime.replies import decode_wire_reply
from spade_envs.runtime.session import EnvSession

SOURCE = "line 1\nline 2\nline 3\n"
LOADED = {"ok": True, "result": {"class_name": "FakeEnv", "tool_use": False, "max_turns": 5, "reward_range": None}}
RESET = {"ok": True, "result": ["observation", {}]}
STEP = {"ok": True, "result": ["observation", 0.0, False, False, {}]}


class ScriptedTransport:
    """Answers requests with the next scripted reply; records what it was asked."""

    def __init__(self, replies: Iterator[dict[str, Any]], opened: list[ScriptedTransport]) -> None:
        self.replies, self.requests, self.closed = replies, [], False
        opened.append(self)

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(request["op"])
        if request["op"] == "close":
            return {"ok": True, "result": None}
        return next(self.replies)

    def close(self) -> None:
        self.closed = True


def session_with(*replies: dict[str, Any]) -> tuple[EnvSession, list[ScriptedTransport]]:
    """A session whose first transport replies ``LOADED`` then ``replies``; later transports behave."""
    opened: list[ScriptedTransport] = []
    scripts = iter([iter([LOADED, *replies]), *(iter([LOADED, RESET, STEP, STEP]) for _ in range(3))])
    session = EnvSession(lambda: ScriptedTransport(next(scripts), opened), SOURCE)
    return session, opened


def error(kind: str, **fields: Any) -> dict[str, Any]:
    return {"ok": False, "error": {"kind": kind, **fields}}


def test_a_guest_cannot_claim_a_timeout_and_its_session_is_replaced():
    session, opened = session_with(RESET, error("timeout", message="ran longer than 1 s"))
    session.reset(0)
    with pytest.raises(EnvCrashError, match="kind 'timeout'") as caught:
        session.step("x")
    assert not isinstance(caught.value, EnvTimeoutError)
    assert opened[0].closed
    session.reset(1)  # a fresh instance
    assert len(opened) == 2


def test_a_load_error_after_loading_retires_the_session():
    session, opened = session_with(RESET, error("load", message="no class"), RESET)
    session.reset(0)
    with pytest.raises(EnvCrashError, match="kind 'load'"):
        session.step("x")
    assert opened[0].closed
    assert session.reset(1).observation == "observation" and len(opened) == 2


def test_a_load_error_in_reply_to_the_load_is_a_load_error_and_closes_the_transport():
    opened: list[ScriptedTransport] = []
    with pytest.raises(EnvLoadError, match="no environment class"):
        EnvSession(lambda: ScriptedTransport(iter([error("load", message="no environment class")]), opened), SOURCE)
    assert opened[0].closed


def test_exception_fields_are_what_the_host_can_vouch_for():
    forged = error("exception", type="EnvTimeoutError", phase="timeout", line=10**4000,
                   message="ran longer than 1 s\n" * 5000, traceback="\x1b[2J" * 10_000)
    session, opened = session_with(RESET, forged)
    session.reset(0)
    with pytest.raises(EnvCodeError) as caught:
        session.step("x")
    found = caught.value
    assert found.phase == "step" and found.line is None
    assert found.exc_type == "EnvTimeoutError (an exception class of the environment)"
    assert len(found.exc_message) <= 300 and "\n" not in found.exc_message
    assert len(found.traceback) <= 8_000 and opened[0].closed


@pytest.mark.parametrize(("line", "kept"), [(2, 2), (4, 4), (5, None), (0, None), (True, None), ("2", None)])
def test_only_lines_of_the_source_are_kept(line, kept):
    session, _ = session_with(RESET, error("exception", type="ValueError", message="boom", line=line))
    session.reset(0)
    with pytest.raises(EnvCodeError) as caught:
        session.step("x")
    assert caught.value.line == kept


def test_memory_and_size_errors_keep_their_meaning_and_retire_the_session():
    session, opened = session_with(RESET, error("memory"), )
    session.reset(0)
    with pytest.raises(EnvMemoryError):
        session.step("x")
    assert opened[0].closed


def test_play_with_more_replies_than_actions_is_malformed():
    replies = [["observation", {}]] + [["o", 0.0, False, False, {}]] * 5
    session, opened = session_with({"ok": True, "result": replies})
    with pytest.raises(EnvCrashError, match="play"):
        session.play(0, ["a", "b"])
    assert opened[0].closed


@pytest.mark.parametrize("index", [True, 0, -1, 10**6, "1"])
def test_a_forged_sibling_index_is_malformed(index):
    session, opened = session_with({"ok": True, "result": index})
    with pytest.raises(EnvCrashError, match="spawn"):
        session.spawn_sibling()
    assert opened[0].closed


@pytest.mark.parametrize("declared", [[float("nan"), 1.0], [1.0, -1.0], [-(10**400), 10**400], [0, float("inf")]])
def test_a_reward_range_no_comparison_can_use_is_a_load_error(declared):
    opened: list[ScriptedTransport] = []
    loaded = {"ok": True, "result": {**LOADED["result"], "reward_range": declared}}
    with pytest.raises(ContractViolation, match="reward_range must be two finite numbers"):
        EnvSession(lambda: ScriptedTransport(iter([loaded]), opened), SOURCE)
    assert opened[0].closed  # no transport is leaked by a failed load


def test_the_class_name_is_bounded():
    loaded = {"ok": True, "result": {**LOADED["result"], "class_name": "X" * 100_000}}
    session = EnvSession(lambda: ScriptedTransport(iter([loaded]), []), SOURCE)
    assert len(session.loaded.class_name) == 200


def test_captured_output_is_cut_to_the_limit_on_the_host():
    raw = '{"ok": true, "result": null, "output": "' + "o" * 100_000 + '"}'
    reply, output = decode_wire_reply(raw, "the sandbox", "step", 64 * 1024)
    assert reply == {"ok": True, "result": None} and len(output) == 64 * 1024


def _deepest(value: Any) -> int:
    """Levels of containers above the deepest item (0 for a scalar or an empty container)."""
    children = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, (list, tuple)) else []
    return 1 + max(map(_deepest, children)) if children else 0


def test_the_info_depth_check_agrees_with_its_definition_on_random_values():
    """``_depth_exceeds`` (level by level, with a fast path for a flat dict) against the recursive definition,
    including the limits 0 and 1 where the fast path must not answer."""
    import random

    from spade_envs.runtime.replies import _depth_exceeds

    rng = random.Random(0)

    def draw(depth: int) -> Any:
        roll = rng.random()
        if depth > 6 or roll < 0.4:
            return rng.choice([1, "x", 2.0, None, True])
        if roll < 0.7:
            return {str(i): draw(depth + 1) for i in range(rng.randrange(4))}
        return [draw(depth + 1) for _ in range(rng.randrange(4))] if roll < 0.85 else tuple(draw(depth + 1) for _ in range(2))

    for _ in range(3000):
        value = draw(0)
        for limit in (0, 1, 2, 3, 64):
            assert _depth_exceeds(value, limit) == (_deepest(value) > limit), (value, limit)
    assert _depth_exceeds({"a": 1}, 0) and not _depth_exceeds({"a": 1}, 1) and not _depth_exceeds({}, 0)
