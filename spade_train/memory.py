"""The environment memory of a self-play run: every environment the designer wrote, its validation
verdict and its regret history, in one SQLite file per run.

Each stored environment is an ``EnvironmentRecord`` (its spec and code, as the design attempt found
them) with the memory's own facts about it (``StoredEnvironment``: verdict, failing checks, when).

The memory feeds the designer (reference environments for its prompt), the diversity pressure that
keeps self-play from collapsing (near-duplicates, novelty) and, at the end, the exported pool. The
reference implementation kept a JSON list of its last 200 records; here every record is kept in a real
embedded database and the "last 200" survive only as the *window* of environments eligible for
prompts (``capacity``), so nothing is lost for later analysis.

Durability
    The file is opened in WAL mode with ``synchronous=FULL``. In WAL mode a commit is one append to the
    ``-wal`` file; once ``COMMIT`` returns, the bytes are in the operating system, so a process killed
    with SIGKILL (or the OOM killer) loses nothing it committed, and ``NORMAL`` would already be enough
    for that. ``FULL`` additionally fsyncs the WAL at every commit, which extends the guarantee to a
    kernel panic or power loss of the training node. The self-play loop commits a few dozen records per
    step, and steps take minutes, so one fsync per commit costs nothing measurable; group many writes
    in ``batch()`` to pay it once. Pass ``synchronous="NORMAL"`` for throwaway runs on slow disks.

Thread-safety
    One ``EnvironmentMemory`` may be shared by threads: it owns one connection and serialises every call
    with a lock (``batch()`` holds that lock until the batch commits). Processes each open their own
    ``EnvironmentMemory`` on the same file: WAL lets readers proceed while one process writes, and
    writers wait up to ``busy_timeout_s`` for each other.

Schema
    ``schema_version`` lists the migrations applied. ``MIGRATIONS[i]`` brings a file from version ``i``
    to ``i + 1``; opening a file applies the missing ones in a single transaction (so a crash mid-way
    leaves the old schema intact) and refuses a file written by newer code. To change the schema,
    append a function to ``MIGRATIONS``; never edit a released one.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal, Self

from spade_envs.errors import SpadeError
from spade_envs.pool import write_pool
from spade_envs.spec.models import CheckFailure, EnvSpec, PoolManifest
from spade_train.environments import EnvironmentRecord, pool_entries
from spade_train.semantics import MemoryTies
from spade_train.similarity import Fingerprint, fingerprint, jaccard, normalized_ast_hash

DEFAULT_FILENAME = "memory.sqlite3"
DEFAULT_CAPACITY = 200
"""The reference's FIFO length: how many recently evaluated environments prompts may draw from."""
SNIPPET_CHARS = 2000
"""Code shown to the designer per reference environment, as in the reference."""
POSITIVE_WIN_RATE = (0.15, 0.85)
"""Inclusive win-rate band of positive examples: the agent sometimes wins, sometimes loses."""
TOO_EASY_ABOVE = 0.9
TOO_HARD_BELOW = 0.1

Synchronous = Literal["NORMAL", "FULL"]
ExampleLabel = Literal["positive", "too_easy", "too_hard"]
Migration = Callable[[sqlite3.Connection], None]


class MemorySchemaError(SpadeError):
    """The memory file cannot be used by this version of the code (e.g. it was written by a newer one)."""


# ---------------------------------------------------------------------------------------------- schema
def _schema_v1(conn: sqlite3.Connection) -> None:
    """The first schema: environments, and one row per evaluation of an environment (its regret history).

    Statements run one by one (not ``executescript``, which would commit the surrounding transaction).
    """
    statements = (
        """CREATE TABLE environments (
            id TEXT PRIMARY KEY,              -- env_id_for(code): the content hash
            class_name TEXT NOT NULL,
            kind TEXT NOT NULL,
            skill TEXT NOT NULL,
            code TEXT NOT NULL,
            spec_json TEXT NOT NULL,          -- the full EnvSpec
            grounding_doc_id TEXT,            -- corpus document it was written from
            designer_step INTEGER,            -- training step at which it was generated
            designer_iteration INTEGER,       -- generation / repair attempt within that step
            valid INTEGER,                    -- NULL: not validated yet; 0 / 1: the verdict
            failing_checks_json TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,         -- ISO 8601
            ast_hash TEXT,                    -- normalized_ast_hash(code); NULL if it does not parse
            parent_id TEXT                    -- environment this one repairs or varies (may be elsewhere)
        )""",
        "CREATE INDEX environments_skill ON environments (skill, valid)",
        "CREATE INDEX environments_ast_hash ON environments (ast_hash)",
        "CREATE INDEX environments_parent ON environments (parent_id)",
        """CREATE TABLE evaluations (
            id INTEGER PRIMARY KEY AUTOINCREMENT,   -- insertion order
            env_id TEXT NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
            step INTEGER NOT NULL,                  -- training step of the plays
            hinted_win_rate REAL,
            unhinted_win_rate REAL NOT NULL,        -- the agent's own win rate
            regret REAL NOT NULL,                   -- mean return with hint - without
            regret_ci_low REAL,
            regret_ci_high REAL,
            plays INTEGER NOT NULL,
            recorded_at TEXT NOT NULL
        )""",
        "CREATE INDEX evaluations_env_step ON evaluations (env_id, step, id)",
    )
    for statement in statements:
        conn.execute(statement)


MIGRATIONS: tuple[Migration, ...] = (_schema_v1,)
SCHEMA_VERSION = len(MIGRATIONS)


# ---------------------------------------------------------------------------------------------- records
@dataclass(frozen=True)
class StoredEnvironment:
    """One stored environment: its record (spec and code) and the memory's own facts about it (its
    verdict, when and from which attempt it was stored). Evaluations are separate: ``history``."""

    environment: EnvironmentRecord
    iteration: int | None
    """Generation / repair attempt within its designer step, when known."""
    valid: bool | None
    """None: not validated yet; else the verdict."""
    failing_checks: tuple[CheckFailure, ...]
    created_at: datetime
    ast_hash: str | None

    @property
    def id(self) -> str:
        return self.environment.id

    @property
    def spec(self) -> EnvSpec:
        return self.environment.spec

    @property
    def code(self) -> str:
        return self.environment.code


@dataclass(frozen=True)
class Evaluation:
    """One measurement of an environment at one training step."""

    env_id: str
    step: int
    unhinted_win_rate: float
    hinted_win_rate: float | None
    regret: float
    regret_ci_low: float | None
    regret_ci_high: float | None
    plays: int
    recorded_at: datetime

    def as_stats(self) -> dict[str, float]:
        """The known numbers as the flat ``stats`` mapping of a pool entry."""
        stats = {"step": float(self.step), "unhinted_win_rate": self.unhinted_win_rate, "regret": self.regret,
                 "plays": float(self.plays), "hinted_win_rate": self.hinted_win_rate,
                 "regret_ci_low": self.regret_ci_low, "regret_ci_high": self.regret_ci_high}
        return {key: value for key, value in stats.items() if value is not None}


@dataclass(frozen=True)
class MemoryExample:
    """A reference environment for a designer prompt; ``reason`` says why it was picked."""

    env_id: str
    skill: str
    code: str  # at most ``snippet_chars`` characters
    win_rate: float
    regret: float
    step: int
    label: ExampleLabel
    reason: str


@dataclass(frozen=True)
class NearDuplicate:
    """A stored environment that looks like the queried code."""

    env_id: str
    similarity: float
    same_ast: bool  # equal normalized_ast_hash: the same game, re-skinned


@dataclass(frozen=True)
class _Candidate:
    """An environment in the prompt window, with its latest evaluation."""

    env_id: str
    skill: str
    code: str
    win_rate: float
    regret: float
    step: int
    recency: int  # id of its most recent evaluation: larger is more recent


# ---------------------------------------------------------------------------------------------- helpers
def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _check_rate(name: str, value: float | None) -> None:
    if value is not None and not (isinstance(value, (int, float)) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be a win rate in [0, 1], got {value!r}")


def _check_finite(name: str, value: float | None) -> None:
    if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


def _ast_hash_or_none(code: str) -> str | None:
    try:
        return normalized_ast_hash(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # MemoryError: nesting too deep to parse
        return None


_ENV_COLUMNS = ("id, class_name, kind, skill, code, spec_json, grounding_doc_id, designer_step, designer_iteration, "
                "valid, failing_checks_json, created_at, ast_hash, parent_id")
_EVAL_COLUMNS = ("env_id, step, unhinted_win_rate, hinted_win_rate, regret, regret_ci_low, regret_ci_high, plays, "
                 "recorded_at")


def _environment_from_row(row: sqlite3.Row) -> StoredEnvironment:
    # The spec's own fields (class, kind, skill, step, grounding, parent) are columns too, for queries;
    # the stored spec is what they were written from.
    return StoredEnvironment(
        environment=EnvironmentRecord(EnvSpec.model_validate_json(row["spec_json"]), row["code"]),
        iteration=row["designer_iteration"], valid=None if row["valid"] is None else bool(row["valid"]),
        failing_checks=tuple(CheckFailure.model_validate(item) for item in json.loads(row["failing_checks_json"])),
        created_at=datetime.fromisoformat(row["created_at"]), ast_hash=row["ast_hash"],
    )


def _evaluation_from_row(row: sqlite3.Row) -> Evaluation:
    return Evaluation(
        env_id=row["env_id"], step=row["step"], unhinted_win_rate=row["unhinted_win_rate"],
        hinted_win_rate=row["hinted_win_rate"], regret=row["regret"], regret_ci_low=row["regret_ci_low"],
        regret_ci_high=row["regret_ci_high"], plays=row["plays"],
        recorded_at=datetime.fromisoformat(row["recorded_at"]),
    )


# ---------------------------------------------------------------------------------------------- the memory
class EnvironmentMemory:
    """Environments, verdicts and regret histories of one run, in one SQLite file (see module docstring).

    ``capacity``: how many most recently evaluated environments prompt sampling may draw from.
    ``novelty_window``: how many most recently added environments ``novelty`` and
    ``find_near_duplicates`` compare against (bounded work per call).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        capacity: int = DEFAULT_CAPACITY,
        novelty_window: int = 200,
        snippet_chars: int = SNIPPET_CHARS,
        synchronous: Synchronous = "FULL",
        busy_timeout_s: float = 30.0,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        if capacity < 1 or novelty_window < 1 or snippet_chars < 1:
            raise ValueError("capacity, novelty_window and snippet_chars must be at least 1")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self.path = Path(path)
        self.capacity = capacity
        self.novelty_window = novelty_window
        self.snippet_chars = snippet_chars
        self._lock = threading.RLock()
        # Fingerprints of stored code, by env id. Ids are content hashes, so an entry never goes stale.
        self._fingerprints: dict[str, Fingerprint] = {}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT explicitly.
        conn = sqlite3.connect(str(self.path), timeout=busy_timeout_s, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.row_factory = sqlite3.Row
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise MemorySchemaError(f"{self.path}: SQLite refused WAL mode (journal_mode={mode}); "
                                        "use a file on a local disk")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("PRAGMA foreign_keys=ON")
            self._migrate(conn, tuple(migrations))
        except BaseException:
            conn.close()
            raise
        self._conn: sqlite3.Connection | None = conn

    @classmethod
    def for_run(cls, run_dir: str | Path, **options) -> EnvironmentMemory:
        """The memory of the run stored in ``run_dir`` (``run_dir/memory.sqlite3``), created if new."""
        return cls(Path(run_dir) / DEFAULT_FILENAME, **options)

    def _migrate(self, conn: sqlite3.Connection, migrations: tuple[Migration, ...]) -> None:
        """Apply the migrations this file lacks, all in one transaction (BEGIN IMMEDIATE serialises openers)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version "
                         "(version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
            current = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
            if current > len(migrations):
                raise MemorySchemaError(f"{self.path} has schema version {current}, newer than this code "
                                        f"({len(migrations)}); upgrade spade_train to read it")
            for version, migrate in enumerate(migrations[current:], start=current + 1):
                migrate(conn)
                conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, _now()))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # ------------------------------------------------------------------ connection and transactions
    def close(self) -> None:
        """Close the file (idempotent). Everything committed is already on disk."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def backup_to(self, path: str | Path) -> None:
        """Copy the whole database, as of now, into a new file ``path`` (SQLite's online backup).

        The copy is consistent (a snapshot between transactions) and needs no WAL where it is written, so
        it can go to shared storage that SQLite could not run on (see ``EnvironmentMemory``'s WAL check).
        """
        with self._lock:
            target = sqlite3.connect(str(path))
            try:
                self._connection().backup(target)
            finally:
                target.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError(f"the memory {self.path} is closed")
        return self._conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, or the enclosing ``batch()`` one; rolled back if the block raises."""
        with self._lock:
            conn = self._connection()
            if conn.in_transaction:
                yield conn
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several writes into one transaction: all or none of them are committed, with one fsync.

        Other threads wait for the batch to finish.
        """
        with self._write():
            yield

    def _read(self, sql: str, parameters: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._connection().execute(sql, parameters).fetchall()

    @property
    def schema_version(self) -> int:
        return self._read("SELECT COALESCE(MAX(version), 0) FROM schema_version")[0][0]

    @property
    def journal_mode(self) -> str:
        return str(self._read("PRAGMA journal_mode")[0][0]).lower()

    # ------------------------------------------------------------------ environments
    def add_environment(
        self,
        environment: EnvironmentRecord,
        *,
        iteration: int | None = None,
        valid: bool | None = None,
        failing_checks: Sequence[CheckFailure] = (),
    ) -> bool:
        """Store an environment; returns False if this exact code was already stored.

        The content hash is the identity, so a second add of the same code changes nothing (use
        ``set_verdict`` to record a later validation). Step, parent and grounding document are taken
        from the spec; ``valid`` / ``failing_checks`` are the validation verdict (``report.ok`` and
        ``report.failures``), or None if not validated yet.
        """
        spec, code = environment.spec, environment.code
        failures = list(failing_checks)
        if valid and failures:
            raise ValueError("an environment with failing checks cannot be valid")
        created_at = spec.provenance.created_at or datetime.now(timezone.utc)
        row = (spec.id, spec.class_name, spec.kind, spec.skill, code, spec.model_dump_json(),
               spec.grounding.doc_id if spec.grounding else None, spec.provenance.step, iteration,
               None if valid is None else int(valid), json.dumps([f.model_dump(mode="json") for f in failures]),
               created_at.isoformat(), _ast_hash_or_none(code), spec.provenance.parent_id)
        with self._write() as conn:
            cursor = conn.execute(f"INSERT INTO environments ({_ENV_COLUMNS}) VALUES ({', '.join('?' * len(row))}) "
                                  "ON CONFLICT (id) DO NOTHING", row)
            return cursor.rowcount == 1

    def set_verdict(self, env_id: str, *, valid: bool, failing_checks: Sequence[CheckFailure] = ()) -> None:
        """Record (or replace) the validation verdict of a stored environment."""
        failures = list(failing_checks)
        if valid and failures:
            raise ValueError("an environment with failing checks cannot be valid")
        with self._write() as conn:
            cursor = conn.execute("UPDATE environments SET valid = ?, failing_checks_json = ? WHERE id = ?",
                                  (int(valid), json.dumps([f.model_dump(mode="json") for f in failures]), env_id))
            if cursor.rowcount == 0:
                raise KeyError(f"no environment {env_id} in the memory")

    def replace_spec(self, spec: EnvSpec) -> None:
        """Replace the stored spec of an environment with a newer one of the same code (its accepted
        hint, the kind and reward range its played design showed), with the columns read from it."""
        with self._write() as conn:
            cursor = conn.execute(
                "UPDATE environments SET class_name = ?, kind = ?, skill = ?, spec_json = ?, grounding_doc_id = ?, "
                "designer_step = ?, parent_id = ? WHERE id = ?",
                (spec.class_name, spec.kind, spec.skill, spec.model_dump_json(),
                 spec.grounding.doc_id if spec.grounding else None, spec.provenance.step, spec.provenance.parent_id,
                 spec.id))
            if cursor.rowcount == 0:
                raise KeyError(f"no environment {spec.id} in the memory")

    def get(self, env_id: str) -> StoredEnvironment | None:
        """The stored environment with this id, or None."""
        rows = self._read(f"SELECT {_ENV_COLUMNS} FROM environments WHERE id = ?", (env_id,))
        return _environment_from_row(rows[0]) if rows else None

    def __contains__(self, env_id: object) -> bool:
        return bool(self._read("SELECT 1 FROM environments WHERE id = ?", (env_id,)))

    def _filters(self, valid_only: bool, skill: str | None) -> tuple[str, list[object]]:
        clauses, parameters = ["1"], []
        if valid_only:
            clauses.append("valid = 1")
        if skill is not None:
            clauses.append("skill = ?")
            parameters.append(skill)
        return " AND ".join(clauses), parameters

    def environments(self, valid_only: bool = True, skill: str | None = None) -> list[StoredEnvironment]:
        """Stored environments in the order they were added; by default only those that passed validation."""
        where, parameters = self._filters(valid_only, skill)
        rows = self._read(f"SELECT {_ENV_COLUMNS} FROM environments WHERE {where} ORDER BY rowid", parameters)
        return [_environment_from_row(row) for row in rows]

    def count(self, *, valid_only: bool = False, skill: str | None = None) -> int:
        """How many environments are stored (all of them unless filtered, unlike ``environments()``)."""
        where, parameters = self._filters(valid_only, skill)
        return self._read(f"SELECT COUNT(*) FROM environments WHERE {where}", parameters)[0][0]

    # ------------------------------------------------------------------ evaluations (regret history)
    def record_evaluation(
        self,
        env_id: str,
        *,
        step: int,
        unhinted_win_rate: float,
        regret: float,
        plays: int,
        hinted_win_rate: float | None = None,
        regret_ci: tuple[float, float] | None = None,
    ) -> Evaluation:
        """Append one measurement to an environment's history and return it.

        ``unhinted_win_rate`` is the agent's own win rate (the one prompts filter on); ``regret`` is
        mean return with the hint minus without; ``regret_ci`` an optional (low, high) interval;
        ``plays`` how many episodes the figures come from.
        """
        if not isinstance(step, int) or step < 0:
            raise ValueError(f"step must be a non-negative integer, got {step!r}")
        if not isinstance(plays, int) or plays < 0:
            raise ValueError(f"plays must be a non-negative integer, got {plays!r}")
        _check_rate("unhinted_win_rate", unhinted_win_rate)
        _check_rate("hinted_win_rate", hinted_win_rate)
        _check_finite("regret", regret)
        low, high = regret_ci if regret_ci is not None else (None, None)
        _check_finite("regret_ci low", low)
        _check_finite("regret_ci high", high)
        if low is not None and high is not None and low > high:
            raise ValueError(f"regret_ci low {low} is above high {high}; write (low, high)")
        evaluation = Evaluation(env_id=env_id, step=step, unhinted_win_rate=float(unhinted_win_rate),
                                hinted_win_rate=None if hinted_win_rate is None else float(hinted_win_rate),
                                regret=float(regret), regret_ci_low=low, regret_ci_high=high, plays=plays,
                                recorded_at=datetime.now(timezone.utc))
        with self._write() as conn:
            if conn.execute("SELECT 1 FROM environments WHERE id = ?", (env_id,)).fetchone() is None:
                raise KeyError(f"no environment {env_id} in the memory; add_environment() it first")
            conn.execute(f"INSERT INTO evaluations ({_EVAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (env_id, step, evaluation.unhinted_win_rate, evaluation.hinted_win_rate, evaluation.regret,
                          low, high, plays, evaluation.recorded_at.isoformat()))
        return evaluation

    def history(self, env_id: str) -> list[Evaluation]:
        """Every evaluation of an environment, by training step (ties: the order they were recorded)."""
        rows = self._read(f"SELECT {_EVAL_COLUMNS} FROM evaluations WHERE env_id = ? ORDER BY step, id", (env_id,))
        return [_evaluation_from_row(row) for row in rows]

    def latest_stats(self, env_id: str) -> Evaluation | None:
        """The evaluation at the highest training step (the last recorded among equals), or None."""
        rows = self._read(f"SELECT {_EVAL_COLUMNS} FROM evaluations WHERE env_id = ? "
                          "ORDER BY step DESC, id DESC LIMIT 1", (env_id,))
        return _evaluation_from_row(rows[0]) if rows else None

    # ------------------------------------------------------------------ designer prompt examples
    def _prompt_window(self) -> list[_Candidate]:
        """The ``capacity`` most recently evaluated environments not known to be invalid, newest first.

        This is the reference's 200-record FIFO: an environment enters it each time it is evaluated.
        Each comes with its latest evaluation (``latest_stats``).
        """
        rows = self._read(
            """SELECT env.id, env.skill, env.code, ev.unhinted_win_rate, ev.regret, ev.step, recent.last_id
               FROM (SELECT evaluations.env_id, MAX(evaluations.id) AS last_id
                     FROM evaluations JOIN environments ON environments.id = evaluations.env_id
                     WHERE environments.valid IS NULL OR environments.valid = 1
                     GROUP BY evaluations.env_id ORDER BY last_id DESC LIMIT ?) AS recent
               JOIN environments AS env ON env.id = recent.env_id
               JOIN evaluations AS ev ON ev.id = (SELECT id FROM evaluations WHERE env_id = recent.env_id
                                                  ORDER BY step DESC, id DESC LIMIT 1)
               ORDER BY recent.last_id DESC""",
            (self.capacity,),
        )
        return [_Candidate(env_id=row[0], skill=row[1], code=row[2], win_rate=row[3], regret=row[4], step=row[5],
                           recency=row[6]) for row in rows]

    def prompt_examples(
        self,
        skills: Sequence[str] | str,
        rng: random.Random,
        *,
        positives: int = 2,
        negatives: int = 1,
        ties: MemoryTies = "newest",
    ) -> list[MemoryExample]:
        """Reference environments for a designer prompt, per skill, exactly as the reference picks them.

        For each skill (in the order given), from the environments in the prompt window:

        - ``positives`` examples sampled uniformly (with ``rng``) from the top ``max(3 * positives, 10)``
          by regret among those whose win rate is in [0.15, 0.85] (inclusive);
        - ``negatives`` examples sampled uniformly from those with win rate above 0.9 ("too easy") or
          below 0.1 ("too hard").

        Fewer are returned when there are fewer candidates. Candidates are put in a fixed order before
        sampling, so the same memory and the same seed give the same examples. Code is cut to
        ``snippet_chars`` characters.

        ``ties`` decides among equal regrets at the top-10 cut: ``"newest"`` first (the toolkit) or
        ``"oldest"`` first, the release's stable sort over its records in insertion order; with
        ``"oldest"`` both samples also draw from candidates in the release's oldest-first order.
        """
        if positives < 0 or negatives < 0:
            raise ValueError("positives and negatives must be non-negative")
        skill_list = [skills] if isinstance(skills, str) else list(skills)
        window = self._prompt_window()
        low, high = POSITIVE_WIN_RATE
        examples: list[MemoryExample] = []
        for skill in skill_list:
            candidates = [c for c in window if c.skill == skill]  # newest first
            if ties == "oldest":
                candidates.reverse()
            band = sorted((c for c in candidates if low <= c.win_rate <= high),
                          key=lambda c: (-c.regret, c.recency if ties == "oldest" else -c.recency))
            top = band[:max(3 * positives, 10)]
            for candidate in rng.sample(top, min(positives, len(top))):
                examples.append(self._example(candidate, "positive"))
            extremes = [c for c in candidates if c.win_rate > TOO_EASY_ABOVE or c.win_rate < TOO_HARD_BELOW]
            for candidate in rng.sample(extremes, min(negatives, len(extremes))):
                examples.append(self._example(candidate, "too_easy" if candidate.win_rate > TOO_EASY_ABOVE
                                              else "too_hard"))
        return examples

    def _example(self, candidate: _Candidate, label: ExampleLabel) -> MemoryExample:
        rate = f"{candidate.win_rate:.0%}"
        reason = {
            "positive": f"challenging but learnable: the agent wins {rate} without a hint, regret "
                        f"{candidate.regret:+.2f}",
            "too_easy": f"too easy: the agent already wins {rate} without a hint",
            "too_hard": f"too hard: the agent wins only {rate}",
        }[label]
        return MemoryExample(env_id=candidate.env_id, skill=candidate.skill,
                             code=candidate.code[:self.snippet_chars], win_rate=candidate.win_rate,
                             regret=candidate.regret, step=candidate.step, label=label, reason=reason)

    # ------------------------------------------------------------------ near-duplicates and novelty
    def _recent_fingerprints(self, window: int) -> list[tuple[str, Fingerprint]]:
        """Fingerprints of the ``window`` most recently added environments, newest first (cached)."""
        with self._lock:
            ids = [row[0] for row in self._read("SELECT id FROM environments ORDER BY rowid DESC LIMIT ?",
                                                (window,))]
            missing = [env_id for env_id in ids if env_id not in self._fingerprints]
            for start in range(0, len(missing), 500):  # stay under SQLite's parameter limit
                chunk = missing[start:start + 500]
                rows = self._read(f"SELECT id, code FROM environments WHERE id IN ({', '.join('?' * len(chunk))})",
                                  chunk)
                for env_id, code in rows:
                    self._fingerprints[env_id] = fingerprint(code)
            # Least recently used first: move the ones used now to the end, then trim from the front.
            recent = [(env_id, self._fingerprints.pop(env_id)) for env_id in ids]
            self._fingerprints.update(recent)
            while len(self._fingerprints) > 2 * max(window, self.novelty_window):
                del self._fingerprints[next(iter(self._fingerprints))]
            return recent

    def find_near_duplicates(self, code: str, threshold: float = 0.9, *,
                             window: int | None = None) -> list[NearDuplicate]:
        """Stored environments at least ``threshold`` similar to ``code``, most similar first.

        Exact re-skins (same ``normalized_ast_hash``) are found among *all* stored environments through
        an index; fuzzy matches among the ``window`` (default ``novelty_window``) most recent ones.
        """
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], got {threshold}")
        ast_hash = _ast_hash_or_none(code)
        same_ast = set()
        if ast_hash is not None:
            same_ast = {row[0] for row in self._read("SELECT id FROM environments WHERE ast_hash = ?", (ast_hash,))}
        probe = fingerprint(code)
        found = {env_id: NearDuplicate(env_id, 1.0, True) for env_id in same_ast}
        for env_id, stored in self._recent_fingerprints(window or self.novelty_window):
            score = jaccard(probe, stored)
            if env_id not in found and score >= threshold:
                found[env_id] = NearDuplicate(env_id, score, False)
        return sorted(found.values(), key=lambda d: (-d.similarity, d.env_id))

    def novelty(self, code: str, *, window: int | None = None) -> float:
        """1 - the highest similarity of ``code`` to the ``window`` most recent environments (1.0 if none).

        Cheap enough to run on every generated environment: the stored fingerprints are cached, so a
        call parses only ``code``. Use it as a designer reward bonus or as a filter against collapse.
        """
        probe = fingerprint(code)
        scores = [jaccard(probe, stored) for _, stored in self._recent_fingerprints(window or self.novelty_window)]
        return 1.0 - max(scores, default=0.0)

    # ------------------------------------------------------------------ export
    def export_pool(self, directory: str | Path, name: str, *, min_validated: bool = True,
                    skill: str | None = None) -> PoolManifest:
        """Write stored environments as a pool (``spade_envs.pool`` format) and return its manifest.

        ``min_validated`` keeps only environments that passed validation; otherwise every stored one is
        exported and the pool is marked validated only if all of them passed. Each entry's ``stats``
        hold its latest evaluation (win rates, regret, interval, plays, step) and how many it had.
        """
        records = self.environments(valid_only=min_validated, skill=skill)
        stats: dict[str, dict[str, float]] = {}
        for record in records:
            latest = self.latest_stats(record.id)
            evaluations = self._read("SELECT COUNT(*) FROM evaluations WHERE env_id = ?", (record.id,))[0][0]
            stats[record.id] = {**(latest.as_stats() if latest else {}), "evaluations": float(evaluations)}
        validated = min_validated or (bool(records) and all(record.valid for record in records))
        return write_pool(Path(directory), name, pool_entries([record.environment for record in records]),
                          validated=validated, stats=stats)

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else "open"
        return f"EnvironmentMemory({str(self.path)!r}, {state})"
