"""One game's end and points in a record: a resignation (`[Resigned "Black 2"]`), the points each
player gains (the class's points times the cube, a drop, a resignation, a draw: counted by
`match.stakes.game_points`), whether and how the game ended.  `match_record.py` adds these up into
a match's scores; `mat_read.py` and `mat_write.py` read and write them in `.mat` transcripts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import MatchRecordError
from ..core.outcomes import class_code
from ..core.position import BLACK, SIDE_NAMES, WHITE, other_side
from ..core.rules import Rules
from ..match import stakes
from ..match.state import format_points_value
from ..match.table import DEFAULT_DRAW_POINTS as DRAW_POINTS  # a draw (R8): half a point each
from .cube_record import cube_factor, final_cube, jacoby_centred
from .game_record import GameRecord

_RESIGNED_RE = re.compile(r"^\s*(white|black)\s+(\d+(?:\.\d+)?)\s*$", re.I)


@dataclass(frozen=True)
class Resignation:
    """A game ended by resignation: who resigned and the points it gave the other side
    (`[Resigned "Black 2"]`)."""

    side: str
    points: float

    def __str__(self) -> str:
        return f"{SIDE_NAMES[self.side]} {format_points(self.points)}"


def format_points(points: float) -> str:
    """A player's points as a record writes them: `3`, `3.5`."""
    return format_points_value(points)


def resignation(record: GameRecord) -> Resignation | None:
    """The record's `Resigned` tag, checked: a side and points one of its win classes scores; None
    without one.

    Raises `MatchRecordError` for a malformed tag or a resignation of a finished game.
    """
    text = record.tag("Resigned")
    if text is None:
        return None
    m = _RESIGNED_RE.match(text)
    if not m:
        raise MatchRecordError(f"bad Resigned tag {text!r}: expected who resigned and the "
                               "points given, e.g. 'Black 2'")
    if record.result is not None:
        raise MatchRecordError(f"Resigned tag {text!r} on a finished game: {record.result}")
    if record.dropped is not None:
        raise MatchRecordError(f"Resigned tag {text!r} on a game ended by a drop")
    points = float(m.group(2))
    allowed = resignation_points(record)
    if points not in allowed:
        cube = f" times the cube ({cube_factor(record)})" if cube_factor(record) > 1 else ""
        raise MatchRecordError(f"Resigned tag {text!r}: a resignation gives the points of a win "
                               f"class{cube} ({', '.join(format_points(p) for p in allowed)})")
    return Resignation(WHITE if m.group(1).lower() == "white" else BLACK, points)


def resignation_points(record: GameRecord) -> list[float]:
    """The points a resignation of `record` may give: a win class's points times the cube (an oin's
    with Jacoby before the first double)."""
    return stakes.win_points(record.rules, cube_factor(record), jacoby_centred(record))


def class_points(rules: Rules, kind: str) -> float:
    """Points `rules` give a win of class `kind` (R9)."""
    return float(rules.points.as_tuple()[class_code(kind)])


def game_points(record: GameRecord, draw_points: float = DRAW_POINTS) -> tuple[float, float]:
    """Points (White, Black) a game gives its players (`match.stakes.game_points`).

    The winner gains the rules' points for the class, a draw gives each player
    `draw_points`, both times the cube's value (with Jacoby, every win before the first
    double is an oin); a drop gives the doubler the cube's value before the double, a
    resignation gives the other side the points conceded, and an unfinished game gives nothing.
    """
    res, rules = record.result, record.rules
    if res is not None:
        cube = final_cube(record)
        value, jacoby = (1, False) if cube is None else (cube.value, cube.jacoby_centred)
        return stakes.game_points(rules, res.winner, res.kind, value, jacoby, draw_points)
    if record.dropped is not None:
        return stakes.game_points(rules, other_side(record.dropped.side), "oin",
                                  record.dropped.value // 2)
    resigned = resignation(record)
    if resigned is None:
        return (0.0, 0.0)
    return (0.0, resigned.points) if resigned.side == WHITE else (resigned.points, 0.0)


def game_end(record: GameRecord) -> str:
    """How the game ended, in words: `White wins by mars`, `Black dropped the double to 4`,
    `resigned: White 2`, or `not finished`."""
    if record.result is not None:
        return str(record.result)
    if record.dropped is not None:
        return f"{SIDE_NAMES[record.dropped.side]} dropped the double to {record.dropped.value}"
    gave_up = resignation(record)
    return f"resigned: {gave_up}" if gave_up else "not finished"


def is_finished(record: GameRecord) -> bool:
    """True when the game ended: a final position, a drop or a resignation."""
    return (record.result is not None or record.dropped is not None
            or record.tag("Resigned") is not None)
