"""``spade-eval run`` killed for real in the middle of a benchmark, then run again.

The generation cache exists so that a killed evaluation (a preempted node, a closed laptop) resumes
without paying for its answers twice. Only a real kill shows that every answer that reached the cache
before the kill is reused, and that a cache entry cut in half by the kill costs one regeneration and
nothing else. The model is a counting OpenAI-compatible server on loopback (``PolicyServer`` in front
of a scripted policy): it answers deterministically from the request, records every request it
receives, and holds one request open on cue so that the kill lands while a generation is in flight.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from spade_eval.cli import main
from spade_eval.results import EvalResults
from spade_eval.suites.bbeh import INSTRUCTION, BBEHMini
from spade_train.policies.base import GenerationRequest
from spade_train.policies.scripted import ScriptedPolicy
from spade_train.policies.serve import PolicyServer
from tests.conftest import REPO_ROOT, SHARED_DATA
from tests.mounts import small_disk  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason=f"benchmark data folder {SHARED_DATA} is absent")

ITEMS, SAMPLES = 4, 2
TOTAL = ITEMS * SAMPLES
"""Generations one full run asks for."""
ANSWERED_BEFORE_KILL = 3
"""The server answers this many requests, then holds the next one open until the kill."""
CACHE_FILE = Path("cache") / "bbeh_mini.jsonl"


@dataclass
class CountingModel:
    """A deterministic model that counts what it is asked and can hold a request open.

    The answer depends only on the request (the item's prompt and the sample's seed), so two runs that
    ask the same questions get the same answers and the same scores, and some answers are right and
    some wrong, so equal scores mean something."""

    targets: dict[str, tuple[int, str]]
    """prompt -> (item index, gold answer)."""
    hold_after: int | None = None
    released: threading.Event = field(default_factory=threading.Event)
    received: list[str] = field(default_factory=list)
    """Every request, as ``request_id``, in arrival order (held and answered alike)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def __call__(self, request: GenerationRequest) -> str:
        with self.lock:
            self.received.append(request_id(request))
            number = len(self.received)
        if self.hold_after is not None and number > self.hold_after:
            while not self.released.is_set():  # the server's loop must stay free for other requests
                await asyncio.sleep(0.01)
        index, gold = self.targets[request.messages[-1]["content"]]
        right = (index + (request.sampling.seed or 0)) % 3 == 0
        return f"Thinking.\nThe answer is: {gold if right else 'not this'}"


def request_id(request: GenerationRequest) -> str:
    """What tells one generation of the benchmark from another: the prompt and the sample's seed."""
    return json.dumps([request.messages, request.sampling.seed])


@dataclass
class Killed:
    """A run directory left by a SIGKILL mid-benchmark, and what the model had answered by then."""

    directory: Path
    model: CountingModel
    url: str
    answered: list[str]
    """Requests whose answers reached the cache before the kill."""


def command(model_url: str, out: Path) -> list[str]:
    return ["run", "--model", model_url, "--benchmarks", "bbeh_mini", "--data-dir", str(SHARED_DATA),
            "--limit", str(ITEMS), "--samples", str(SAMPLES), "--concurrency", "1", "--out", str(out)]


def cache_lines(directory: Path) -> list[str]:
    path = directory / CACHE_FILE
    return path.read_text(encoding="utf-8").splitlines(keepends=True) if path.is_file() else []


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Killed]:
    """One real ``python -m spade_eval.cli run``, killed with SIGKILL while its fourth generation is in
    flight and three are in the cache (shared by the tests, which each resume a copy of it)."""
    items = BBEHMini().load(SHARED_DATA, ITEMS)
    targets = {item.payload["input"] + INSTRUCTION: (index, item.payload["target"]) for index, item in enumerate(items)}
    model = CountingModel(targets, hold_after=ANSWERED_BEFORE_KILL)
    root = tmp_path_factory.mktemp("killed")
    directory, log = root / "run", root / "spade-eval.log"
    with PolicyServer(ScriptedPolicy(model, name="counting"), model_name="counting") as server, log.open("w") as output:
        url = f"{server.url}#counting"
        child = subprocess.Popen([sys.executable, "-m", "spade_eval.cli", *command(url, directory)],
                                 cwd=REPO_ROOT, stdout=output, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while not (len(cache_lines(directory)) == ANSWERED_BEFORE_KILL
                       and len(model.received) == ANSWERED_BEFORE_KILL + 1):
                if child.poll() is not None:
                    pytest.fail(f"spade-eval ended before the kill (exit {child.returncode}): {log.read_text()}")
                if time.monotonic() > deadline:
                    pytest.fail("spade-eval did not reach the fourth generation within 120 s")
                time.sleep(0.02)
            os.kill(child.pid, signal.SIGKILL)
            assert child.wait(timeout=30) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            model.released.set()  # the held request's answer goes to a dead socket
            model.hold_after = None
        assert not (directory / "results.json").exists()  # the kill landed mid-benchmark
        yield Killed(directory, model, url, answered=model.received[:ANSWERED_BEFORE_KILL])


def resume(killed: Killed, copy: Path) -> tuple[EvalResults, list[str]]:
    """Run the killed command again (in this process, same arguments) on ``copy`` of its directory;
    returns the results and the requests the model received during the rerun."""
    before = len(killed.model.received)
    assert main(command(killed.url, copy)) == 0
    return EvalResults.read(copy / "results.json"), killed.model.received[before:]


def uninterrupted(killed: Killed, out: Path) -> EvalResults:
    before = len(killed.model.received)
    assert main(command(killed.url, out)) == 0
    assert len(killed.model.received) - before == TOTAL
    return EvalResults.read(out / "results.json")


def scores(results: EvalResults) -> tuple[float, list[float], list[list[float]]]:
    bench = results.benchmark("bbeh_mini")
    return bench.score, [item.score for item in bench.items], [[s.score for s in item.samples] for item in bench.items]


def test_a_killed_run_resumes_from_every_cached_generation(killed: Killed, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(killed.directory, run)
    cached = len(cache_lines(run))
    assert 0 < cached == ANSWERED_BEFORE_KILL < TOTAL

    resumed, asked = resume(killed, run)
    bench = resumed.benchmark("bbeh_mini")
    assert bench.cached_generations == cached and bench.generations == TOTAL
    assert len(asked) == TOTAL - cached  # the model is asked only for what the cache lacks
    assert len(set(asked)) == len(asked) and not set(asked) & set(killed.answered)

    full = uninterrupted(killed, tmp_path / "full")
    assert scores(resumed) == scores(full)
    assert 0 < scores(full)[0] < 1  # some answers right, some wrong: equal scores mean something
    assert [[s.response for s in i.samples] for i in bench.items] == [
        [s.response for s in i.samples] for i in full.benchmark("bbeh_mini").items]


def test_a_cache_entry_torn_by_the_kill_is_asked_again_once(killed: Killed, tmp_path: Path) -> None:
    """A kill in the middle of writing an entry leaves half a line at the end of the cache: the rerun
    treats it as missing and asks for that one generation again, and the entries it appends after the
    torn line are read back by the next rerun (none is lost by being glued to the torn half)."""
    run = tmp_path / "run"
    shutil.copytree(killed.directory, run)
    path = run / CACHE_FILE
    text = path.read_text(encoding="utf-8")
    last = text.rstrip("\n").rfind("\n") + 1
    path.write_text(text[: last + (len(text) - last) // 2], encoding="utf-8")  # the last entry cut in half
    intact = ANSWERED_BEFORE_KILL - 1

    resumed, asked = resume(killed, run)
    assert resumed.benchmark("bbeh_mini").cached_generations == intact
    assert len(asked) == TOTAL - intact and killed.answered[-1] in asked
    assert not set(asked) & set(killed.answered[:intact])

    again, asked_again = resume(killed, run)
    assert asked_again == [] and again.benchmark("bbeh_mini").cached_generations == TOTAL
    full = uninterrupted(killed, tmp_path / "full")
    assert scores(resumed) == scores(again) == scores(full)


def test_a_full_disk_stops_the_run_in_one_line_and_a_rerun_with_room_finishes_it(
        tmp_path: Path, small_disk, capsys) -> None:  # noqa: F811
    """On a disk too small for the run's results, ``spade-eval run`` stops in one line (exit 1) with no
    file half-written; rerun after making room, it asks the model only for what the cache lacks and
    scores as the run that never ran short."""
    items = BBEHMini().load(SHARED_DATA, ITEMS)
    model = CountingModel({item.payload["input"] + INSTRUCTION: (index, item.payload["target"])
                           for index, item in enumerate(items)})
    with PolicyServer(ScriptedPolicy(model, name="counting"), model_name="counting") as server:
        url = f"{server.url}#counting"
        assert main(command(url, tmp_path / "full")) == 0
        full = EvalResults.read(tmp_path / "full" / "results.json")
        need = sum(path.stat().st_size for path in (tmp_path / "full").rglob("*") if path.is_file())
        capsys.readouterr()
        for share in (0.1, 0.5):
            disk = small_disk(int(need * share))
            run = disk / f"run-{share}"
            asked_before = len(model.received)
            assert main(command(url, run)) == 1
            err = capsys.readouterr().err  # a progress bar, then the error
            errors = [line for line in err.splitlines() if "spade-eval: error:" in line]
            assert len(errors) == 1 and "No space left on device" in errors[0] and "Traceback" not in err, err
            assert not [path for path in run.rglob(".*")], "a failed write left a partial file behind"
            cached = len(cache_lines(run))
            small_disk(need * 4)
            assert main(command(url, run)) == 0
            assert len(model.received) - asked_before == TOTAL  # none asked twice: the rerun asked the rest
            resumed = EvalResults.read(run / "results.json")
            assert resumed.benchmark("bbeh_mini").cached_generations == cached
            assert scores(resumed) == scores(full)
            shutil.rmtree(run)
