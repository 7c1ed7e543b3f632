"""spade-train generate-pool: the same run driver with no trainer, the run directory it leaves, and one-line
errors."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys

import pytest

from spade_envs.pool import read_pool
from spade_train.cli import main
from spade_train.policies.roles import Policies
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.run.directory import RunDirectory
from spade_train.run.driver import SelfPlayRun
from spade_train.run.records import RunDirectoryError
from tests.conftest import REPO_ROOT, python_run_config
from tests.pace import SLOWER_MACHINE
from tests.test_loop import BROKEN, GOOD, agent_reply

POOL_RUN = """
[run]
iterations = 1
[design]
language = "python"
hinter = "model"
[loop]
envs_per_iteration = 1
episodes_per_condition = 2
kinds = ["single_answer"]
max_turns = 5
fuzz_examples = 10
validation_workers = 0
return_mode = "terminal_clipped"
"""


def test_generate_pool_leaves_a_complete_run_directory(tmp_path):
    run = RunDirectory(tmp_path / "run")
    config = python_run_config(envs_per_iteration=2, episodes_per_condition=2, use_corpus=True)
    config = config.model_copy(update={"run": config.run.model_copy(update={"iterations": 2})})
    policies = Policies(designer=ScriptedPolicy([GOOD, BROKEN], name="designer"),
                        agent=ScriptedPolicy(agent_reply, name="agent"),
                        hinter=ScriptedPolicy(["Look closely."], name="hinter"))
    out = io.StringIO()
    summary = asyncio.run(SelfPlayRun(config, policies, directory=run, out=out).run())
    assert summary.iterations == 2 and summary.exported == 1
    metrics = run.metrics()
    assert [row["step"] for row in metrics] == [1, 2] and metrics[0]["valid_rate"] == 0.5
    attempts = [json.loads(line) for line in (run.path / "attempts.jsonl").read_text().splitlines()]
    assert len(attempts) == 4 and {a["valid"] for a in attempts} == {True, False}
    assert {a["outcome"] for a in attempts} == {"played", "invalid", "duplicate"}
    assert json.loads((run.path / "config.json").read_text())["loop"]["envs_per_iteration"] == 2
    pool = read_pool(run.pool_path)
    assert len(pool) == 1 and pool[0][0].stats["regret"] == pytest.approx(1.0)
    # The exported spec is what the code is: its accepted hint, its kind and the reward range it declares.
    spec = pool[0][0].spec
    assert spec.hint == "Look closely." and spec.kind == "single_answer" and spec.reward_range == (-1.0, 1.0)
    assert run.plot_path.exists() and run.plot_path.stat().st_size > 1000
    text = out.getvalue()
    assert "exported" in text and "first half" in text and "2 iteration(s), 4 designs, 1 played" in text


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["policies.designer=ftp:x"], "is neither a checkpoint directory, an http(s) URL nor a policy spec"),
        (["policies.designer=http://127.0.0.1:9/v1"], "cannot reach the server at http://127.0.0.1:9/v1"),
        (["policies.designer=http://127.0.0.1:9/v1#m", "loop.kinds=['chess']"], "loop.kinds.0: Input should be"),
        (["policies.designer=scripted", "policies.api_key_env=SPADE_NO_SUCH_VARIABLE"], "is not set"),
        (["policies.designer=scripted", "loop.corpus=missing.jsonl", "loop.use_corpus=true"], "missing.jsonl"),
        ([], "needs policies.designer"),
        (["policies.designer=scripted", "loop.envs_per_iteration=0"], "loop.envs_per_iteration: Input should be"),
    ],
)
def test_usage_errors_are_one_line(overrides, message, tmp_path, capsys):
    config = tmp_path / "pool.toml"
    config.write_text(POOL_RUN)
    argv = ["generate-pool", "--config", str(config), "--out", str(tmp_path / "run")]
    code = main([*argv, *(item for pair in (("--set", o) for o in overrides) for item in pair)], out=io.StringIO())
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
            def do_GET(self) -> None:  # /v1/models: the served model, asked for when a URL names none
                payload = json.dumps({"data": [{"id": "fake-model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                system = body["messages"][0]["content"]
                if system == HINT_SYSTEM_PROMPT:
                    text = "Read the observation closely."
                elif system == TEXT_AGENT_PROMPT:
                    seen = body["messages"][-1]["content"]
                    number = [str(int(a) + int(b)) for a, b in re.findall(r"It is (\d+) plus (\d+)", seen)]
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
    config = tmp_path / "pool.toml"
    config.write_text(POOL_RUN)
    try:
        out = io.StringIO()
        code = main(["generate-pool", "--config", str(config), "--out", str(tmp_path / "run"),
                     "--set", f"policies.designer={server.url.removesuffix('/v1')}", "--logger", "tensorboard"],
                    out=out)
    finally:
        server.close()
    assert code == 0, out.getvalue()
    run = RunDirectory(tmp_path / "run")
    assert run.metrics()[0]["valid_rate"] == 1.0 and run.metrics()[0]["regret_mean"] == pytest.approx(1.0)
    # --logger tensorboard: the row's numbers as TensorBoard scalars too (tests/test_curves.py reads them).
    from tests.test_curves import _scalars

    scalars = _scalars(run.path / "tensorboard")
    assert scalars["valid_rate"] == [(1, 1.0)] and scalars["regret_mean"] == [(1, 1.0)]
    assert json.loads((run.path / "config.json").read_text())["run"]["logger"] == "tensorboard"
    assert len(read_pool(run.pool_path)) == 1
    assert json.loads((run.path / "config.json").read_text())["policies"]["designer"].endswith(":" + str(
        server.httpd.server_address[1]))


def test_a_run_whose_model_calls_all_fail_stops_with_the_cause(tmp_path, capsys):
    """An endpoint that answers every call with an error (here: a prompt longer than its context) stops
    the run after the first iteration, with the server's message in the one line it prints."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class TooShort(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            payload = json.dumps({"data": [{"id": "short-model"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            payload = b'{"error": {"message": "the prompt does not fit in the context of 2048 tokens"}}'
            self.send_response(400)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), TooShort)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    config = tmp_path / "pool.toml"
    config.write_text(POOL_RUN.replace("iterations = 1", "iterations = 5"))
    try:
        code = main(["generate-pool", "--config", str(config), "--out", str(tmp_path / "run"),
                     "--set", f"policies.designer=http://127.0.0.1:{httpd.server_address[1]}/v1",
                     "--set", "run.checkpoint_every=3"], out=io.StringIO())
    finally:
        httpd.shutdown()
        httpd.server_close()
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1, err
    assert "iteration 1: all 1 designer calls failed" in err and "does not fit in the context" in err
    assert len(RunDirectory(tmp_path / "run").metrics()) == 1
    # The stop saved where it stopped (checkpoint_every is 3), so --resume keeps iteration 1, and a new
    # run is not let start over it.
    assert RunDirectory(tmp_path / "run").checkpoints.state()["step"] == 1
    assert RunDirectory.open(tmp_path / "run", resume=True).resume_notes == []
    assert len(RunDirectory(tmp_path / "run").metrics()) == 1
    with pytest.raises(RunDirectoryError, match="already holds a run"):
        RunDirectory.open(tmp_path / "run", resume=False)


def test_a_pool_run_killed_in_its_first_iteration_resumes_from_its_start(tmp_path):
    """generate-pool has no trainer to save a step-0 checkpoint: the driver saves one before the memory is
    created, so a run killed in iteration 1 (here after its records were appended) can --resume, and ends
    as the run that never stopped."""
    config = tmp_path / "pool.toml"
    config.write_text(POOL_RUN)
    reference, run = tmp_path / "uninterrupted", tmp_path / "run"
    server = RoleAwareServer()
    try:
        designer = ["--set", f"policies.designer={server.url.removesuffix('/v1')}"]
        assert main(["generate-pool", "--config", str(config), "--out", str(reference), *designer],
                    out=io.StringIO()) == 0
        killed = subprocess.run([sys.executable, str(REPO_ROOT / "tests" / "orphans" / "killed_run.py"), "records",
                                 "1", "--", "generate-pool", "--config", str(config), "--out", str(run), *designer],
                                check=False, cwd=REPO_ROOT, capture_output=True, text=True,
                                timeout=SLOWER_MACHINE * 120)
        assert killed.returncode == -9, killed.stderr[-2000:]
        assert RunDirectory(run).checkpoints.state()["step"] == 0 and len(RunDirectory(run).metrics()) == 1
        out = io.StringIO()
        assert main(["generate-pool", "--config", str(config), "--out", str(run), "--resume", *designer], out=out) == 0
    finally:
        server.close()
    assert "resume: metrics.jsonl: dropped 1 row(s) of iterations after 0" in out.getvalue()
    assert "resume: memory.sqlite3: rolled back" in out.getvalue()
    for name in ("metrics.jsonl", "attempts.jsonl"):
        assert (run / name).read_bytes() == (reference / name).read_bytes(), name
