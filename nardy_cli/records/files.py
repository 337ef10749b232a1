"""Record files of any format of the table (`formats.RECORD_FORMATS`: `.mat` transcripts and
nardy's records, one game or a match), read, written, converted.

Reading tells the formats apart by content (each format's sniffer), so stdin works too;
writing goes through a temporary file renamed into place, so nothing half-written
is ever left.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..core.errors import GameRecordError, OutputError, WriteError
from .formats import (RECORD_FORMATS, Record, RecordOptions, format_of_path, format_of_text,
                      record_format)
from .game_record import read_record_text
from .mat_points import DEFAULT_NUMBERING

FORMATS = tuple(RECORD_FORMATS)


def parse_games(text: str, *, numbering: str = DEFAULT_NUMBERING) -> Record:
    """A record of any format (one game or a match), told apart by its content.

    A transcript of one money game (`0 point match`) is that game's `GameRecord`.
    """
    return format_of_text(text).read(text, RecordOptions(numbering))


def read_games(path: str | Path, *, numbering: str = DEFAULT_NUMBERING) -> Record:
    """Read a record file of any format (one game or a match); errors name the file."""
    p = Path(path)
    text = read_record_text(p)
    try:
        named = format_of_path(p)
        if named.sniff is not None and not named.sniff(text):
            raise GameRecordError(named.not_this)
        return parse_games(text, numbering=numbering)
    except GameRecordError as exc:
        raise type(exc)(f"{p.name}: {exc}") from None


def format_of(path: str | Path) -> str:
    """The name of the format a file's suffix names: `mat` for a `.mat` file, `nardy` for any
    other."""
    return format_of_path(path).name


def format_games(record: Record, fmt: str, *, numbering: str = DEFAULT_NUMBERING) -> str:
    """The record as the text of format `fmt` (`mat`: a transcript, `nardy`: nardy's record)."""
    return record_format(fmt).write(record, RecordOptions(numbering))


def write_text(path: str | Path, text: str) -> Path:
    """Write a text file whole or not at all: into a temporary file beside it, renamed into
    place."""
    final = Path(path)
    if final.is_dir():      # bad input (exit 2), not a disk that refused (WriteError: exit 1)
        raise OutputError(f"{str(final)!r} is a folder: give a file name")
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
            numbering: str = DEFAULT_NUMBERING) -> Record:
    """Read `source` (a record of any format) and write it to `target` as `to` (default: the
    format its name's suffix names)."""
    record = read_games(source, numbering=numbering)
    write_text(target, format_games(record, to or format_of(target), numbering=numbering))
    return record


__all__ = ["FORMATS", "parse_games", "read_games", "format_of", "format_games", "write_text",
           "convert"]
