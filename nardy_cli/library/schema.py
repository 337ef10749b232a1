"""The library's SQLite file: its schema, its version, and opening it safely.

A library is an SQLite database marked as nardy's by its `application_id` (`APPLICATION_ID`) and
versioned by its `user_version`.  `MIGRATIONS[k]` are the statements that take version k to
k + 1; a new file is migrated from version 0, so creating and upgrading are one path, run in one
write transaction (a failure leaves the file as it was).  `connect` refuses, before writing
anything: a folder, a file that is not SQLite, an SQLite file of another program, a library of a
newer schema, and a damaged one (`PRAGMA quick_check`).  Writers take the lock with
`BEGIN IMMEDIATE` and wait up to `BUSY_TIMEOUT` seconds for another writer to finish.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.errors import LibraryBusyError, LibraryError

APPLICATION_ID = 0x4E617264           # "Nard"
SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT = 120.0                  # seconds a writer waits for another one

_V1 = (
    """CREATE TABLE sources (
        id INTEGER PRIMARY KEY,
        content_key TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('nardy', 'mat')),
        match_length INTEGER,
        games INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        evaluator TEXT NOT NULL,
        added TEXT NOT NULL)""",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        date TEXT,
        match_length INTEGER NOT NULL,
        score_white REAL,
        score_black REAL,
        crawford INTEGER NOT NULL,
        cube INTEGER NOT NULL,
        result TEXT NOT NULL,
        decisions INTEGER NOT NULL,
        cube_decisions INTEGER NOT NULL,
        UNIQUE (source_id, number))""",
    """CREATE TABLE decisions (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        turn TEXT NOT NULL,
        side TEXT NOT NULL CHECK (side IN ('white', 'black')),
        player TEXT NOT NULL,
        opponent TEXT NOT NULL,
        position_id TEXT NOT NULL,
        position TEXT NOT NULL,
        dice TEXT NOT NULL,
        phase TEXT NOT NULL,
        cube_value INTEGER,
        cube_owner TEXT,
        plays INTEGER NOT NULL,
        forced INTEGER NOT NULL,
        played TEXT NOT NULL,
        best TEXT NOT NULL,
        played_result TEXT NOT NULL,
        best_result TEXT NOT NULL,
        equity_played REAL NOT NULL,
        equity_best REAL NOT NULL,
        lost REAL,
        mwc_lost REAL,
        luck REAL NOT NULL,
        UNIQUE (game_id, ply))""",
    """CREATE TABLE cube_decisions (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        turn TEXT NOT NULL,
        player TEXT NOT NULL,
        taker TEXT NOT NULL,
        position_id TEXT NOT NULL,
        phase TEXT NOT NULL,
        cube TEXT NOT NULL,
        action TEXT NOT NULL,
        best TEXT NOT NULL,
        no_double REAL,
        double_take REAL,
        double_pass REAL,
        double_lost REAL,
        take_lost REAL,
        mwc_double_lost REAL,
        mwc_take_lost REAL,
        error TEXT NOT NULL,
        exact INTEGER NOT NULL,
        UNIQUE (game_id, ply))""",
    "CREATE INDEX decisions_player ON decisions(player)",
    "CREATE INDEX cube_player ON cube_decisions(player)",
    "CREATE INDEX cube_taker ON cube_decisions(taker)",
    "CREATE INDEX games_source ON games(source_id)",
)

# MIGRATIONS[k]: the statements from version k to k + 1 (version 0: an empty file)
MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1,)
SCHEMA_VERSION = len(MIGRATIONS)


def translate_errors(path: Path):
    """A context manager turning SQLite's errors on `path` into one-line `LibraryError`s."""
    return _translated(path)


@contextmanager
def _translated(path: Path) -> Iterator[None]:
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise LibraryBusyError(f"library {str(path)!r} is busy: another nardy kept it locked "
                                   f"for {BUSY_TIMEOUT:g} s; try again") from None
        raise LibraryError(f"library {str(path)!r} cannot be used: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise LibraryError(f"library {str(path)!r} is damaged: {exc}") from None


def _check_file(path: Path) -> None:
    """Refuse a folder and a file that is not an SQLite database (before SQLite opens it)."""
    if path.is_dir():
        raise LibraryError(f"library {str(path)!r} is a folder, not a library file")
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise LibraryError(f"library {str(path)!r} cannot be read: {exc.strerror}") from None
    if head and head != SQLITE_HEADER:
        raise LibraryError(f"{str(path)!r} is not a nardy library (not an SQLite database); "
                           "nothing was changed")


def connect(path: str | Path, *, create: bool = True) -> sqlite3.Connection:
    """An open, checked library at the current schema (created when `create` and absent).

    Raises `LibraryError` for a folder, a file that is not a nardy library, a newer schema or a
    damaged file, and (without `create`) for a missing file; nothing of such a file is written.
    The connection is in autocommit mode: writers open their own transactions (`write`).
    """
    path = Path(path)
    fresh = not path.exists() or path.stat().st_size == 0
    if fresh and not create:
        raise LibraryError(f"no library at {str(path)!r}: `nardy library add FILES` creates one")
    if not fresh:
        _check_file(path)
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"cannot create library {str(path)!r}: {exc.strerror}") from None
    with translate_errors(path):
        try:
            conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.OperationalError as exc:
            raise LibraryError(f"cannot open library {str(path)!r}: {exc}") from None
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            _check_identity(conn, path)
            if not fresh:
                problem = conn.execute("PRAGMA quick_check").fetchone()[0]
                if problem != "ok":
                    first = problem.strip("* \n").splitlines()[0]
                    raise LibraryError(f"library {str(path)!r} is damaged ({first}); "
                                       "nothing was changed")
            _migrate(conn, path)
        except BaseException:
            conn.close()
            raise
    return conn


def _versions(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """(application_id, user_version, tables) of the open file."""
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return app, version, tables


def _check_identity(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; `LibraryError` for another program's database or a newer
    schema."""
    app, version, tables = _versions(conn)
    if app != APPLICATION_ID and (app != 0 or tables or version):
        raise LibraryError(f"{str(path)!r} is an SQLite database of another program, not a nardy "
                           "library; nothing was changed")
    if version > SCHEMA_VERSION:
        raise LibraryError(f"library {str(path)!r} has schema version {version}, newer than this "
                           f"nardy's {SCHEMA_VERSION}: update nardy to use it")
    return version


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the file to `SCHEMA_VERSION` in one write transaction (another process may have done
    it while this one waited for the lock)."""
    if _check_identity(conn, path) == SCHEMA_VERSION:
        return
    with write(conn):
        version = _check_identity(conn, path)
        for step in MIGRATIONS[version:]:
            for statement in step:
                conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


@contextmanager
def write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: the lock taken at once (waiting for another writer), committed at
    the end, rolled back on any exception (Ctrl-C included)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "MIGRATIONS", "BUSY_TIMEOUT", "connect", "write",
           "translate_errors"]
