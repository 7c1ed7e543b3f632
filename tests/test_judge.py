"""The model judge tier: its questions, how its replies become findings, and that a bad judge never rejects.

A scripted judge stands in for the model; the endpoint client is tested against a real local HTTP server
that speaks the OpenAI chat-completions shape (no mock of any library's API).
"""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from spade_envs.checks import validate_source
from spade_envs.checks.judge import (
    JUDGE_CHECKS,
    EndpointJudge,
    JudgeMaterial,
    JudgeSettings,
    ScriptedJudge,
    judge_environment,
    parse_verdict,
)
from spade_envs.checks.judge.prompts import QUESTIONS
from spade_envs.checks.validate import ValidatorConfig
from spade_envs.cli import main
from spade_envs.fuzz.runner import FuzzConfig
from spade_envs.runtime import create_backend
from tests.conftest import COUNTER_ENV

MATERIAL = JudgeMaterial("class XEnv: ...", ("Find the farthest town.",), ("'Oslo'",), None)
ALL_GOOD = json.dumps({"checker_matches_text": {"answer": "yes", "reason": "exact compare"},
                       "solvable_from_view": {"answer": "yes", "reason": "all shown"},
                       "hint_or_reply_gives_answer": {"answer": "no", "reason": "nothing leaks"}})
MISMATCH = json.dumps({"checker_matches_text": {"answer": "no", "reason": "text asks farthest, code takes min()"},
                       "solvable_from_view": {"answer": "yes", "reason": "all shown"},
                       "hint_or_reply_gives_answer": {"answer": "no", "reason": "nothing leaks"}})
QUICK = ValidatorConfig(fuzz=FuzzConfig(examples=5), tiers=("static", "contract", "feasibility"))


def test_every_question_is_a_catalogued_check() -> None:
    from spade_envs.checks import CHECKS_BY_NAME

    assert set(JUDGE_CHECKS) == {f"judge_{key}" for key in QUESTIONS}
    assert all(name in CHECKS_BY_NAME for name in JUDGE_CHECKS)


def test_the_prompt_holds_the_code_the_task_the_solution_and_every_question() -> None:
    user = MATERIAL.messages()[1]["content"]
    assert "class XEnv" in user and "farthest town" in user and "'Oslo'" in user
    assert all(key in user for key in QUESTIONS)


def test_a_no_becomes_a_finding_quoting_the_reason() -> None:
    findings = asyncio.run(judge_environment(ScriptedJudge([MISMATCH]), MATERIAL))
    assert [f.check for f in findings] == ["judge_checker_matches_text"]
    assert "text asks farthest, code takes min()" in findings[0].message
    assert "heuristic" in findings[0].message and findings[0].severity == "error"
    assert asyncio.run(judge_environment(ScriptedJudge([ALL_GOOD]), MATERIAL)) == []


@pytest.mark.parametrize("reply", [None, "", "I think it is fine.", "{not json", "[1, 2]", "{\"x\": 1}",
                                   '{"checker_matches_text": "maybe"}', "{" * 5000, "x" * 100_000])
def test_an_unreadable_reply_is_no_finding(reply) -> None:
    assert asyncio.run(judge_environment(ScriptedJudge([reply]), MATERIAL)) == []


def test_a_reply_wrapped_in_prose_and_with_booleans_is_read() -> None:
    reply = 'Sure! Here you go: {"checker_matches_text": false, "solvable_from_view": true} Hope that helps.'
    assert parse_verdict(reply) == {"checker_matches_text": ("no", ""), "solvable_from_view": ("yes", "")}


def test_a_judge_that_raises_never_crashes_the_checker() -> None:
    class Broken:
        async def ask(self, messages):
            raise RuntimeError("the endpoint exploded")

    assert asyncio.run(judge_environment(Broken(), MATERIAL)) == []


def test_a_hostile_reason_is_one_bounded_line() -> None:
    reply = json.dumps({"solvable_from_view": {"answer": "no", "reason": "line\nbreak\x1b[31m" + "y" * 5000}})
    [finding] = asyncio.run(judge_environment(ScriptedJudge([reply]), MATERIAL))
    assert "\n" not in finding.message and "\x1b" not in finding.message and len(finding.message) < 800


def test_the_validator_asks_the_judge_only_about_environments_the_checks_accepted() -> None:
    backend = create_backend("wasm")
    judge = ScriptedJudge([MISMATCH])
    report = validate_source(COUNTER_ENV, backend, config=QUICK, judge=judge)
    assert not report.ok and [f.check for f in report.failures] == ["judge_checker_matches_text"]
    assert len(judge.asked) == 1 and "CounterEnv" in judge.asked[0][1]["content"]
    outcome = {o.check: o.status for o in report.checks}
    assert outcome["judge_checker_matches_text"] == "failed" and outcome["judge_solvable_from_view"] == "passed"
    broken = "class BrokenEnv:\n    pass\n"
    judge = ScriptedJudge([MISMATCH])
    assert not validate_source(broken, backend, config=QUICK, judge=judge).ok and judge.asked == []


def test_judge_findings_can_be_warnings() -> None:
    backend = create_backend("wasm")
    config = ValidatorConfig(fuzz=FuzzConfig(examples=5), tiers=("static", "contract", "feasibility"),
                             judge=JudgeSettings("http://127.0.0.1:9", severity="warning"))
    report = validate_source(COUNTER_ENV, backend, config=config, judge=ScriptedJudge([MISMATCH]))
    assert report.ok and [w.check for w in report.warnings if w.check.startswith("judge")] == [
        "judge_checker_matches_text"]


class _Server:
    """A local OpenAI-compatible endpoint answering every chat with one reply, recording the requests."""

    def __init__(self, reply: str) -> None:
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _send(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # /v1/models
                self._send({"data": [{"id": "judge-model"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                outer.requests.append(json.loads(self.rfile.read(length)))
                self._send({"choices": [{"message": {"role": "assistant", "content": reply}}]})

        self.httpd = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


def test_the_endpoint_judge_asks_a_served_model() -> None:
    server = _Server(MISMATCH)
    try:
        findings = asyncio.run(judge_environment(EndpointJudge(server.url), MATERIAL))
        assert [f.check for f in findings] == ["judge_checker_matches_text"]
        assert server.requests[0]["model"] == "judge-model" and server.requests[0]["temperature"] == 0.0
        assert asyncio.run(EndpointJudge("http://127.0.0.1:9/v1", "m", timeout_s=2).ask([])) is None  # nothing there
    finally:
        server.close()


def test_spade_envs_validate_takes_a_judge(tmp_path, capsys) -> None:
    path = tmp_path / "counter.py"
    path.write_text(COUNTER_ENV, encoding="utf-8")
    server = _Server(MISMATCH)
    try:
        code = main(["validate", str(path), "--json", "--examples", "0", "--jobs", "1", "--judge",
                     server.url + "#judge-model"])
    finally:
        server.close()
    report = json.loads(capsys.readouterr().out)["results"][0]
    assert code == 1 and [f["check"] for f in report["failures"]] == ["judge_checker_matches_text"]
    assert server.requests and server.requests[0]["model"] == "judge-model"
    assert report["plan_seed"] is not None


# ---------------------------------------------------------------------- the judge and warnings in self-play
def _loop(**options):
    from spade_train.config.sections import LoopSection

    return LoopSection(fuzz_examples=0, validation_workers=0, **options)


def test_self_play_names_its_judge_in_the_loop_config() -> None:
    from spade_train.loop.checker import Checker

    server = _Server(MISMATCH)
    try:
        for severity, ok in (("error", False), ("warning", True)):
            loop = _loop(judge=server.url + "#judge-model", judge_severity=severity)
            assert loop.validator().judge == JudgeSettings(server.url + "#judge-model", severity=severity)
            checker = Checker(create_backend("wasm"), loop.validator(), reuse_verdicts=False)
            report = asyncio.run(checker.validate(COUNTER_ENV))
            findings = report.failures if not ok else report.warnings
            assert report.ok is ok and "judge_checker_matches_text" in {f.check for f in findings}
            checker.close()
    finally:
        server.close()
    assert _loop().validator().judge is None  # off unless named


def test_warnings_can_reject_a_design_in_self_play() -> None:
    from spade_train.loop.checker import Checker

    server = _Server(MISMATCH)
    try:
        loop = _loop(judge=server.url, judge_severity="warning", warnings="rejected")
        checker = Checker(create_backend("wasm"), loop.validator(), reuse_verdicts=False,
                          reject_warnings=loop.warnings == "rejected")
        report = asyncio.run(checker.validate(COUNTER_ENV))
    finally:
        server.close()
    assert not report.ok and not report.warnings  # the warnings became the findings a repair turn is shown
    assert "judge_checker_matches_text" in {f.check for f in report.failures}
