"""The grounding corpus: documents the designer writes environments from.

SPADE grounds generated environments in real text so the designer does not keep reinventing the same
few puzzles: each generation attempt gets a fresh document, shown to the designer inside
``<REFERENCE_DOCUMENT>``. The reference release reads JSONL (one document per line, the text in ``text``
or ``orig_doc``), truncates it to 6,000 words for games and 4,000 for tool use, and samples uniformly
with a fixed seed. This module does the same, plus Parquet and streamed Hugging Face datasets.

Sampling is without replacement: :meth:`Corpus.sample` walks a seeded permutation of the documents,
so every call returns a document not yet returned in this pass; once all have been used it reshuffles
and starts a new pass (``Corpus.epoch`` counts passes). That keeps "a fresh document per attempt" true
for as long as the corpus allows, and stays uniform over a pass. The random state lives in the
``Corpus`` instance (its own ``random.Random``), never in the ``random`` module.

Optional dependencies (``pyarrow``, ``datasets``) are imported only when a loader needs them, so
importing this module never fails or touches the network.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from spade_envs.errors import SpadeError
from spade_envs.spec.models import EnvKind, GroundingRef

GAME_WORD_LIMIT = 6_000
"""Words of a document shown to the designer for single-answer, game and corpus-grounded prompts."""

TOOL_USE_WORD_LIMIT = 4_000
"""Words shown for tool-use prompts: their contract text is longer, so the document gets less room."""

WORD_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "single_answer": GAME_WORD_LIMIT,
        "multi_turn_game": GAME_WORD_LIMIT,
        "corpus_grounded": GAME_WORD_LIMIT,
        "tool_use": TOOL_USE_WORD_LIMIT,
    }
)

TEXT_FIELDS: tuple[str, ...] = ("text", "orig_doc")
"""Where a record's text may live, in order of preference (``orig_doc`` is the reference's name)."""

ID_FIELDS: tuple[str, ...] = ("doc_id", "id")
TITLE_FIELDS: tuple[str, ...] = ("title", "name")

DEFAULT_HF_LIMIT = 10_000
"""Documents read from a streamed Hugging Face dataset unless told otherwise: enough variety for a run
without downloading a whole web-scale corpus."""

DEMO_CORPUS_NAME = "spade-demo"

_WORD = re.compile(r"\S+")


class CorpusError(SpadeError, ValueError):
    """A corpus that cannot be used; the message is one line saying what is wrong and where."""


def word_limit_for(kind: EnvKind | str) -> int:
    """Word budget for a document shown to the designer of an environment of this kind."""
    try:
        return WORD_LIMITS[kind]
    except KeyError:
        known = ", ".join(WORD_LIMITS)
        raise ValueError(f"unknown environment kind {kind!r}; expected one of: {known}") from None


def count_words(text: str) -> int:
    """Words as whitespace-separated runs, the unit the truncation limits are written in."""
    return sum(1 for _ in _WORD.finditer(text))


def truncate_words(text: str, max_words: int) -> str:
    """The first ``max_words`` words of ``text``, keeping its original spacing and paragraph breaks.

    Cutting at the end of the last kept word (rather than re-joining words with spaces) preserves the
    layout of tables and lists, which designers use when they turn a document into game state.
    """
    if max_words < 0:
        raise ValueError(f"max_words must be >= 0, got {max_words}")
    if max_words == 0:
        return ""
    end = None
    for index, match in enumerate(_WORD.finditer(text), start=1):
        if index == max_words:
            end = match.end()
            break
    return text if end is None else text[:end]


@dataclass(frozen=True)
class Document:
    """One grounding document: its id inside the corpus, its text and where it came from."""

    doc_id: str
    text: str
    title: str | None = None
    source: str = ""
    """Name or path of the corpus the document came from (recorded in the environment's GroundingRef)."""

    @property
    def word_count(self) -> int:
        return count_words(self.text)

    @property
    def sha256(self) -> str:
        """Hash of exactly the text shown to the designer, so a pool entry can prove what it saw."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def truncated(self, max_words: int) -> Document:
        """The same document cut to ``max_words`` words (itself when already short enough)."""
        text = truncate_words(self.text, max_words)
        return self if text == self.text else replace(self, text=text)

    def grounding_ref(self, corpus: str | None = None) -> GroundingRef:
        """The record an environment spec keeps of the document it was written from."""
        return GroundingRef(corpus=corpus or self.source or "corpus", doc_id=self.doc_id, title=self.title,
                            sha256=self.sha256)


def _first_string(record: Mapping[str, Any], fields: Sequence[str]) -> str | None:
    for name in fields:
        value = record.get(name)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _record_to_document(record: Any, *, where: str, default_id: str, source: str) -> Document:
    """Build a Document from one record, or raise CorpusError naming the record's location."""
    if not isinstance(record, Mapping):
        raise CorpusError(f"{where}: expected a JSON object with a 'text' or 'orig_doc' field, "
                          f"got {type(record).__name__}")
    text = _first_string(record, TEXT_FIELDS)
    if text is None:
        raise CorpusError(f"{where}: no non-empty 'text' or 'orig_doc' string")
    doc_id = next((str(record[name]) for name in ID_FIELDS if record.get(name) not in (None, "")), default_id)
    return Document(doc_id=doc_id, text=text, title=_first_string(record, TITLE_FIELDS), source=source)


def read_jsonl(path: str | Path, *, source: str | None = None) -> list[Document]:
    """Documents of a JSONL file, one JSON object per line; blank lines are skipped.

    A document without an ``id``/``doc_id`` is identified by its 1-based line number.
    """
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"corpus file not found: {path}")
    source = source or str(path)
    documents: list[Document] = []
    with path.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise CorpusError(f"{path}:{lineno}: not valid JSON ({error.msg})") from None
            documents.append(_record_to_document(record, where=f"{path}:{lineno}", default_id=str(lineno),
                                                  source=source))
    return documents


def read_parquet(path: str | Path, *, source: str | None = None) -> list[Document]:
    """Documents of a Parquet file (a ``text`` or ``orig_doc`` column); needs pyarrow."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"corpus file not found: {path}")
    try:
        from pyarrow import parquet
    except ImportError:
        raise CorpusError(f"reading {path} needs pyarrow, which is not installed: pip install pyarrow") from None
    try:
        rows = parquet.read_table(path).to_pylist()
    except Exception as error:  # noqa: BLE001 -- pyarrow raises several unrelated types for a bad file
        raise CorpusError(f"{path}: cannot read Parquet ({type(error).__name__}: {error})") from None
    source = source or str(path)
    return [_record_to_document(row, where=f"{path}: row {index}", default_id=str(index), source=source)
            for index, row in enumerate(rows)]


def read_hf_dataset(
    name: str,
    *,
    split: str = "train",
    config: str | None = None,
    text_field: str | None = None,
    limit: int = DEFAULT_HF_LIMIT,
) -> list[Document]:
    """The first ``limit`` documents of a Hugging Face dataset, streamed (nothing is downloaded whole).

    Records whose text is empty are skipped (web corpora have many); a dataset without the text field
    at all is an error. Needs the ``datasets`` package and network access to the Hub (or its cache).
    """
    if limit < 1:
        raise ValueError(f"limit must be >= 1, got {limit}")
    try:
        import datasets
    except ImportError:
        raise CorpusError(f"loading the Hugging Face dataset {name!r} needs the datasets package, "
                          "which is not installed: pip install datasets") from None
    fields = (text_field,) if text_field else TEXT_FIELDS
    source = f"hf:{name}" + (f"/{config}" if config else "") + f":{split}"
    documents: list[Document] = []
    try:
        stream = datasets.load_dataset(name, config, split=split, streaming=True)
        for index, record in enumerate(stream):
            if index == 0 and not any(field in record for field in fields):
                raise CorpusError(f"{source}: records have no {' or '.join(map(repr, fields))} field "
                                  f"(fields: {', '.join(sorted(record))}); pass text_field=")
            text = _first_string(record, fields)
            if text is not None:
                doc_id = next((str(record[f]) for f in ID_FIELDS if record.get(f) not in (None, "")), str(index))
                documents.append(Document(doc_id=doc_id, text=text, title=_first_string(record, TITLE_FIELDS),
                                          source=source))
            if len(documents) >= limit:
                break
    except CorpusError:
        raise
    except Exception as error:  # noqa: BLE001 -- network, authentication, unknown dataset: all reported the same way
        message = " ".join(str(error).split())[:300]
        raise CorpusError(f"cannot stream Hugging Face dataset {name!r} (offline, or no such dataset/split?): "
                          f"{type(error).__name__}: {message}") from None
    return documents


def demo_corpus_path() -> Path:
    """Path of the bundled demo corpus (30 short original documents for tests and quick starts)."""
    return Path(str(resources.files("spade_train").joinpath("data", "demo_corpus.jsonl")))


class Corpus:
    """A fixed set of documents with seeded, without-replacement sampling.

    ``sample()`` returns a document not yet returned in the current pass; after every document has been
    returned once, the order is reshuffled with the corpus's own generator and a new pass begins (when
    the corpus has more than one document, the new pass never starts with the document that ended the
    last one). The same seed and the same documents give the same sequence of samples.
    """

    def __init__(self, documents: Iterable[Document], *, name: str = "corpus", seed: int = 0,
                 rng: random.Random | None = None) -> None:
        """``rng``, when given, is used (and advanced) instead of a generator seeded with ``seed``."""
        self._documents: tuple[Document, ...] = tuple(documents)
        if not self._documents:
            raise CorpusError(f"corpus {name!r} has no documents")
        self.name = name
        self.seed = seed
        self._rng = rng if rng is not None else random.Random(seed)
        self._order: list[int] = []
        self._position = 0
        self._epoch = 0
        self._lock = threading.Lock()  # sample() may be called from worker threads

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_jsonl(cls, path: str | Path, *, seed: int = 0, name: str | None = None) -> Corpus:
        return cls(read_jsonl(path, source=name), name=name or str(path), seed=seed)

    @classmethod
    def from_parquet(cls, path: str | Path, *, seed: int = 0, name: str | None = None) -> Corpus:
        return cls(read_parquet(path, source=name), name=name or str(path), seed=seed)

    @classmethod
    def from_hf(
        cls,
        dataset: str,
        *,
        split: str = "train",
        config: str | None = None,
        text_field: str | None = None,
        limit: int = DEFAULT_HF_LIMIT,
        seed: int = 0,
    ) -> Corpus:
        documents = read_hf_dataset(dataset, split=split, config=config, text_field=text_field, limit=limit)
        return cls(documents, name=f"hf:{dataset}", seed=seed)

    @classmethod
    def demo(cls, *, seed: int = 0) -> Corpus:
        """The bundled demo corpus."""
        return cls.from_jsonl(demo_corpus_path(), seed=seed, name=DEMO_CORPUS_NAME)

    @classmethod
    def load(cls, source: str | Path, *, seed: int = 0, **hf_options: Any) -> Corpus:
        """Open a corpus by description: ``*.jsonl`` / ``*.parquet`` paths, ``hf:<dataset>`` or ``demo``.

        The ``hf:`` prefix is explicit so that a mistyped file name is reported as a missing file rather
        than sent to the Hub as a dataset name.
        """
        text = str(source)
        if text == "demo":
            return cls.demo(seed=seed)
        if text.startswith("hf:"):
            return cls.from_hf(text[3:], seed=seed, **hf_options)
        suffix = Path(text).suffix.lower()
        if suffix in (".jsonl", ".json", ".ndjson"):
            return cls.from_jsonl(text, seed=seed)
        if suffix in (".parquet", ".pq"):
            return cls.from_parquet(text, seed=seed)
        raise CorpusError(f"cannot tell the format of corpus {text!r}: use a .jsonl or .parquet file, "
                          "'hf:<dataset name>' or 'demo'")

    # ------------------------------------------------------------------ access
    @property
    def documents(self) -> tuple[Document, ...]:
        return self._documents

    @property
    def epoch(self) -> int:
        """Completed passes over the corpus (0 until every document has been sampled once)."""
        return self._epoch

    def __len__(self) -> int:
        return len(self._documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self._documents)

    def sample(self, max_words: int | None = None) -> Document:
        """A fresh document (see the class docstring), cut to ``max_words`` words when given."""
        with self._lock:
            if self._position >= len(self._order):
                self._reshuffle()
            document = self._documents[self._order[self._position]]
            self._position += 1
        return document if max_words is None else document.truncated(max_words)

    def sample_for(self, kind: EnvKind | str) -> Document:
        """A fresh document truncated to the word budget of this environment kind."""
        return self.sample(word_limit_for(kind))

    def _reshuffle(self) -> None:
        previous_last = self._order[-1] if self._order else None
        if self._order:
            self._epoch += 1
        order = list(range(len(self._documents)))
        self._rng.shuffle(order)
        if previous_last is not None and len(order) > 1 and order[0] == previous_last:
            order[0], order[-1] = order[-1], order[0]  # never hand out the same document twice in a row
        self._order, self._position = order, 0
