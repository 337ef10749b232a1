"""The table of record formats: each format's name, file suffix, reader, writer and sniffer in one
place.

`files.py` (read, write, convert a record file), `nardy convert`, `nardy review` and
`nardy play` find a format here, by its name (`--to mat`), by a file's suffix (`.mat`) or by
a text's content (its sniffer), and never name one themselves.  A new format is one
module (its reader, writer and sniffer) and one line in `RECORD_FORMATS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Union

from ..core.errors import GameRecordError
from .game_record import GameRecord
from .mat_points import DEFAULT_NUMBERING
from .mat_read import is_mat_text, parse_mat_games
from .mat_write import format_mat
from .match_record import MatchRecord, format_record, parse_record

Record = Union[GameRecord, MatchRecord]


@dataclass(frozen=True)
class RecordOptions:
    """What a reader or writer may be told besides the record: `numbering`, how `.mat` transcripts
    number the mover's points (`mat_points.NUMBERINGS`).  A format ignores the options that are not
    its own."""

    numbering: str = DEFAULT_NUMBERING


@dataclass(frozen=True)
class RecordFormat:
    """One record format: `name` (as `--to` and `--format` take it), `suffix` (its files' ending),
    `title` (`a .mat transcript`), `read` (text, options -> a game or a match), `write` (record,
    options -> text), and `sniff` (text -> True when the text is in this format; None for the
    default format, read when no other format's sniffer claims a text).  `not_this` is the error
    for a file of this suffix whose text the sniffer refuses."""

    name: str
    suffix: str
    title: str
    read: Callable[[str, RecordOptions], Record]
    write: Callable[[Record, RecordOptions], str]
    sniff: Callable[[str], bool] | None = None
    not_this: str = ""


NARDY = RecordFormat("nardy", ".txt", "a nardy record",
                     read=lambda text, options: parse_record(text),
                     write=lambda record, options: format_record(record))
MAT = RecordFormat("mat", ".mat", "a .mat transcript",
                   read=lambda text, options: parse_mat_games(text, numbering=options.numbering),
                   write=lambda record, options: format_mat(record, numbering=options.numbering),
                   sniff=is_mat_text, not_this="not a .mat transcript: no 'N point match' line")

# name -> format; the default format (nardy's own records) has no sniffer and is read last
RECORD_FORMATS: dict[str, RecordFormat] = {f.name: f for f in (MAT, NARDY)}
DEFAULT_FORMAT = NARDY


def record_format(name: str) -> RecordFormat:
    """The format called `name`; `GameRecordError` naming the known ones otherwise."""
    found = RECORD_FORMATS.get(name)
    if found is None:
        raise GameRecordError(f"unknown record format {name!r}: choose one of "
                              f"{', '.join(RECORD_FORMATS)}")
    return found


def format_of_path(path: str | Path) -> RecordFormat:
    """The format a file's suffix names (`.mat`); the default format for any other name."""
    suffix = Path(path).suffix.lower()
    return next((f for f in RECORD_FORMATS.values() if f.suffix == suffix), DEFAULT_FORMAT)


def format_of_text(text: str) -> RecordFormat:
    """The format whose sniffer claims `text`; the default format when none does."""
    return next((f for f in RECORD_FORMATS.values() if f.sniff is not None and f.sniff(text)),
                DEFAULT_FORMAT)


def counterpart(fmt: RecordFormat) -> RecordFormat:
    """The format a record of `fmt` is converted to when nothing names one: the default format, or
    for a record already in it the first other format of the table (`.mat`)."""
    if fmt != DEFAULT_FORMAT:
        return DEFAULT_FORMAT
    return next(f for f in RECORD_FORMATS.values() if f != DEFAULT_FORMAT)


__all__ = ["Record", "RecordOptions", "RecordFormat", "NARDY", "MAT", "RECORD_FORMATS",
           "DEFAULT_FORMAT", "record_format", "format_of_path", "format_of_text", "counterpart"]
