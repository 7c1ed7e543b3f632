"""spade-train generate-pool: the run directory it leaves, and one-line usage errors."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from spade_envs.pool import read_pool
from spade_train.cli import generate_pool, main
from spade_train.corpus import Corpus
from spade_train.loop import LoopConfig
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.rollout import RolloutConfig
from spade_train.run_dir import RunDirectory
from tests.test_loop import BROKEN, GOOD, agent_reply


def test_generate_pool_leaves_a_complete_run_directory(tmp_path):
    from spade_envs.checks.validate import ValidatorConfig
    from spade_envs.fuzz.runner import FuzzConfig

    run = RunDirectory(tmp_path / "run")
    config = LoopConfig(envs_per_iteration=2, max_turns=5, concurrent_designs=2,
                        validation=ValidatorConfig(fuzz=FuzzConfig(examples=10)),
                        rollout=RolloutConfig(episodes_per_condition=2))
    out = io.StringIO()
    code = asyncio.run(generate_pool(
        run, config, designer=ScriptedPolicy([GOOD, BROKEN], name="designer"),
        agent=ScriptedPolicy(agent_reply, name="agent"), hinter=ScriptedPolicy(["Look closely."], name="hinter"),
        corpus=Corpus.demo(), sandbox="wasm", iterations=2, out=out))
    assert code == 0
    metrics = run.metrics()
    assert [row["step"] for row in metrics] == [1, 2] and metrics[0]["valid_rate"] == 0.5
    attempts = [json.loads(line) for line in (run.path / "attempts.jsonl").read_text().splitlines()]
    assert len(attempts) == 4 and {a["valid"] for a in attempts} == {True, False}
    assert json.loads((run.path / "config.json").read_text())["designer"] == "designer"
    pool = read_pool(run.pool_path)
    assert len(pool) == 1 and pool[0][0].stats["regret"] == pytest.approx(1.0)
    assert run.plot_path.exists() and run.plot_path.stat().st_size > 1000
    assert "exported" in out.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["generate-pool", "--designer", "ftp:x", "--out", "{tmp}"], "unknown policy spec"),
        (["generate-pool", "--designer", "openai:http://127.0.0.1:9/v1#m", "--out", "{tmp}", "--kinds", "chess"],
         "unknown --kinds"),
        (["generate-pool", "--designer", "openai:http://127.0.0.1:9/v1#m", "--out", "{tmp}",
          "--api-key-env", "SPADE_NO_SUCH_VARIABLE"], "is not set"),
        (["generate-pool", "--designer", "openai:http://127.0.0.1:9/v1#m", "--out", "{tmp}",
          "--corpus", "missing.jsonl"], "missing.jsonl"),
        (["generate-pool", "--out", "{tmp}"], "--designer"),
        (["generate-pool", "--designer", "openai:http://127.0.0.1:9/v1#m", "--out", "{tmp}", "--envs", "0"],
         "--envs must be at least 1"),
    ],
)
def test_usage_errors_are_one_line(argv, message, tmp_path, capsys):
    code = main([a.replace("{tmp}", str(tmp_path / "run")) for a in argv], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err and err.startswith("spade-train: error:")


class RoleAwareServer:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers as the designer, hinter or agent."""

    def __init__(self) -> None:
        import re
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from spade_train.hints import HINT_SYSTEM_PROMPT
        from spade_train.rollout import TEXT_AGENT_PROMPT

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                system = body["messages"][0]["content"]
                if system == HINT_SYSTEM_PROMPT:
                    text = "Read the observation closely."
                elif system == TEXT_AGENT_PROMPT:
                    seen = body["messages"][-1]["content"]
                    number = re.findall(r"It is (\d+)", seen)
                    text = f"\\boxed{{{number[-1] if number and 'HINT' in seen else 0}}}"
                else:
                    text = GOOD
                payload = json.dumps({"choices": [{"index": 0, "finish_reason": "stop",
                                                   "message": {"role": "assistant", "content": text}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_cli_runs_against_an_openai_compatible_endpoint(tmp_path):
    server = RoleAwareServer()
    try:
        out = io.StringIO()
        code = main(["generate-pool", "--designer", f"openai:{server.url}#fake-model", "--out", str(tmp_path / "run"),
                     "--envs", "1", "--episodes", "2", "--max-turns", "5", "--fuzz-examples", "10"], out=out)
    finally:
        server.close()
    assert code == 0, out.getvalue()
    run = RunDirectory(tmp_path / "run")
    assert run.metrics()[0]["valid_rate"] == 1.0 and run.metrics()[0]["regret_mean"] == pytest.approx(1.0)
    assert len(read_pool(run.pool_path)) == 1
