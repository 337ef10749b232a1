"""`Library`: a player's reviewed games in one SQLite file — add, list, remove, read back.

`Library(path)` opens (or creates) the file through `schema.connect`; `add` reads every file
first (a file that cannot be read is an error before anything is reviewed or written), skips a
file whose games are already in the library (`ingest.content_key`), reviews the others and
writes each in one transaction, so an interrupted `add` leaves whole files or nothing of a file.
The checks run again under the write lock, so two `add`s at once on one file both land (one
waits) and add a file once.  Reading (`decisions`, `cube_decisions`, `games`, `sources`) gives
DataFrames; `stats`, `progress` and `quiz` are `stats.py`'s and `quiz.py`'s over them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

import pandas as pd

from ..core.errors import ArgumentError, LibraryError
from ..core.suggest import did_you_mean
from ..review.game_review import DEFAULT_EVALUATOR
from .ingest import ReviewedSource, Source, read_source, review_source
from .schema import connect, translate_errors, write

LIBRARY_FILE = "library.sqlite"
TABLES = ("decisions", "cube", "games", "sources")


def default_path() -> Path:
    """The library in the user's data folder, by the platform's convention (`platformdirs`):
    `~/.local/share/nardy/library.sqlite` on Linux (`$XDG_DATA_HOME` respected)."""
    from platformdirs import user_data_path
    return user_data_path("nardy", appauthor=False) / LIBRARY_FILE


@dataclass(frozen=True)
class AddResult:
    """What `add` did with one file: `added` (with its games and decisions) or `skipped` (its games
    are already in the library as `existing`)."""

    path: Path
    status: str
    games: int = 0
    decisions: int = 0
    source_id: int | None = None
    existing: str | None = None
    evaluator: str | None = None

    @property
    def note(self) -> str:
        if self.status == "skipped":
            return (f"{self.path.name}: skipped, its games are already in the library "
                    f"(as {self.existing})")
        return (f"{self.path.name}: added {self.games} game{'s' * (self.games != 1)}, "
                f"{self.decisions} decisions (evaluator {self.evaluator})")


class Library:
    """A player's library in the SQLite file `path` (default: `default_path()`).

    `create=False` refuses a missing file instead of creating it (for reading).  Raises
    `LibraryError` for a file that is damaged, not a nardy library, or of a newer schema.
    """

    def __init__(self, path: str | Path | None = None, *, create: bool = True) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._conn = connect(self.path, create=create)

    def close(self) -> None:
        """Close the file."""
        self._conn.close()

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Library({str(self.path)!r})"

    # ------------------------------------------------------------ adding

    def add(self, paths: Iterable[str | Path], evaluator: Any = DEFAULT_EVALUATOR, *,
            width: int = 5, numbering: str | None = None,
            on_file: Callable[[AddResult], None] | None = None) -> list[AddResult]:
        """Add record files (game records, match records, `.mat` transcripts), each reviewed by
        `evaluator` and written in one transaction; `on_file(result)` hears of each file done.

        Every file is read before any is reviewed: one that cannot be read raises its
        `GameRecordError` and nothing is added.  A file whose games are already in the library (or
        earlier in `paths`) is skipped.  Ctrl-C stops between or inside files: the files written so
        far stay, nothing of the file under way is written.
        """
        from ..policies.judges import get_evaluator
        get_evaluator(evaluator)
        sources = [read_source(p, numbering=numbering) for p in paths]
        done: list[AddResult] = []
        seen: dict[str, str] = {}
        for source in sources:
            existing = seen.get(source.content_key) or self._existing(source.content_key)
            if existing is not None:
                result = AddResult(source.path, "skipped", existing=existing)
            else:
                result = self.store(review_source(source, evaluator, width=width))
            seen.setdefault(source.content_key, source.name)
            done.append(result)
            if on_file is not None:
                on_file(result)
        return done

    def _existing(self, key: str) -> str | None:
        with translate_errors(self.path):
            row = self._conn.execute("SELECT name, id FROM sources WHERE content_key = ?",
                                     (key,)).fetchone()
        return None if row is None else f"{row[0]}, source {row[1]}"

    def store(self, reviewed: ReviewedSource) -> AddResult:
        """Write one reviewed file in one transaction (skipped when its games arrived meanwhile)."""
        source: Source = reviewed.source
        with translate_errors(self.path), write(self._conn) as conn:
            existing = self._existing(source.content_key)
            if existing is not None:
                return AddResult(source.path, "skipped", existing=existing)
            cursor = conn.execute(
                "INSERT INTO sources (content_key, name, path, format, match_length, games, "
                "decisions, evaluator, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (source.content_key, source.name, str(source.path), source.format,
                 source.match_length, len(reviewed.games), reviewed.decisions, reviewed.evaluator,
                 datetime.now(timezone.utc).isoformat(timespec="seconds")))
            source_id = cursor.lastrowid
            for rows in reviewed.games:
                game_id = _insert(conn, "games", {"source_id": source_id, **rows.game})
                for decision in rows.decisions:
                    _insert(conn, "decisions", {"game_id": game_id, **decision})
                for cube in rows.cube:
                    _insert(conn, "cube_decisions", {"game_id": game_id, **cube})
        return AddResult(source.path, "added", len(reviewed.games), reviewed.decisions, source_id,
                         evaluator=reviewed.evaluator)

    # ------------------------------------------------------------ removing

    def remove(self, keys: Iterable[int | str]) -> list[str]:
        """Remove sources by id or file name (each with its games and decisions) in one
        transaction; `LibraryError` naming an unknown one, or a name that several sources share
        (then nothing is removed)."""
        sources = self.sources()
        ids = []
        for key in keys:
            text = str(key)
            hit = sources[(sources["id"].astype(str) == text) | (sources["name"] == text)]
            if hit.empty:
                raise LibraryError(f"no source {text!r} in library {str(self.path)!r}"
                                   f"{did_you_mean(text, sources['name']) or ''}")
            if len(hit) > 1:        # two files of one name: which is meant is not for us to guess
                raise LibraryError(f"{len(hit)} sources are named {text!r} (ids "
                                   f"{', '.join(map(str, hit['id']))}): remove them by id")
            ids += hit["id"].tolist()
        names = sources.set_index("id").loc[ids, "name"].tolist()
        with translate_errors(self.path), write(self._conn) as conn:
            conn.executemany("DELETE FROM sources WHERE id = ?", [(int(i),) for i in ids])
        return names

    # ------------------------------------------------------------ reading

    def _frame(self, sql: str, params: tuple = ()) -> pd.DataFrame:
        with translate_errors(self.path):
            cursor = self._conn.execute(sql, params)
            columns = [c[0] for c in cursor.description]
            return pd.DataFrame(cursor.fetchall(), columns=columns)

    def sources(self) -> pd.DataFrame:
        """Every file added: id, name, format, match length, games, decisions, evaluator, players,
        when added, path."""
        frame = self._frame(
            "SELECT s.id, s.name, s.format, s.match_length, s.games, s.decisions, s.evaluator, "
            "(SELECT group_concat(p, ', ') FROM (SELECT DISTINCT white AS p FROM games "
            " WHERE source_id = s.id UNION SELECT DISTINCT black FROM games WHERE source_id = s.id)"
            ") AS players, s.added, s.path FROM sources s ORDER BY s.id")
        return frame.astype({"id": int, "games": int, "decisions": int})

    def players(self) -> list[str]:
        """Every player's name, sorted."""
        frame = self._frame("SELECT white AS p FROM games UNION SELECT black FROM games ORDER BY p")
        return frame["p"].tolist()

    def check_player(self, player: str | None) -> None:
        """`LibraryError` for a player not in the library (naming the near names)."""
        if player is None:
            return
        names = self.players()
        if player not in names:
            hint = did_you_mean(player, names) or (f"; players: {', '.join(names)}" if names
                                                    else ": the library is empty")
            raise LibraryError(f"no player {player!r} in library {str(self.path)!r}{hint}")

    def _where(self, player: str | None, since: str | None, who: str) -> tuple[str, tuple]:
        """The WHERE clause of a player (a column name or an OR of them) and a first date."""
        clauses, params = [], []
        if player is not None:
            self.check_player(player)
            columns = who.split("|")
            clauses.append("(" + " OR ".join(f"{c} = ?" for c in columns) + ")")
            params += [player] * len(columns)
        if since is not None:
            clauses.append(f"{DAY} >= ?")
            params.append(parse_day(since))
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)

    def games(self, player: str | None = None, since: str | None = None) -> pd.DataFrame:
        """Every game (a player's, from a day on): source, number, players, day, match, score,
        result."""
        where, params = self._where(player, since, "g.white|g.black")
        return self._frame(
            f"SELECT g.id AS game_id, s.id AS source_id, s.name AS source, g.number, g.white, "
            f"g.black, {DAY} AS day, g.match_length, g.score_white, g.score_black, g.crawford, "
            f"g.cube, g.result, g.decisions, s.evaluator FROM games g "
            f"JOIN sources s ON s.id = g.source_id{where} ORDER BY day, s.id, g.number", params)

    def decisions(self, player: str | None = None, since: str | None = None) -> pd.DataFrame:
        """Every checker-play decision (a player's, from a day on) with its game's day, source,
        match length and score (the player's points and the opponent's before the game)."""
        where, params = self._where(player, since, "d.player")
        frame = self._frame(
            f"SELECT d.*, {DAY} AS day, s.id AS source_id, s.name AS source, g.number AS game, "
            "g.match_length, CASE d.side WHEN 'white' THEN g.score_white ELSE g.score_black END "
            "AS score_player, CASE d.side WHEN 'white' THEN g.score_black ELSE g.score_white END "
            "AS score_opponent, g.crawford, s.evaluator FROM decisions d "
            f"JOIN games g ON g.id = d.game_id JOIN sources s ON s.id = g.source_id{where} "
            "ORDER BY day, s.id, g.number, d.ply", params)
        return frame.astype({"forced": bool}) if not frame.empty else frame

    def cube_decisions(self, player: str | None = None, since: str | None = None) -> pd.DataFrame:
        """Every cube decision (a player's as the roller or the taker, from a day on) with its
        game's day and source."""
        where, params = self._where(player, since, "c.player|c.taker")
        return self._frame(
            f"SELECT c.*, {DAY} AS day, s.id AS source_id, s.name AS source, g.number AS game, "
            "g.match_length, s.evaluator FROM cube_decisions c JOIN games g ON g.id = c.game_id "
            f"JOIN sources s ON s.id = g.source_id{where} ORDER BY day, s.id, g.number, c.ply",
            params)

    def table(self, name: str, player: str | None = None,
              since: str | None = None) -> pd.DataFrame:
        """One of `TABLES` as a DataFrame (what `nardy library export` writes)."""
        if name not in TABLES:
            raise ArgumentError(f"unknown table {name!r}: choose one of {', '.join(TABLES)}")
        if name == "sources":
            return self.sources()
        if name == "cube":
            return self.cube_decisions(player, since)
        return getattr(self, name)(player, since)

    # ------------------------------------------------------------ analyses

    def stats(self, player: str | None = None, since: str | None = None, *, by: str = "player",
              seed: int | None = None) -> pd.DataFrame:
        """Ratings of play (`stats.rate`): per player, per player and phase, or per player and
        month / match; intervals from a seeded bootstrap."""
        from .stats import DEFAULT_SEED, rate
        return rate(self.decisions(player, since), self.cube_decisions(player, since),
                    by=by, player=player, seed=DEFAULT_SEED if seed is None else seed)

    def quiz(self, player: str, count: int = 20, since: str | None = None) -> list:
        """The player's `count` costliest distinct mistakes as `quiz.QuizCard`s."""
        from .quiz import select_cards
        if player is None:
            raise ArgumentError("{player} is needed: whose mistakes to drill")
        return select_cards(self.decisions(player, since), player, count)


def _insert(conn, table: str, row: dict) -> int:
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    return conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                        tuple(row.values())).lastrowid


# a game's day: its own date, else the day its file was added
DAY = "COALESCE(g.date, substr(s.added, 1, 10))"


def parse_day(text: str) -> str:
    """`2026-12-01`, `2026.12.01` or `2026-12` (its first day) as `YYYY-MM-DD`; `ArgumentError`
    otherwise."""
    raw = text.strip().replace(".", "-")
    for pattern in ("%Y-%m-%d", "%Y-%m"):
        try:
            return datetime.strptime(raw, pattern).strftime("%Y-%m-%d")
        except ValueError:
            continue
    raise ArgumentError(f"bad date {text!r} for {{since}}: expected YYYY-MM-DD or YYYY-MM")


__all__ = ["Library", "AddResult", "default_path", "parse_day", "TABLES", "LIBRARY_FILE"]
