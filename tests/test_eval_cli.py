"""``spade-eval`` end to end: the tiny model in-process and behind a local server, resume, reports, errors."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import pytest

from spade_eval.cli import main
from spade_eval.models import ModelHandle
from spade_eval.results import EvalResults
from spade_eval.runner import RunOptions, run_benchmark
from spade_eval.suites.bbeh import BBEHMini
from spade_train.policies.scripted import ScriptedPolicy
from tests.mounts import read_only_dir  # noqa: F401 - the fixture
from tests.served_model import served_tiny_model, tiny_model_dir  # noqa: F401 - session fixtures

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"benchmark data folder {DATA} is absent")
FAST = ["--limit", "1", "--samples", "1", "--max-tokens", "4"]


@needs_data
def test_reasoning_suite_runs_end_to_end_on_the_tiny_model(tiny_model_dir, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "run"
    code = main(
        [
            "run",
            "--model",
            str(tiny_model_dir),
            "--suite",
            "reasoning",
            "--data-dir",
            str(DATA),
            "--out",
            str(out),
            *FAST,
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    results = EvalResults.read(out / "results.json")
    names = [b.name for b in results.benchmarks]
    assert names == [
        "aime24",
        "aime25",
        "amc23",
        "math500",
        "minerva_math",
        "olympiadbench",
        "humaneval_plus",
        "mbpp_plus",
        "rg_math",
        "rg_algorithmic",
        "rg_cognition",
        "rg_logic",
        "bbeh_mini",
    ]
    for skipped in ("gpqa_diamond", "aime26", "livecodebench_v6"):  # user-supplied data, absent here
        assert f"skipping {skipped}" in captured.err
    assert all(b.n_items == 1 and len(b.items[0].samples) == 1 for b in results.benchmarks)
    assert results.model.kind == "hf" and results.settings.sampling_overrides == {"max_tokens": 4, "seed": 0}
    assert all(b.sampling.max_tokens == 4 for b in results.benchmarks)
    aime = results.benchmark("aime24")
    assert (aime.sampling.temperature, aime.sampling.top_k) == (1.0, 20)  # paper defaults kept
    assert "| aime24 |" in captured.out and (out / "report.html").is_file() and (out / "report.png").is_file()


@needs_data
@pytest.mark.parametrize("where", ["in-process", "served"])
def test_the_same_command_twice_gives_the_same_generations_and_scores(where, request, tmp_path):
    """The default --seed 0 reaches the sampler: AIME samples at T=1.0, yet two runs without a cache
    agree sample by sample (and sample k of an item is seeded seed + k, so the samples differ). Served:
    the seed travels in the OpenAI request body to a server that honours it (``spade-eval serve``)."""
    if where == "served":
        model = request.getfixturevalue("served_tiny_model").url.removesuffix("/v1")
    else:
        model = str(request.getfixturevalue("tiny_model_dir"))

    def run(out: Path, *extra: str) -> list[list[tuple[str, float]]]:
        argv = ["run", "--model", model, "--benchmarks", "aime24", "--data-dir", str(DATA),
                "--limit", "2", "--samples", "3", "--max-tokens", "12", "--no-cache", "--out", str(out), *extra]
        assert main(argv) == 0
        results = EvalResults.read(out / "results.json")
        bench = results.benchmarks[0]
        assert bench.sampling.seed == results.settings.seed == int(extra[-1] if extra else 0)
        return [[(s.response, s.score) for s in item.samples] for item in bench.items]

    first, second = run(tmp_path / "one"), run(tmp_path / "two")
    assert first == second
    assert len({response for response, _ in first[0]}) > 1  # T=1.0: the three samples differ
    assert run(tmp_path / "other", "--seed", "5") != first


@needs_data
def test_runs_against_a_local_openai_compatible_server(served_tiny_model, tmp_path, capsys):  # noqa: F811
    base = served_tiny_model.url.removesuffix("/v1")  # the model name is asked from /v1/models
    out = tmp_path / "served"
    code = main(
        [
            "run",
            "--model",
            base,
            "--suite",
            "reasoning",
            "--benchmarks",
            "aime25,rg_logic",
            "humaneval_plus",
            "--data-dir",
            str(DATA),
            "--out",
            str(out),
            *FAST,
        ]
    )
    assert code == 0, capsys.readouterr().err
    results = EvalResults.read(out / "results.json")
    assert results.model.spec == f"openai:{served_tiny_model.url}#tiny-qwen2"
    assert [b.name for b in results.benchmarks] == ["aime25", "rg_logic", "humaneval_plus"]
    assert sum(b.generation_errors for b in results.benchmarks) == 0
    # A code benchmark ran: where its programs ran, and under which limits, is in the settings.
    execution = results.settings.code_execution
    assert execution is not None and execution["sandbox"] == "wasm" and execution["native_backend"] == "process"
    assert execution["native_modules"] == ["numpy"] and execution["native_memory_mb"] == 4096
    import platform  # the Python of each place programs ran, asked of it: the sandbox's is not the host's

    assert execution["python"]["process"] == platform.python_version()
    assert execution["python"]["wasm"].startswith("3.14")
    assert all(
        sample.response or sample.details.get("finish_reason")
        for b in results.benchmarks
        for item in b.items
        for sample in item.samples
    )


@pytest.mark.parametrize("where", ["in-process", "served"])
def test_games_suite_runs_on_the_tiny_model_in_process_and_served(where, request, tmp_path, capsys):
    """Every games benchmark completes, scores each game and records its outcome rates; the tiny model's
    context is too short for some prompts, which must be recorded as errors, not raised."""
    if where == "served":
        model = request.getfixturevalue("served_tiny_model").url.removesuffix("/v1")
    else:
        model = str(request.getfixturevalue("tiny_model_dir"))
    out = tmp_path / where
    code = main(["run", "--model", model, "--suite", "games", "--out", str(out), *FAST])
    assert code == 0, capsys.readouterr().err
    results = EvalResults.read(out / "results.json")
    assert {b.name for b in results.benchmarks} == {
        "spade_pool", "tictactoe_random", "tictactoe_minimax", "kuhn_poker_random", "kuhn_poker_equilibrium",
        "simple_negotiation_random", "simple_negotiation_fixed"}
    for bench in results.benchmarks:
        assert bench.n_items == 1 and {"win_rate", "draw_rate", "loss_rate"} <= set(bench.metrics)
    assert (out / "report.md").is_file() and (out / "report.png").is_file()


def test_resume_asks_the_model_only_for_what_is_missing(tmp_path):
    benchmark = BBEHMini()
    items = [benchmark_item(i) for i in range(4)]
    policy = ScriptedPolicy(lambda request: "The answer is: 7")
    model = ModelHandle(policy=policy, spec="scripted", kind="scripted", name="scripted", fingerprint="f1")
    options = RunOptions(samples=3, cache_dir=tmp_path / "cache")

    first = asyncio.run(run_benchmark(benchmark, model, options, items=items[:2]))  # "interrupted" after 2
    assert policy.calls == 6 and first.cached_generations == 0
    resumed = asyncio.run(run_benchmark(benchmark, model, options, items=items))
    assert policy.calls == 12 and resumed.cached_generations == 6
    assert [item.score for item in resumed.items] == [1.0, 0.0, 1.0, 0.0]
    again = asyncio.run(run_benchmark(benchmark, model, options, items=items))
    assert policy.calls == 12 and again.cached_generations == 12
    other_model = ModelHandle(
        policy=policy, spec="scripted", kind="scripted", name="scripted", fingerprint="f2"
    )
    asyncio.run(run_benchmark(benchmark, other_model, options, items=items[:1]))
    assert policy.calls == 15  # a different checkpoint never reuses another's answers
    with (tmp_path / "cache" / "bbeh_mini.jsonl").open("a") as handle:
        handle.write('{"key": "torn')  # a write cut by a crash is skipped
    assert asyncio.run(run_benchmark(benchmark, model, options, items=items)).cached_generations == 12


def benchmark_item(index: int):
    from spade_eval.benchmark import EvalItem

    return EvalItem(
        id=str(index), payload={"input": f"question {index}", "target": "7" if index % 2 == 0 else "8"}
    )


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("spade-eval: error: ")
    return err[0]


def test_a_bad_model_path_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["run", "--model", str(tmp_path / "nope"), "--benchmarks", "bbeh_mini"]) == 2
    assert "does not exist" in _one_error_line(capsys)
    (tmp_path / "empty").mkdir()
    assert main(["run", "--model", str(tmp_path / "empty"), "--benchmarks", "bbeh_mini"]) == 2
    assert "no config.json" in _one_error_line(capsys)


def test_an_unreachable_server_is_one_line_and_exit_2(capsys):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["run", "--model", f"http://127.0.0.1:{port}", "--benchmarks", "bbeh_mini"]) == 2
    assert "cannot reach the server" in _one_error_line(capsys)


def test_missing_data_is_one_line_and_exit_2(tiny_model_dir, tmp_path, capsys):  # noqa: F811
    assert (
        main(["run", "--model", str(tiny_model_dir), "--benchmarks", "aime25", "--data-dir", str(tmp_path)])
        == 2
    )
    line = _one_error_line(capsys)
    assert "aime25" in line and "math/aime25/test.jsonl is missing" in line
    assert (
        main(
            [
                "run",
                "--model",
                str(tiny_model_dir),
                "--benchmarks",
                "gpqa_diamond",
                "--data-dir",
                str(tmp_path),
            ]
        )
        == 2
    )  # named explicitly: not skipped
    assert "science/gpqa_diamond.csv" in _one_error_line(capsys)
    assert main(["run", "--model", str(tiny_model_dir), "--benchmarks", "no_such_bench"]) == 2
    assert "unknown benchmark" in _one_error_line(capsys)


@needs_data
def test_a_run_directory_that_cannot_be_written_fails_before_any_generation(read_only_dir, capsys):  # noqa: F811
    """Before: the run went as far as the first answer, then the cache's mkdir raised a traceback."""
    for out in (read_only_dir, read_only_dir / "new" / "run"):
        argv = ["run", "--model", "scripted", "--benchmarks", "bbeh_mini", "--data-dir", str(DATA), "--limit", "1",
                "--out", str(out)]
        assert main(argv) == 2
        line = _one_error_line(capsys)
        assert f"cannot write the run directory {out}: " in line and line.endswith("; choose another --out")
    assert list(read_only_dir.iterdir()) == []


@needs_data
def test_a_cache_that_cannot_be_written_stops_the_run_with_one_line(tmp_path, capsys):
    (tmp_path / "run" / "cache" / "bbeh_mini.jsonl").mkdir(parents=True)  # something in the cache file's way
    argv = ["run", "--model", "scripted", "--benchmarks", "bbeh_mini", "--data-dir", str(DATA), "--limit", "1",
            "--out", str(tmp_path / "run")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    line = err.strip().splitlines()[-1]  # after the progress bar
    assert line.startswith("spade-eval: error: cannot write the generation cache ") and "to resume" in line
    assert not (tmp_path / "run" / "results.json").exists()


def _scripted_run(tmp_path: Path, folder: str, answer: str, **sampling) -> Path:
    from spade_eval.results import ModelIdentity, RunSettings

    policy = ScriptedPolicy(lambda request: f"The answer is: {answer}")
    model = ModelHandle(policy=policy, spec="scripted", kind="scripted", name="tiny", fingerprint=answer)
    options = RunOptions(sampling_overrides=sampling)
    result = asyncio.run(run_benchmark(BBEHMini(), model, options, items=[benchmark_item(i) for i in range(4)]))
    document = EvalResults(
        model=ModelIdentity(spec="scripted", kind="scripted", name="tiny", fingerprint=answer),
        settings=RunSettings(suite="reasoning", benchmarks=["bbeh_mini"]),
        benchmarks=[result],
    )
    path = tmp_path / folder / "results.json"
    document.write(path)
    return path


def test_report_compares_runs_with_deltas(tmp_path, capsys):
    first, second = _scripted_run(tmp_path, "base", "7"), _scripted_run(tmp_path, "ckpt-100", "8")
    assert main(["report", str(first), str(second.parent), "--out", str(tmp_path / "report")]) == 0
    markdown = capsys.readouterr().out
    # Columns are named by run directory (both runs are of a model called "tiny").
    assert "| bbeh_mini | accuracy | 50.0 [" in markdown and "| base | ckpt-100 | Δ vs base |" in markdown
    assert "], n = 4 | 50.0 [0.0, 100.0], n = 4 | 0.0 |" in markdown and "warning" not in markdown  # no change: 0.0, not +0.0
    html = (tmp_path / "report" / "report.html").read_text()
    assert "<table>" in html and "ckpt-100" in html and 'class="delta-same"' in html
    assert (tmp_path / "report" / "report.png").stat().st_size > 1000
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hello": 1}))
    assert main(["report", str(bad)]) == 2
    assert "not a spade-eval results file" in _one_error_line(capsys)


def test_report_labels_and_warns_when_settings_differ(tmp_path, capsys):
    first = _scripted_run(tmp_path, "a", "7")
    second = _scripted_run(tmp_path, "b", "7", temperature=0.9, max_tokens=128)
    out = tmp_path / "report"
    assert main(["report", str(first), str(second), "--label", "before", "--label", "after", "--out", str(out)]) == 0
    markdown = capsys.readouterr().out
    assert "| before | after | Δ vs before |" in markdown
    warnings = [line for line in markdown.splitlines() if "warning" in line]
    assert len(warnings) == 2, warnings
    assert "bbeh_mini temperature differs between runs (before: 0.6, after: 0.9)" in warnings[0]
    assert "bbeh_mini max_tokens differs" in warnings[1]
    assert "differs between runs" in (out / "report.html").read_text()
    assert main(["report", str(first), str(second), "--label", "only-one"]) == 2
    assert "--label was given 1 time(s) for 2 results file(s)" in _one_error_line(capsys)


def test_results_schema_is_current(capsys):
    assert main(["schema", "--check", "--out", str(REPO / "schemas")]) == 0, capsys.readouterr().out


def test_list_shows_paper_sampling(capsys):
    assert main(["list", "--suite", "reasoning"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["suite", "benchmark", "samples", "sampling"]
    aime = next(line for line in lines if " aime25 " in line)
    assert aime.split()[2] == "64" and "T=1 " in aime and "top-k=20" in aime and "max-tokens=32768" in aime
    assert aime.index("64") + 2 == lines[0].index("samples") + len("samples")  # right-aligned under its header
    assert "T=0.7" in next(line for line in lines if " gpqa_diamond " in line)
    assert "T=0.2" in next(line for line in lines if " livecodebench_v6 " in line)


@needs_data
def test_lm_eval_runs_our_tasks_with_a_policy_as_its_model():
    """The other direction: lm-eval's own evaluator, our task files, a spade policy as the LM."""
    import lm_eval

    from spade_eval.suites.lm_eval_bridge import PolicyLM, task_manager
    from spade_eval.suites.math_data import load_math

    answers = {row["problem"]: row["answer"] for row in load_math("aime25", DATA)}

    def reply(request) -> str:
        prompt = request.messages[-1]["content"]
        return next(f"\\boxed{{{a}}}" for problem, a in answers.items() if prompt.startswith(problem))

    output = lm_eval.simple_evaluate(
        model=PolicyLM(ScriptedPolicy(reply)),
        tasks=["spade_aime25"],
        task_manager=task_manager(DATA),
        limit=2,
        apply_chat_template=True,
        log_samples=False,
    )
    assert output["results"]["spade_aime25"]["math_verify,all_samples"] == 1.0


def test_serve_rejects_a_bad_model_or_port(tmp_path, capsys):
    assert main(["serve", "--model", str(tmp_path / "missing"), "--port", "0"]) == 2
    assert "does not exist" in _one_error_line(capsys)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["serve", "--model", "scripted", "--port", str(busy.getsockname()[1])]) == 2
    assert "cannot listen on 127.0.0.1" in _one_error_line(capsys)


def test_a_suite_with_a_missing_package_fails_only_when_selected(monkeypatch, capsys):
    import importlib

    from spade_eval import registry

    real_import = importlib.import_module

    def without_textarena(name: str, *args, **kwargs):
        if name.startswith("spade_eval.suites.games"):
            raise ModuleNotFoundError("No module named 'textarena'", name="textarena")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(registry.importlib, "import_module", without_textarena)
    assert [entry.name for entry in registry.select("reasoning", ["bbeh_mini"])] == ["bbeh_mini"]
    with pytest.raises(
        registry.RegistryError, match="suite games needs the package 'textarena': pip install"
    ):
        registry.select("games")
    assert main(["run", "--model", "scripted", "--suite", "all"]) == 2
    assert "textarena" in _one_error_line(capsys)


def test_benchmarks_are_named_across_suites_and_a_wrong_suite_says_where_they_are(monkeypatch, capsys):
    import importlib

    from spade_eval import registry

    picked = registry.select(None, ["bbeh_mini", "acebench_normal_atom_bool", "tictactoe_random"])
    assert [(entry.name, entry.suite) for entry in picked] == [
        ("bbeh_mini", "reasoning"), ("acebench_normal_atom_bool", "tool_use"), ("tictactoe_random", "games")]
    with pytest.raises(registry.RegistryError,
                       match="acebench_normal_atom_bool is in suite tool_use, not reasoning: drop --suite"):
        registry.select("reasoning", ["bbeh_mini", "acebench_normal_atom_bool"])
    assert main(["run", "--model", "scripted", "--suite", "games", "--benchmarks", "bbeh_mini"]) == 2
    assert "bbeh_mini is in suite reasoning, not games" in _one_error_line(capsys)
    with pytest.raises(registry.RegistryError, match="unknown benchmark.s. no_such_thing; `spade-eval list`"):
        registry.select(None, ["no_such_thing"])

    real_import = importlib.import_module

    def without_lm_eval(name: str, *args, **kwargs):  # the reasoning suite cannot be imported
        if name == "spade_eval.suites.math":
            raise ModuleNotFoundError("No module named 'lm_eval'", name="lm_eval")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(registry.importlib, "import_module", without_lm_eval)
    assert [entry.name for entry in registry.select(None, ["tictactoe_random"])] == ["tictactoe_random"]
    with pytest.raises(registry.RegistryError, match="suite reasoning needs the package 'lm_eval'"):
        registry.select(None, ["no_such_thing"])


def test_failed_generations_are_tallied_by_cause_and_the_note_names_them():
    from spade_eval.report import cell_notes
    from spade_eval.results import benchmark_result
    from spade_eval.runner import ErrorCauses
    from spade_train.policies.base import SamplingParams

    causes = ErrorCauses()
    for tokens in (5012, 4500, 9_001):
        causes.add(f"prompt of {tokens} tokens does not fit the model's context of 4096 tokens")
    causes.add("HTTP 503: overloaded")
    assert causes.counts() == {"prompt of 5012 tokens does not fit the model's context of 4096 tokens": 3,
                               "HTTP 503: overloaded": 1}
    cell = benchmark_result(name="x", suite="tool_use", metric="accuracy", samples=1, sampling=SamplingParams(),
                            records=[], generation_errors=4, generation_error_causes=causes.counts(), generations=10)
    assert cell_notes(cell) == [("4 of 10 generations failed (scored as wrong): prompt of 5012 tokens does not "
                                "fit the model's context of 4096 tokens (3); HTTP 503: overloaded (1)")]
