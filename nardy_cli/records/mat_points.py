"""Point numbering of `.mat` transcripts, and plays translated between a transcript's numbers and
nardy's.

`head-24` (the default) numbers each mover's points from its head (24) down to its
last home point (1), as backgammon transcripts and the open long-nardy `.mat` reader
do: transcript point *m* is nardy point 25 - *m*.  `head-1` is nardy's own
numbering.  Off is `0` either way (`off` is read too); long nardy has no bar.
"""

from __future__ import annotations

import re

from ..core.errors import GameRecordError
from ..core.engine import OFF, Play
from .game_record import format_moves

NUMBERINGS = ("head-24", "head-1")
DEFAULT_NUMBERING = "head-24"

_MOVE_RE = re.compile(r"^(\d+|off)((?:/(?:\d+|off))+)(\*?)(?:\((\d)\))?$", re.I)


def check_numbering(numbering: str) -> None:
    """Raise `GameRecordError` for a numbering that is not one of `NUMBERINGS`."""
    if numbering not in NUMBERINGS:
        raise GameRecordError(f"unknown .mat numbering {numbering!r}: "
                              f"choose one of {', '.join(NUMBERINGS)}")


def mat_point(point: int, numbering: str = DEFAULT_NUMBERING) -> int:
    """A point of the mover's nardy numbering (1-24, `OFF` = 25) as the transcript numbers it (off
    is 0)."""
    if point == OFF:
        return 0
    return 25 - point if numbering == "head-24" else point


def nardy_point(text: str, numbering: str = DEFAULT_NUMBERING) -> int | None:
    """A transcript's point (`24`, `0`, `off`) in the mover's nardy numbering; None when out of
    range."""
    if text.lower() == "off" or text == "0":
        return OFF
    value = int(text)
    if not 1 <= value <= 24:
        return None
    return 25 - value if numbering == "head-24" else value


def translate_play(text: str, numbering: str = DEFAULT_NUMBERING) -> str:
    """A transcript's play (`24/13 24/18`, `3/0(2)`) as a nardy play (`1/12 1/7`); raises
    `NotationError`-style `GameRecordError` quoting a token that is no move."""
    out = []
    for token in text.split():
        m = _MOVE_RE.match(token)
        if not m:
            raise GameRecordError(f"bad move {token!r}: expected FROM/TO such as '24/13' or '3/0'")
        if m.group(3):
            raise GameRecordError(f"bad move {token!r}: long nardy has no hitting ('*')")
        points = [nardy_point(p, numbering) for p in (m.group(1) + m.group(2)).split("/")]
        if any(p is None for p in points) or points[0] == OFF:
            raise GameRecordError(f"bad move {token!r}: points are 1-24 and 0 for off (long "
                                  "nardy has no bar)")
        if any(b <= a for a, b in zip(points, points[1:])):
            way = ("from the head (24) down to 1 and off (0)" if numbering == "head-24"
                   else "from 1 up to 24 and off")
            raise GameRecordError(f"bad move {token!r}: checkers move {way}")
        path = "/".join("off" if p == OFF else str(p) for p in points)
        out.append(path + (f"({m.group(4)})" if m.group(4) else ""))
    return " ".join(out)


def format_mat_play(play: Play, numbering: str = DEFAULT_NUMBERING) -> str:
    """A play in the transcript's numbering, each checker's whole path: `24/13 24/18`; a pass is
    empty."""
    if play.is_pass:
        return ""
    tokens = []
    for token in format_moves(play).split():
        a, b = token.split("/")
        tokens.append(
            f"{mat_point(int(a), numbering)}/{mat_point(OFF if b == 'off' else int(b), numbering)}")
    return " ".join(tokens)


__all__ = ["NUMBERINGS", "DEFAULT_NUMBERING", "check_numbering", "mat_point", "nardy_point",
           "translate_play", "format_mat_play"]
