"""Record files of either kind: `.mat` transcripts and nardy's records (one game or a match), read,
written, converted.

Reading tells the kinds apart by content (`mat.is_mat_text`), so stdin works too;
writing goes through a temporary file renamed into place, so nothing half-written
is ever left.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..core.errors import GameRecordError, WriteError
from .game_record import GameRecord, read_record_text
from .mat_read import DEFAULT_NUMBERING, is_mat_text, parse_mat_games
from .mat_write import format_mat
from .match_record import MatchRecord, format_record, parse_record

FORMATS = ("mat", "nardy")


def parse_games(text: str, *, numbering: str = DEFAULT_NUMBERING) -> GameRecord | MatchRecord:
    """A transcript or a nardy record (one game or a match), told apart by its content.

    A transcript of one money game (`0 point match`) is that game's `GameRecord`.
    """
    return parse_mat_games(text, numbering=numbering) if is_mat_text(text) else parse_record(text)


def read_games(path: str | Path, *, numbering: str = DEFAULT_NUMBERING) -> GameRecord | MatchRecord:
    """Read a `.mat` transcript or a nardy record file (one game or a match); errors name the
    file."""
    p = Path(path)
    text = read_record_text(p)
    try:
        if p.suffix.lower() == ".mat" and not is_mat_text(text):
            raise GameRecordError("not a .mat transcript: no 'N point match' line")
        return parse_games(text, numbering=numbering)
    except GameRecordError as exc:
        raise type(exc)(f"{p.name}: {exc}") from None


def format_of(path: str | Path) -> str:
    """`mat` for a `.mat` file name, `nardy` for any other."""
    return "mat" if Path(path).suffix.lower() == ".mat" else "nardy"


def format_games(record: GameRecord | MatchRecord, fmt: str, *,
                 numbering: str = DEFAULT_NUMBERING) -> str:
    """The record as a transcript (`mat`) or as nardy's record text (`nardy`)."""
    if fmt not in FORMATS:
        raise GameRecordError(f"unknown record format {fmt!r}: choose one of {', '.join(FORMATS)}")
    return format_mat(record, numbering=numbering) if fmt == "mat" else format_record(record)


def write_text(path: str | Path, text: str) -> Path:
    """Write a text file whole or not at all: into a temporary file beside it, renamed into
    place."""
    final = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{final.name}-", suffix=".tmp", dir=final.parent)
    except OSError as exc:
        raise WriteError(f"cannot write {str(final)!r}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, final)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {str(final)!r}: {exc.strerror}") from None
        raise
    return final


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def convert(source: str | Path, target: str | Path, *, to: str | None = None,
            numbering: str = DEFAULT_NUMBERING) -> GameRecord | MatchRecord:
    """Read `source` (a transcript or a nardy record) and write it to `target` as `to` (default: by
    its name)."""
    record = read_games(source, numbering=numbering)
    write_text(target, format_games(record, to or format_of(target), numbering=numbering))
    return record


__all__ = ["FORMATS", "parse_games", "read_games", "format_of", "format_games", "write_text",
           "convert"]
