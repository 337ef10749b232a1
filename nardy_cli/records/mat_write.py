"""`.mat` match transcripts written (`format_mat`): the layout `mat.py` reads, nardy's tags as
`; [Name "value"]` lines, comments as `; {text}` lines, cube actions in the doubler's and the
taker's columns."""

from __future__ import annotations

from ..core.position import BLACK, WHITE, other_side
from .game_record import GameRecord, _escape, header_tags
from .mat_points import DEFAULT_NUMBERING, check_numbering, format_mat_play
from .mat_read import OWN_TAGS, RIGHT_COLUMN
from .match_record import MatchRecord
from .points import format_points, game_points, is_finished, resignation


def _game_tags(record: GameRecord) -> list[tuple[str, str]]:
    """The tags a transcript writes for a game: all but what its own lines say, and the defaults."""
    skip = {("Date", "?"), ("Rules", "federation")}
    return [(k, v) for k, v in header_tags(record) if k not in OWN_TAGS and (k, v) not in skip]


def _wins_line(column: int, text: str) -> str:
    return (" " * (RIGHT_COLUMN + 1) if column else " " * 6) + text


def _format_game(record: GameRecord, number: int, names: tuple[str, str],
                 scores: tuple[float, float], numbering: str, last: bool) -> list[str]:
    """The lines of one game: header, tags, comments, turns and its end."""
    left = f"{names[0]} : {format_points(scores[0])}"
    lines = [f" Game {number}", f" {left:<31}{names[1]} : {format_points(scores[1])}"]
    lines += [f'; [{k} "{_escape(v)}"]' for k, v in _game_tags(record)]
    if record.comment:
        lines.append(f"; {{{record.comment}}}")
    white = 0 if names[0] == record.white else 1
    column = {WHITE: white, BLACK: 1 - white}
    turn = 0
    # [number, left entry] of a turn whose right entry may follow
    open_line: list[str] | None = None
    after_left = False                   # the last ply was a left entry of the current turn
    entries = []   # (side, text, comment): each ply's cube actions, then its roll and play
    for ply in record.plies:
        entries += [(a.side, str(a), "") for a in ply.actions]
        entries.append((ply.side,
                        f"{ply.dice.high}{ply.dice.low}: "
                        f"{format_mat_play(ply.play, numbering)}".rstrip(),
                        ply.comment))
    entries += [(a.side, str(a), "") for a in record.end_actions]
    for side, entry, comment in entries:
        if column[side] == 0:
            if open_line is not None:
                lines.append(f"{open_line[0]} {open_line[1]}".rstrip())
            turn += 1
            open_line, after_left = [f"{turn:3d})", entry], True
        else:
            if open_line is not None:
                lines.append(f"{open_line[0]} {open_line[1]:<{RIGHT_COLUMN - 6}} {entry}")
            elif after_left:
                lines.append(" " * RIGHT_COLUMN + entry)
            else:
                turn += 1
                lines.append(f"{turn:3d}) {'':<{RIGHT_COLUMN - 6}} {entry}")
            open_line, after_left = None, False
        if comment:
            if open_line is not None:
                lines.append(f"{open_line[0]} {open_line[1]}".rstrip())
                open_line = None
            lines.append(f"; {{{comment}}}")
    if open_line is not None:
        lines.append(f"{open_line[0]} {open_line[1]}".rstrip())
    res, resigned = record.result, resignation(record)
    if res is not None and res.winner is None:
        lines.append(_wins_line(0, "Draw"))
    elif is_finished(record):
        points = max(game_points(record))
        winner = (res.winner if res is not None else other_side(resigned.side)
                  if resigned is not None
                  else other_side(record.dropped.side))
        plural = "" if points == 1 else "s"
        lines.append(_wins_line(column[winner], f"Wins {format_points(points)} point{plural}"
                                + (" and the match" if last else "")))
    return lines + [""]


def format_mat(record: GameRecord | MatchRecord, *, numbering: str = DEFAULT_NUMBERING) -> str:
    """A transcript of a match, or of one game as a money session (`0 point match`), that
    `parse_mat` reads back."""
    check_numbering(numbering)
    # its own tags, all of them (a match numbers its games itself)
    if isinstance(record, GameRecord):
        MatchRecord(0, (record,))
        return "\n".join([" 0 point match", ""]
                         + _format_game(record, 1, (record.white, record.black), (0, 0),
                                        numbering, False))
    match = record
    lines = [f'; [{k} "{_escape(v)}"]' for k, v in match.tags]
    lines += ([""] if lines else []) + [f" {match.length} point match", ""]
    names, standings, over = match.players, match.standings(), match.is_over
    for index, game in enumerate(match.games):
        lines += _format_game(game, index + 1, names, standings[index], numbering,
                              over and index == len(match.games) - 1)
    return "\n".join(lines)
