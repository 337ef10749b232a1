"""Positions files (`name: <notation>` per line) and the POSITION argument forms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .errors import InvalidPositionError, NardyError, NotationError, PositionsFileError
from .position import Position, format_position, parse_position
from .position_id import looks_like_position_id, parse_position_id
from .suggest import did_you_mean, name_list

_NAME_RE = re.compile(r"^[a-z0-9_-]+$")


@dataclass(frozen=True)
class NamedPosition:
    """A position with the name it has in a positions file (None for a bare notation).

    `comment` is the text of the `#` comment lines just above it in the file (and of
    a comment at the end of its own line), joined into one paragraph.
    """

    name: str | None
    position: Position
    comment: str = ""


def parse_positions_text(text: str, source: str = "<text>", *,
                         check_blocks: bool = True) -> list[NamedPosition]:
    """Parse a positions file's text; errors name the file, line and token."""
    out: list[NamedPosition] = []
    seen: set[str] = set()
    notes: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line, _, note = raw.partition("#")
        line = line.strip()
        if not line:
            if raw.strip():
                notes.append(note.strip())
            else:
                notes = []
            continue
        if note.strip():
            notes.append(note.strip())
        comment, notes = " ".join(n for n in notes if n), []
        name, sep, notation = line.partition(":")
        name = name.strip()
        if not sep or not _NAME_RE.match(name):
            raise PositionsFileError(f"{source}:{lineno}: expected 'name: "
                                     f"<notation>' with a name of a-z 0-9 _ -, got {line!r}")
        if name in seen:
            raise PositionsFileError(f"{source}:{lineno}: name {name!r} used twice")
        seen.add(name)
        try:
            out.append(NamedPosition(name, parse_any(notation, check_blocks=check_blocks), comment))
        except NardyError as exc:
            raise PositionsFileError(f"{source}:{lineno}: {exc}") from None
    return out


def parse_any(text: str, *, check_blocks: bool = True) -> Position:
    """A position in the notation (docs/rules.md §9) or as a position ID (`H__AAAA__4AAAA`)."""
    if looks_like_position_id(text):
        return parse_position_id(text, check_blocks=check_blocks)
    return parse_position(text, check_blocks=check_blocks)


def read_positions(path: str | Path, *, check_blocks: bool = True) -> list[NamedPosition]:
    """Every position of a positions file, in file order."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PositionsFileError(f"cannot read positions file {str(path)!r}: "
                                 f"{exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise PositionsFileError(f"positions file {str(path)!r} is not UTF-8 text (byte "
                                 f"{exc.start + 1})") from None
    return parse_positions_text(text, str(path), check_blocks=check_blocks)


def format_positions(positions: list[NamedPosition]) -> str:
    """Positions file text that `parse_positions_text` reads back (comments as `#` lines above
    each)."""
    import textwrap
    out = []
    for p in positions:
        out += [f"# {line}\n" for line in textwrap.wrap(p.comment, 86)]
        out.append(f"{p.name}: {format_position(p.position)}\n")
    return "".join(out)


def check_playable(item: NamedPosition) -> NamedPosition:
    """Reject a position no question can be asked of: both sides have borne off every checker.

    Only a game drawn on Black's last roll (R8) ends that way; the notation itself
    still reads and writes it, so a replayed game round-trips.
    """
    pos = item.position
    if not any(pos.white) and not any(pos.black):
        raise InvalidPositionError(f"both sides have borne off every checker in {str(pos)!r}: "
                                   "the game is over (docs/rules.md, R8)")
    return item


def resolve_positions(arg: str, *, check_blocks: bool = True) -> list[NamedPosition]:
    """A POSITION argument: notation, `start`, a position ID, a positions file (all of it) or
    `FILE:NAME`.

    Raises `InvalidPositionError` for a position with no checker of either side on the board.
    """
    return [check_playable(item) for item in _resolve(arg, check_blocks)]


def _resolve(arg: str, check_blocks: bool) -> list[NamedPosition]:
    text = arg.strip()
    if text == "start":
        return [NamedPosition(None, parse_position("start"))]
    if not text:
        raise NotationError("empty position: expected 'W:<checkers> B:<checkers> <w|b> "
                            "[<dice>]' or 'start'")
    if _readable_file(Path(text)):
        found = read_positions(text, check_blocks=check_blocks)
        if not found:
            raise PositionsFileError(f"positions file {text!r} holds no position")
        return found
    file_part, sep, name = text.rpartition(":")
    if sep and file_part and _readable_file(Path(file_part)):
        found = read_positions(file_part, check_blocks=check_blocks)
        for item in found:
            if item.name == name:
                return [item]
        names = [item.name for item in found]
        hint = (did_you_mean(name, names)
                or (f"; its names are {name_list(names)}" if names else ": it holds none"))
        raise PositionsFileError(f"no position named {name!r} in {file_part!r}{hint}")
    if "/" in text or text.endswith(".txt"):
        raise PositionsFileError(f"no such positions file {text!r}{_file_hint(text)}")
    if looks_like_position_id(text):
        return [NamedPosition(None, parse_position_id(text, check_blocks=check_blocks))]
    if " " not in text and not text[:2].upper() in ("W:", "B:"):
        hint = did_you_mean(text, ["start"])
        if hint:
            raise NotationError(f"unknown position {text!r}{hint}")
    if " " not in text and text[:2].upper() in ("W:", "B:"):
        raise NotationError(f"position {text!r} is only one field: write the whole position as "
                            "one argument, "
                            f"in quotes, e.g. \"W:1x14,12 B:1x15 b\"")
    return [NamedPosition(None, parse_position(text, check_blocks=check_blocks))]


def _readable_file(path: Path) -> bool:
    """A file to read positions from: a regular file, or a device or pipe such as /dev/null or
    <(...)."""
    try:
        return path.exists() and not path.is_dir()
    except OSError:  # a name too long for a path is notation, not a file
        return False


def _file_hint(text: str) -> str:
    """Did-you-mean over the files beside a mistyped positions file name (`FILE` or `FILE:NAME`)."""
    file_part = text.rpartition(":")[0] if ":" in text else text
    path = Path(file_part)
    try:
        siblings = [str(p) for p in (path.parent).iterdir() if p.is_file()]
    except OSError:
        return ""
    return did_you_mean(str(path), siblings)
