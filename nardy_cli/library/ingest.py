"""A record file made into the library's rows: read, recognised by its games, reviewed.

`read_source` reads a game record, a match record or a `.mat` transcript (`records.files`) and
computes its `content_key`: a digest of the games themselves (players, rules, start, every roll
with the position it led to, the cube actions, the match length), so the same games are
recognised whatever the file is called and whichever format holds them (a `.mat` transcript and
the match record of the same match have one key).  `review_source` reviews it
(`review.game_review` / `review.match_review`, the cube too in a cube game) and returns the rows
of `schema`'s tables: nothing here touches the database.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import GameRecordError
from ..core.phases import phase_of
from ..core.position_id import format_position_id
from ..records.files import format_of, read_games
from ..records.game_record import GameRecord
from ..records.match_record import MatchRecord
from ..records.points import game_end
from ..match.cube import Cube
from ..match.stakes import MONEY
from ..review.game_review import DEFAULT_EVALUATOR, GameReview, review_game
from ..review.match_review import review_match


@dataclass(frozen=True)
class Source:
    """A record file read: its path, format (`nardy`/`mat`), games, match length (None for a
    single game, 0 for a money session) and the digest of its games."""

    path: Path
    format: str
    games: tuple[GameRecord, ...]
    match_length: int | None
    content_key: str
    record: GameRecord | MatchRecord

    @property
    def name(self) -> str:
        return self.path.name


@dataclass(frozen=True)
class GameRows:
    """One game's row of `games` and its rows of `decisions` and `cube_decisions`."""

    game: dict
    decisions: tuple[dict, ...]
    cube: tuple[dict, ...]


@dataclass(frozen=True)
class ReviewedSource:
    """A source reviewed by `evaluator`: every game's rows."""

    source: Source
    evaluator: str
    games: tuple[GameRows, ...]

    @property
    def decisions(self) -> int:
        return sum(len(g.decisions) for g in self.games)


def content_key(record: GameRecord | MatchRecord) -> str:
    """The SHA-256 of a record's games (not of its file): players, rules, start, each roll and the
    position its play led to, cube actions, the end's cube actions, the match length."""
    games, length = ((record.games, record.length) if isinstance(record, MatchRecord)
                     else ((record,), None))
    h = hashlib.sha256(f"nardy-library 1\nlength {length}\n".encode())
    for g in games:
        h.update(f"game {g.white}\t{g.black}\t{g.rules.to_dict()}\t{g.start}\n".encode())
        for p in g.plies:
            actions = " ".join(f"{a.kind}{a.value or ''}" for a in p.actions)
            h.update(f"{actions}|{p.dice}|{p.play.result}\n".encode())
        h.update(("end " + " ".join(a.kind for a in g.end_actions) + "\n").encode())
    return h.hexdigest()


def read_source(path: str | Path, *, numbering: str | None = None) -> Source:
    """Read a record file of either kind (`GameRecordError` naming it when it cannot be read, or
    holds a game without plies: nothing to review)."""
    p = Path(path)
    options = {} if numbering is None else {"numbering": numbering}
    record = read_games(p, **options)
    if isinstance(record, MatchRecord):
        games, length = record.games, record.length
    else:
        games, length = (record,), None
    if not isinstance(record, MatchRecord) and not record.plies and not record.end_actions:
        # found here, with every file read, not when the file's turn to be reviewed comes
        raise GameRecordError(f"{str(p)!r}: the game record holds no plies: nothing to review")
    return Source(p.resolve(), format_of(p), tuple(games), length, content_key(record), record)


def review_source(source: Source, evaluator: Any = DEFAULT_EVALUATOR, *,
                  width: int = 5) -> ReviewedSource:
    """Review every game of `source` (both sides; at their scores in a match; the cube in a cube
    game) and build the rows."""
    record = source.record
    if isinstance(record, MatchRecord):
        review = review_match(record, evaluator, width=width)
        reviews, name = review.games, review.params["evaluator"]
        scores = record.scores() if record.length else [None] * len(record.games)
        crawford = record.crawford_games()
    else:
        stakes = MONEY.with_cube(Cube()) if record.is_cube_game else MONEY
        single = review_game(record, evaluator, width=width, stakes=stakes)
        reviews, name, scores, crawford = (single,), single.params["evaluator"], [None], [False]
    length = source.match_length or 0
    games = tuple(_game_rows(k, r, length, score, craw)
                  for k, (r, score, craw) in enumerate(zip(reviews, scores, crawford), 1))
    return ReviewedSource(source, name, games)


def iso_date(text: str) -> str | None:
    """A record's `2026.12.01` as `2026-12-01`; None for an unknown or partial date (`?`,
    `2026.??.??`)."""
    parts = text.strip().split(".")
    if len(parts) == 3 and all(p.isdigit() for p in parts) and len(parts[0]) == 4:
        return f"{parts[0]}-{int(parts[1]):02d}-{int(parts[2]):02d}"
    return None


def _num(value: Any) -> float | None:
    """A float, None for NaN or a missing value."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def _game_rows(number: int, review: GameReview, length: int, score, crawford: bool) -> GameRows:
    record = review.record
    names = {"white": record.white, "black": record.black}
    other = {"white": record.black, "black": record.white}
    decisions = []
    for row in review.frame.to_dict(orient="records"):
        ply = record.plies[int(row["ply"]) - 1]
        cube = ply.cube
        forced = bool(row["forced"])
        decisions.append({
            "ply": int(row["ply"]), "turn": row["turn"], "side": row["side"],
            "player": names[row["side"]], "opponent": other[row["side"]],
            "position_id": format_position_id(ply.position), "position": row["position"],
            "dice": row["dice"], "phase": phase_of(ply.position),
            "cube_value": None if cube is None else cube.value,
            "cube_owner": None if cube is None else cube.owner,
            "plays": int(row["plays"]), "forced": int(forced), "played": row["played"],
            "best": row["best"], "played_result": row["played_result"],
            "best_result": row["best_result"], "equity_played": float(row["equity_played"]),
            "equity_best": float(row["equity_best"]), "lost": None if forced else _num(row["lost"]),
            "mwc_lost": None if forced else _num(row.get("mwc_lost")),
            "luck": float(row["luck"])})
    cube_rows = []
    if review.cube is not None:
        positions = [p.position for p in record.plies] + [record.final]
        for row in review.cube.to_dict(orient="records"):
            position = positions[int(row["ply"]) - 1]
            cube_rows.append({
                "ply": int(row["ply"]), "turn": row["turn"], "player": row["player"],
                "taker": row["taker"], "position_id": format_position_id(position),
                "phase": phase_of(position), "cube": row["cube"], "action": row["action"],
                "best": row["best"], "no_double": _num(row["no_double"]),
                "double_take": _num(row["double_take"]), "double_pass": _num(row["double_pass"]),
                "double_lost": _num(row["double_lost"]), "take_lost": _num(row["take_lost"]),
                "mwc_double_lost": _num(row.get("mwc_double_lost")),
                "mwc_take_lost": _num(row.get("mwc_take_lost")), "error": row["error"] or "",
                "exact": int(bool(row["exact"]))})
    game = {"number": number, "white": record.white, "black": record.black,
            "date": iso_date(record.date), "match_length": length,
            "score_white": None if score is None else float(score[0]),
            "score_black": None if score is None else float(score[1]),
            "crawford": int(bool(crawford)), "cube": int(review.cube is not None),
            "result": game_end(record), "decisions": len(decisions),
            "cube_decisions": len(cube_rows)}
    return GameRows(game, tuple(decisions), tuple(cube_rows))


__all__ = ["Source", "GameRows", "ReviewedSource", "content_key", "read_source", "review_source",
           "iso_date"]
