"""The grounding corpus: formats, truncation, seeded fresh-document sampling and clear errors."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from spade_train.corpus import (
    GAME_WORD_LIMIT,
    TOOL_USE_WORD_LIMIT,
    Corpus,
    CorpusError,
    Document,
    count_words,
    demo_corpus_path,
    truncate_words,
    word_limit_for,
)


def write_jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def numbered_docs(n: int) -> list[Document]:
    return [Document(doc_id=str(i), text=f"document number {i}") for i in range(n)]


# ------------------------------------------------------------------------------------------ JSONL
def test_jsonl_reads_text_and_orig_doc_fields(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [
        {"text": "alpha beta", "title": "First", "id": "a-1"},
        {"orig_doc": "gamma delta epsilon"},
        {"text": "", "orig_doc": "falls back to orig_doc"},
    ])
    corpus = Corpus.from_jsonl(path)
    docs = corpus.documents
    assert [d.text for d in docs] == ["alpha beta", "gamma delta epsilon", "falls back to orig_doc"]
    assert docs[0].doc_id == "a-1" and docs[0].title == "First"
    assert docs[1].doc_id == "2", "without an id a document is named by its line number"
    assert all(d.source == str(path) for d in docs)
    assert len(corpus) == 3 and corpus.name == str(path)


def test_jsonl_skips_blank_lines_and_keeps_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "one"}\n\n   \n{"text": "two"}\r\n', encoding="utf-8")
    docs = Corpus.from_jsonl(path).documents
    assert [(d.doc_id, d.text) for d in docs] == [("1", "one"), ("4", "two")]


def test_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(CorpusError) as info:
        Corpus.from_jsonl(tmp_path / "nope.jsonl")
    message = str(info.value)
    assert "not found" in message and "nope.jsonl" in message and "\n" not in message


def test_empty_corpus_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="no documents"):
        Corpus.from_jsonl(path)
    with pytest.raises(CorpusError, match="no documents"):
        Corpus([])


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"title": "no text here"}', "line_no:3: no non-empty 'text' or 'orig_doc'"),
        ('{"text": "   "}', "line_no:3: no non-empty 'text' or 'orig_doc'"),
        ('{"text": 12}', "line_no:3: no non-empty 'text' or 'orig_doc'"),
        ('["a list"]', "line_no:3: expected a JSON object"),
        ('{"text": "unterminated', "line_no:3: not valid JSON"),
    ],
)
def test_bad_lines_name_their_line(tmp_path: Path, line: str, expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine"}\n{"text": "also fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(CorpusError) as info:
        Corpus.from_jsonl(path)
    message = str(info.value)
    assert expected.replace("line_no", str(path)) in message
    assert "\n" not in message


# ------------------------------------------------------------------------------------------ truncation
def test_word_limits_per_setting() -> None:
    assert (GAME_WORD_LIMIT, TOOL_USE_WORD_LIMIT) == (6_000, 4_000)
    for kind in ("single_answer", "multi_turn_game", "corpus_grounded"):
        assert word_limit_for(kind) == 6_000
    assert word_limit_for("tool_use") == 4_000
    with pytest.raises(ValueError, match="unknown environment kind"):
        word_limit_for("chess")


def test_sample_for_truncates_to_the_kind_budget() -> None:
    words = [f"w{i}" for i in range(10_000)]
    text = "\n\n".join(" ".join(words[i:i + 100]) for i in range(0, 10_000, 100))
    corpus = Corpus([Document("big", text)], seed=0)
    game = corpus.sample_for("multi_turn_game")
    tool = corpus.sample_for("tool_use")
    assert count_words(game.text) == 6_000 and game.text.split()[-1] == "w5999"
    assert count_words(tool.text) == 4_000 and tool.text.split()[-1] == "w3999"
    assert "\n\n" in game.text, "paragraph breaks survive truncation"
    assert game.doc_id == "big" and game.sha256 != corpus.documents[0].sha256


def test_truncate_words_keeps_layout_and_short_texts() -> None:
    text = "Stop   A\n  Stop B\tStop C"
    assert truncate_words(text, 3) == "Stop   A\n  Stop"
    assert truncate_words(text, 6) == text
    assert truncate_words(text, 100) == text
    assert truncate_words(text, 0) == ""
    short = Document("s", "three small words")
    assert short.truncated(5) is short
    with pytest.raises(ValueError):
        truncate_words(text, -1)


# ------------------------------------------------------------------------------------------ sampling
def test_same_seed_same_sequence_different_seed_different() -> None:
    docs = numbered_docs(30)
    a, b, c = Corpus(docs, seed=7), Corpus(docs, seed=7), Corpus(docs, seed=8)
    seq_a = [a.sample().doc_id for _ in range(45)]
    seq_b = [b.sample().doc_id for _ in range(45)]
    seq_c = [c.sample().doc_id for _ in range(45)]
    assert seq_a == seq_b
    assert seq_a != seq_c


def test_fresh_document_per_attempt_then_reshuffle() -> None:
    corpus = Corpus(numbered_docs(10), seed=3)
    first_pass = [corpus.sample().doc_id for _ in range(10)]
    assert sorted(first_pass, key=int) == [str(i) for i in range(10)], "every document once per pass"
    assert corpus.epoch == 0
    second_pass = [corpus.sample().doc_id for _ in range(10)]
    assert corpus.epoch == 1
    assert sorted(second_pass, key=int) == [str(i) for i in range(10)]
    assert second_pass != first_pass, "the second pass is reshuffled"
    assert second_pass[0] != first_pass[-1], "never the same document twice in a row"


def test_an_explicit_generator_can_be_passed() -> None:
    docs = numbered_docs(12)
    first = Corpus(docs, rng=random.Random(42))
    again = Corpus(docs, rng=random.Random(42))
    assert [first.sample().doc_id for _ in range(20)] == [again.sample().doc_id for _ in range(20)]


def test_no_repeat_across_many_pass_boundaries() -> None:
    corpus = Corpus(numbered_docs(2), seed=0)
    sequence = [corpus.sample().doc_id for _ in range(40)]
    assert all(x != y for x, y in itertools.pairwise(sequence))
    single = Corpus(numbered_docs(1), seed=0)
    assert {single.sample().doc_id for _ in range(3)} == {"0"}


def test_sampling_leaves_the_global_random_state_alone() -> None:
    random.seed(1234)
    state = random.getstate()
    corpus = Corpus(numbered_docs(5), seed=0)
    expected = [corpus.sample().doc_id for _ in range(5)]
    assert random.getstate() == state
    random.seed(999)  # reseeding the module must not change the corpus's sequence
    again = Corpus(numbered_docs(5), seed=0)
    assert [again.sample().doc_id for _ in range(5)] == expected


# ------------------------------------------------------------------------------------------ other formats
def test_parquet_without_pyarrow_names_the_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(CorpusError) as info:
        Corpus.load(path)
    assert "pip install pyarrow" in str(info.value) and "\n" not in str(info.value)


def test_parquet_round_trip(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "c.parquet"
    parquet.write_table(pa.table({"orig_doc": ["one two", "three four five"]}), path)
    corpus = Corpus.load(path)
    assert [d.text for d in corpus] == ["one two", "three four five"]


def test_parquet_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="not found"):
        Corpus.from_parquet(tmp_path / "none.parquet")


def test_hf_without_datasets_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)
    with pytest.raises(CorpusError, match="pip install datasets"):
        Corpus.load("hf:some/corpus")


def _fake_datasets(records: list[dict] | Exception) -> SimpleNamespace:
    calls: list[tuple] = []

    def load_dataset(name: str, config: str | None = None, *, split: str, streaming: bool):
        calls.append((name, config, split, streaming))
        if isinstance(records, Exception):
            raise records
        return iter(records)

    return SimpleNamespace(load_dataset=load_dataset, calls=calls)


def test_hf_streams_with_a_limit_and_skips_empty_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake_datasets([{"text": "first doc"}, {"text": ""}, {"text": "second", "id": 77},
                           {"text": "third"}, {"text": "never read"}])
    monkeypatch.setitem(sys.modules, "datasets", fake)
    corpus = Corpus.from_hf("org/web", split="validation", limit=3, seed=1)
    assert fake.calls == [("org/web", None, "validation", True)]
    assert [d.text for d in corpus] == ["first doc", "second", "third"]
    assert corpus.documents[1].doc_id == "77" and corpus.name == "hf:org/web"


def test_hf_errors_are_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", _fake_datasets(ConnectionError("Couldn't reach\nthe Hub")))
    with pytest.raises(CorpusError) as info:
        Corpus.from_hf("org/web")
    assert "cannot stream" in str(info.value) and "\n" not in str(info.value)
    monkeypatch.setitem(sys.modules, "datasets", _fake_datasets([{"content": "x"}]))
    with pytest.raises(CorpusError, match="no 'text' or 'orig_doc' field"):
        Corpus.from_hf("org/code")


def test_load_dispatches_and_rejects_unknown_formats(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [{"text": "x y"}])
    assert len(Corpus.load(path)) == 1
    assert Corpus.load("demo").name == "spade-demo"
    with pytest.raises(CorpusError, match="cannot tell the format"):
        Corpus.load(tmp_path / "c.csv")


def test_importing_the_module_imports_no_optional_dependency() -> None:
    code = ("import sys, spade_train.corpus; "
            "assert 'datasets' not in sys.modules and 'pyarrow' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# ------------------------------------------------------------------------------------------ demo corpus
def test_demo_corpus_ships_thirty_short_documents() -> None:
    assert demo_corpus_path().is_file()
    corpus = Corpus.demo(seed=0)
    assert len(corpus) == 30
    assert len({d.doc_id for d in corpus}) == 30
    for doc in corpus:
        assert 150 <= doc.word_count <= 400, doc.doc_id
        assert doc.title and doc.source == "spade-demo"


def test_grounding_ref_records_what_the_designer_saw() -> None:
    doc = Corpus.demo(seed=0).sample(max_words=50)
    ref = doc.grounding_ref("spade-demo")
    assert (ref.corpus, ref.doc_id, ref.title) == ("spade-demo", doc.doc_id, doc.title)
    assert ref.sha256 == doc.sha256 and count_words(doc.text) == 50
