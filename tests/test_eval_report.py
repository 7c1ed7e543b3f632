"""The evaluation report: what a reader needs to cite it without opening results.json.

Documents are built directly from the results models (no model, no benchmark data), except where the
runner's own records are the point (prompts, truncation, data fingerprints).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from PIL import Image

from spade_eval.benchmark import EvalItem
from spade_eval.models import ModelHandle
from spade_eval.report import (
    PLOT_WIDTH_IN,
    labels_for,
    render_html,
    render_markdown,
    rows_of,
    write_report,
)
from spade_eval.results import (
    BenchmarkResult,
    EvalResults,
    ItemResult,
    ModelIdentity,
    RunSettings,
    SampleResult,
    Sampling,
    data_version,
)
from spade_eval.runner import RunOptions, run_benchmark
from spade_train.policies.base import Generation, GenerationRequest


def _bench(name: str, suite: str, scores: list[float], *, details: dict | None = None, max_tokens: int = 512,
           generations: int = 0, truncated: int = 0, errors: int = 0) -> BenchmarkResult:
    items = [ItemResult(id=f"q{i}", score=s, gold="7", prompt=f"[user] question {i}",
                        samples=[SampleResult(score=s, response=f"reply {i}", extracted="7" if s else "3",
                                              details=dict(details or {}))])
             for i, s in enumerate(scores)]
    mean = sum(scores) / len(scores)
    return BenchmarkResult(name=name, suite=suite, metric="accuracy", samples=1,
                           sampling=Sampling(temperature=0.6, top_p=1.0, max_tokens=max_tokens, seed=0),
                           n_items=len(items), score=mean, ci_low=min(scores), ci_high=max(scores),
                           generations=generations, truncated_generations=truncated, generation_errors=errors,
                           data_version="0123456789abcdef", items=items)


def _document(benchmarks: list[BenchmarkResult], *, limit: int | None = None, overrides: dict | None = None,
              aggregates: dict | None = None, fingerprint: str = "fp-base") -> EvalResults:
    return EvalResults(model=ModelIdentity(spec="hf:/ckpt", kind="hf", name="ckpt", fingerprint=fingerprint),
                       settings=RunSettings(suite="all", benchmarks=[b.name for b in benchmarks], limit=limit,
                                            sampling_overrides={"seed": 0, **(overrides or {})}),
                       benchmarks=benchmarks, aggregates=aggregates or {})


def test_each_run_gets_a_settings_header_with_its_warnings():
    document = _document([_bench("math500", "reasoning", [1.0, 0.0])], limit=2, overrides={"max_tokens": 64})
    markdown = render_markdown([document], ["run-a"])
    assert "- model: `hf:/ckpt`" in markdown and "- fingerprint: `fp-base`" in markdown
    assert "- items: the first 2 of each benchmark" in markdown
    assert "**warning: --limit 2: only the first 2 items of each benchmark ran" in markdown
    assert "**warning: sampling overridden for every benchmark (max_tokens = 64)" in markdown
    assert "- sampling: T = 0.6, top-p 1, at most 512 tokens, seed 0" in markdown
    assert "- items' fingerprints: math500 01234567" in markdown
    page = render_html([document], ["run-a"])
    assert "<code>fp-base</code>" in page and "warning: --limit 2" in page  # the HTML has the fingerprint too


def test_cut_answers_errors_and_small_n_are_noted_beside_the_score():
    truncated = _bench("bbeh_mini", "reasoning", [0.0, 0.0], max_tokens=64, generations=2, truncated=2)
    errored = _bench("tictactoe_random", "games", [0.0, 0.0], details={"outcome": "error"})
    some_errors = _bench("math500", "reasoning", [1.0, 0.0], generations=4, errors=1)
    markdown = render_markdown([_document([truncated, errored, some_errors])], ["run-a"])
    assert "| bbeh_mini | accuracy | 0.0 [0.0, 0.0], n = 2 ⚠1 |" in markdown
    assert "- ⚠1 bbeh_mini, run-a: every one of 2 generations stopped at the 64-token limit" in markdown
    assert "| math500 | accuracy | 50.0 [0.0, 100.0], n = 2 ⚠2 |" in markdown
    assert "- ⚠2 math500, run-a: 1 of 4 generations failed (scored as wrong)" in markdown
    # Every episode errored: no score is shown, not a 0.0 that reads like a result.
    assert "| tictactoe_random | accuracy | errored (2 of 2) ⚠1 |" in markdown
    assert "all 2 episodes errored: there is no score" in markdown


def test_family_overall_comes_first_and_suite_means_are_labelled():
    benchmarks = [_bench("bfcl_simple_python", "tool_use", [1.0, 0.0]), _bench("bfcl_multiple", "tool_use", [1.0]),
                  _bench("bbeh_mini", "reasoning", [1.0, 1.0]), _bench("math500", "reasoning", [0.0, 1.0])]
    document = _document(benchmarks, aggregates={"bfcl/non_live": 0.7, "bfcl/multi_turn": 0.25})
    markdown = render_markdown([document], ["run-a"])
    headline = markdown.index("## The numbers to cite")
    assert headline < markdown.index("## BFCL v4") < markdown.index("## reasoning")
    lines = markdown[headline:markdown.index("## BFCL v4")].splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| number")
            and not line.startswith("| ---")]
    assert rows[0].startswith("| bfcl/multi_turn | mean of the four multi-turn categories: the BFCL number the "
                              "SPADE paper quotes | 25.0 |")
    assert rows[1].startswith("| bfcl/non_live |")
    assert rows[2] == "| reasoning mean | unweighted mean over 2 benchmark(s); no published weighting | 75.0 |"
    assert "tool_use mean" not in markdown  # every tool-use benchmark belongs to a family with its own number
    assert [row.group for row in rows_of([document])] == ["bfcl", "bfcl", "reasoning", "reasoning"]


def test_comparison_deltas_absent_results_and_neutral_no_change():
    base = _document([_bench("math500", "reasoning", [1.0, 0.0]), _bench("bbeh_mini", "reasoning", [0.0, 1.0])])
    candidate = _document([_bench("math500", "reasoning", [1.0, 0.0]),
                           _bench("aime25", "reasoning", [1.0, 1.0])], fingerprint="fp-new")
    markdown = render_markdown([base, candidate], ["base", "new"])
    assert "| math500 | accuracy | 50.0 [0.0, 100.0], n = 2 | 50.0 [0.0, 100.0], n = 2 | 0.0 |" in markdown
    assert "| bbeh_mini | accuracy | 50.0 [0.0, 100.0], n = 2 | not run |  |" in markdown
    assert "| aime25 | accuracy | not run | 100.0 [100.0, 100.0], n = 2 |  |" in markdown
    assert "+0.0" not in markdown and "-0.0" not in markdown
    page = render_html([base, candidate], ["base", "new"])
    assert re.search(r'<td class="delta-same" data-label="Δ vs [^"]+">0.0</td>', page)
    assert re.search(r'<td class="absent" data-label="[^"]+" title="not run">not run</td>', page)
    assert "td.delta-same,td.delta-none{color:#6b6b75}" in page  # grey: neither better nor worse
    # On a phone (390 px) each row is a card whose cells name their column: no column off the right edge.
    assert "@media (max-width:40rem)" in page and ".scroll thead{display:none}" in page
    assert page.count("<td ") == page.count("<td class=") == len(re.findall(r'<td class="[^"]*" data-label=', page))


def test_the_html_drills_down_to_every_sample():
    document = _document([_bench("math500", "reasoning", [1.0, 0.0], details={"reason": "wrong number"})])
    page = render_html([document], ["run-a"])
    samples = page[page.index("<h2>Samples</h2>"):]
    assert "<code>math500</code> · 2 item(s), score 50.0" in samples
    assert "<pre>[user] question 1</pre>" in samples and "<pre>reply 1</pre>" in samples
    assert 'class="verdict-wrong">wrong (score 0)' in samples and 'class="verdict-right">right (score 1)' in samples
    assert "answer read: <code>3</code>" in samples and "&quot;reason&quot;: &quot;wrong number&quot;" in samples
    assert "<script" not in page and "http" not in page.replace('content="width', "")  # standalone, offline


def test_the_plot_keeps_its_width_for_any_number_of_benchmarks(tmp_path: Path):
    many = [_bench(f"bfcl_category_{i:02d}", "tool_use", [0.5, 1.0]) for i in range(34)]
    few = [_bench("math500", "reasoning", [0.5, 1.0])]
    write_report([_document(many), _document(many[:30] + few)], tmp_path / "many")
    write_report([_document(few)], tmp_path / "few")
    wide, narrow = (Image.open(tmp_path / name / "report.png").size for name in ("many", "few"))
    assert wide[0] == narrow[0] == round(PLOT_WIDTH_IN * 120)
    assert wide[1] > narrow[1]


def test_results_written_before_the_new_fields_still_report(tmp_path: Path):
    document = json.loads(_document([_bench("math500", "reasoning", [1.0, 0.0])]).model_dump_json())
    for bench in document["benchmarks"]:
        for key in ("generations", "truncated_generations", "data_version"):
            del bench[key]
        for item in bench["items"]:
            del item["prompt"]
    path = tmp_path / "old" / "results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(document))
    old = EvalResults.read(path)
    markdown = render_markdown([old], labels_for([old], [path]))
    assert "items' fingerprints: not recorded for 1 benchmark(s)" in markdown and "| math500 |" in markdown
    assert "prompt not recorded" in render_html([old])


class _Truncating:
    """A model whose every reply stops at the token limit."""

    name = "truncating"

    async def generate(self, request: GenerationRequest) -> Generation:
        return Generation(text="The answer is: 7 and then some more words", finish_reason="length")


def test_the_runner_records_prompts_truncation_and_the_items_fingerprint():
    from spade_eval.suites.bbeh import BBEHMini

    items = [EvalItem(id=str(i), payload={"input": f"question {i}", "target": "7"}) for i in range(3)]
    model = ModelHandle(policy=_Truncating(), spec="scripted", kind="scripted", name="t", fingerprint="x")
    result = asyncio.run(run_benchmark(BBEHMini(), model, RunOptions(sampling_overrides={"max_tokens": 8}),
                                       items=items))
    assert (result.generations, result.truncated_generations) == (3, 3)
    assert all(item.prompt and "question" in item.prompt and item.prompt.startswith("[") for item in result.items)
    assert result.data_version == data_version(items) and re.fullmatch(r"[0-9a-f]{16}", result.data_version)
    assert data_version(items[:2]) != result.data_version
    markdown = render_markdown([_document([result])], ["run-a"])
    assert "every one of 3 generations stopped at the 8-token limit" in markdown


def test_item_fingerprints_do_not_depend_on_the_process():
    class Opaque:
        pass

    first = [EvalItem(id="a", payload={"object": Opaque(), "n": 1})]
    second = [EvalItem(id="a", payload={"object": Opaque(), "n": 1})]
    assert data_version(first) == data_version(second)  # no memory addresses in the fingerprint
