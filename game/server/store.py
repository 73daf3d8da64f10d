"""Where the server keeps its matches: a :class:`MatchStore` (SQLite by default, one file).

A match is kept as its :class:`KeptMatch` row: the game, its options and rules, the public
``start_seed`` and the private ``seed`` of its chance draws, its seats (a person's token only
as its SHA-256), its status (``live``, ``over``, ``damaged``) and its record as action texts
with their seats. Every accepted step is written in one transaction with the match's new
status and the digest of its state's key, so a server killed at any moment comes back with
each match as it was after some whole step.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = SqliteStore(folder / "m.sqlite3")
>>> store.create(KeptMatch("ABC234", "river", {}, {}, 1, 2, [{"kind": "open"}]))
>>> store.record("ABC234", 0, [KeptMatch.step(0, "a")], MatchProgress("k"))
>>> [(m.code, m.steps[0]["text"], m.key_digest) for m in store.unfinished()]
[('ABC234', 'a', 'k')]
>>> store.close()
"""

from __future__ import annotations

import abc
import json
import logging
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NamedTuple, TypeAlias

from game.errors import GamehallError

__all__ = ["DATABASE_NAME", "KeptMatch", "MatchStore", "SqliteStore", "StoreError", "open_store"]

log = logging.getLogger(__name__)

#: The database's file in the server's data folder.
DATABASE_NAME: Final = "gamehall-server.sqlite3"

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS matches (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    rules TEXT NOT NULL,
    start_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'live',
    ended_by TEXT,
    key_digest TEXT,
    damage TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    code TEXT NOT NULL REFERENCES matches(code),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    forced INTEGER NOT NULL DEFAULT 0,
    forfeit TEXT,
    PRIMARY KEY (code, ply)
);
"""


#: Steps as the store keeps them (:meth:`KeptMatch.step`).
Steps: TypeAlias = Sequence[dict[str, Any]]


class MatchProgress(NamedTuple):
    """Where a match stands after a step (:meth:`MatchStore.record`): its state's key digest,
    ``live`` or ``over``, and what ended it other than the rules (a resignation), if any."""

    key_digest: str
    status: str = "live"
    ended_by: str | None = None


class StoreError(GamehallError):
    """The database cannot be opened or written (the message names it and why)."""


@dataclass
class KeptMatch:
    """One match as the store keeps it; ``steps`` are dicts with ``seat``, ``text``,
    ``forced`` and ``forfeit`` (None unless the seat lost its turn), in the record's order."""

    code: str
    game: str
    options: dict[str, Any]
    rules: dict[str, Any]
    start_seed: int
    seed: int
    seats: list[dict[str, Any]]
    status: str = "live"
    ended_by: str | None = None
    key_digest: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)

    @staticmethod
    def step(
        seat: int, text: str, forced: bool = False, forfeit: str | None = None
    ) -> dict[str, Any]:
        """One step of :attr:`steps`."""
        return {"seat": seat, "text": text, "forced": forced, "forfeit": forfeit}


class MatchStore(abc.ABC):
    """What the host asks of its database; each call is one transaction."""

    @abc.abstractmethod
    def create(self, kept: KeptMatch) -> None:
        """Keep a new match (with the steps it has played by itself); raises
        :class:`StoreError` when its code is taken."""

    @abc.abstractmethod
    def has(self, code: str) -> bool:
        """Whether a match (of any status) has this code."""

    @abc.abstractmethod
    def record(self, code: str, ply: int, steps: Steps, outcome: MatchProgress) -> None:
        """The record from step ``ply`` on is ``steps`` (steps beyond are dropped: an undo
        writes none), with the match's new status and key digest (``outcome``)."""

    @abc.abstractmethod
    def seats(self, code: str, seats: Sequence[dict[str, Any]]) -> None:
        """The match's seats now (someone joined or left)."""

    @abc.abstractmethod
    def damaged(self, code: str, why: str) -> None:
        """Mark a match that no longer rebuilds; it stays kept, never loaded again."""

    @abc.abstractmethod
    def unfinished(self) -> list[KeptMatch]:
        """Every live match with its record, oldest first."""

    @abc.abstractmethod
    def finished(self, code: str) -> KeptMatch | None:
        """The match ``code`` with its record where it is over (a client that was away asks
        to see how it ended), else None."""

    @abc.abstractmethod
    def close(self) -> None: ...


class SqliteStore(MatchStore):
    """The store in one SQLite file, opened on the thread that uses it (the event loop's).

    The journal is a write-ahead log with ``synchronous=NORMAL``: a committed transaction is
    in the log before the commit returns, so a killed server process loses nothing it
    committed; only a power cut can lose the last few commits (never tear one), which a game
    server may afford for the speed of not syncing every step.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: {exc}") from None

    def create(self, kept: KeptMatch) -> None:
        now = time.time()
        with self._transaction() as db:
            try:
                db.execute(
                    "INSERT INTO matches (code, game, options, rules, start_seed, seed, seats,"
                    " status, ended_by, key_digest, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        kept.code,
                        kept.game,
                        json.dumps(kept.options),
                        json.dumps(kept.rules),
                        kept.start_seed,
                        kept.seed,
                        json.dumps(kept.seats),
                        kept.status,
                        kept.ended_by,
                        kept.key_digest,
                        now,
                        now,
                    ),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"a match has the code {kept.code}") from None
            _insert_steps(db, kept.code, 0, kept.steps)

    def has(self, code: str) -> bool:
        row = self._db.execute("SELECT 1 FROM matches WHERE code = ?", (code,)).fetchone()
        return row is not None

    def record(self, code: str, ply: int, steps: Steps, outcome: MatchProgress) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM steps WHERE code = ? AND ply >= ?", (code, ply))
            _insert_steps(db, code, ply, steps)
            db.execute(
                "UPDATE matches SET key_digest = ?, status = ?, ended_by = ?, updated = ?"
                " WHERE code = ?",
                (*outcome, time.time(), code),
            )

    def seats(self, code: str, seats: Sequence[dict[str, Any]]) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE matches SET seats = ?, updated = ? WHERE code = ?",
                (json.dumps(list(seats)), time.time(), code),
            )

    def damaged(self, code: str, why: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE matches SET status = 'damaged', damage = ?, updated = ? WHERE code = ?",
                (why, time.time(), code),
            )

    def unfinished(self) -> list[KeptMatch]:
        return self._kept("status = 'live'", ())

    def finished(self, code: str) -> KeptMatch | None:
        found = self._kept("status = 'over' AND code = ?", (code,))
        return found[0] if found else None

    def _kept(self, where: str, values: tuple[Any, ...]) -> list[KeptMatch]:
        rows = self._db.execute(
            "SELECT code, game, options, rules, start_seed, seed, seats, status, ended_by,"
            f" key_digest FROM matches WHERE {where} ORDER BY created, code",
            values,
        ).fetchall()
        found = []
        for code, game, options, rules, start_seed, seed, seats, status, ended_by, digest in rows:
            try:
                kept = KeptMatch(
                    code,
                    game,
                    json.loads(options),
                    json.loads(rules),
                    start_seed,
                    seed,
                    json.loads(seats),
                    status,
                    ended_by,
                    digest,
                )
            except ValueError as exc:
                log.error("match %s: its row does not read (%s); marked damaged", code, exc)
                self.damaged(code, f"its row does not read: {exc}")
                continue
            kept.steps = [
                KeptMatch.step(seat, text, bool(forced), forfeit)
                for seat, text, forced, forfeit in self._db.execute(
                    "SELECT seat, text, forced, forfeit FROM steps WHERE code = ? ORDER BY ply",
                    (code,),
                )
            ]
            found.append(kept)
        return found

    def close(self) -> None:
        self._db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    """``with``: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises; a database
    error becomes a :class:`StoreError` naming the file."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db, self.path = db, path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from None
        return self.db

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any
    ) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error as error:
                self.db.execute("ROLLBACK")
                raise StoreError(f"{self.path}: {error}") from None
        self.db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"{self.path}: {exc}") from None


def open_store(data: Path | None = None, database: str | None = None) -> MatchStore:
    """The store ``database`` names (a ``sqlite:///PATH`` address or a file's path), else
    the SQLite file in the folder ``data`` (default: the user data folder)."""
    if database:
        path = database.removeprefix("sqlite://") if database.startswith("sqlite://") else database
        if "://" in path:
            raise StoreError(f"{database}: only sqlite:///PATH databases are supported so far")
        return SqliteStore(Path(path))
    if data is None:
        from game.settings import data_dir

        data = data_dir()
    return SqliteStore(data / DATABASE_NAME)


def _insert_steps(db: sqlite3.Connection, code: str, first: int, steps: Steps) -> None:
    db.executemany(
        "INSERT INTO steps (code, ply, seat, text, forced, forfeit) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (code, first + i, s["seat"], s["text"], int(s["forced"]), s["forfeit"])
            for i, s in enumerate(steps)
        ],
    )
