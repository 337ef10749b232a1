"""The position ID: a position's checkers and side to move in 14 characters, like GNU Backgammon's
(docs/rules.md §9).

The ID is 84 bits written as 14 base-64 characters (`A-Z a-z 0-9 + _`), most
significant bit first: two zero bits (so every ID starts with a capital A-P), the
side to move (0 White, 1 Black), then White's points 1-24 and Black's points 1-24,
each in its own numbering, as that many 1 bits followed by a 0 (checkers not on
the board are off), then zero bits up to 84.  The dice are not part of it; the
first turn needs no mark, since it is recognised from all 15 checkers on the head
(docs/rules-decisions.md #2).  `format_position_id` and `parse_position_id` round-trip.
"""

from __future__ import annotations

import re

from .errors import InvalidPositionError, PositionIdError
from .position import BLACK, N_CHECKERS, N_POINTS, WHITE, Position, validate

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+_"
ID_LENGTH = 14
ID_BITS = 6 * ID_LENGTH
_INDEX = {c: i for i, c in enumerate(ALPHABET)}
_ID_LIKE_RE = re.compile(r"^[A-Z][^\s:/.\\]{7,21}$")


def format_position_id(position: Position) -> str:
    """The 14-character ID of a position (its dice are left out): `H__AAAA__4AAAA` is `start`."""
    bits = [0, 0, 0 if position.turn == WHITE else 1]
    for counts in (position.white, position.black):
        for n in counts:
            bits += [1] * n + [0]
    bits += [0] * (ID_BITS - len(bits))
    value = int("".join(map(str, bits)), 2)
    return "".join(ALPHABET[(value >> (ID_BITS - 6 * (i + 1))) & 63] for i in range(ID_LENGTH))


def looks_like_position_id(text: str) -> bool:
    """True for text meant as an ID (a capital, then no spaces, colons, dots or slashes): parse it
    as one."""
    return bool(_ID_LIKE_RE.match(text.strip()))


def parse_position_id(text: str, *, check_blocks: bool = True) -> Position:
    """The position (no dice) of an ID; raises `PositionIdError` quoting a corrupted one.

    Rejected: characters outside `A-Z a-z 0-9 + _`, a length other than 14, a first
    bit pair that is not zero, more than 15 checkers of a side, both colours on a
    point, and bits set after the last point (bad padding).  `check_blocks=False`
    skips the R6 check, as in `parse_position`.
    """
    raw = text.strip()
    bad = sorted({c for c in raw if c not in _INDEX})
    if bad:
        raise PositionIdError(f"bad position ID {raw!r}: character {bad[0]!r} is not one of "
                              "A-Z a-z 0-9 + _")
    if len(raw) != ID_LENGTH:
        raise PositionIdError(f"bad position ID {raw!r}: {len(raw)} characters, "
                              f"expected {ID_LENGTH}")
    value = 0
    for c in raw:
        value = (value << 6) | _INDEX[c]
    bits = f"{value:0{ID_BITS}b}"
    if bits[:2] != "00":
        raise PositionIdError(f"bad position ID {raw!r}: not a nardy position ID (it starts with "
                              "a letter A-P)")
    turn = BLACK if bits[2] == "1" else WHITE
    at = 3
    sides = []
    for name in ("White", "Black"):
        counts = []
        for _ in range(N_POINTS):
            run = bits.find("0", at)
            if run < 0:
                raise PositionIdError(f"bad position ID {raw!r}: {name}'s points run past the end")
            counts.append(run - at)
            at = run + 1
            if sum(counts) > N_CHECKERS:
                raise PositionIdError(f"bad position ID {raw!r}: {name} has more than "
                                      f"{N_CHECKERS} checkers")
        sides.append(tuple(counts))
    if "1" in bits[at:]:
        raise PositionIdError(f"bad position ID {raw!r}: bad padding (bits set after "
                              "Black's point 24)")
    position = Position.unchecked(sides[0], sides[1], turn)
    try:
        validate(position, check_blocks=check_blocks)
    except InvalidPositionError as exc:
        message = f"bad position ID {raw!r}: {exc}"
        raise (PositionIdError if "both colours" in str(exc)
               else InvalidPositionError)(message) from None
    return position


__all__ = ["format_position_id", "parse_position_id", "looks_like_position_id", "ALPHABET",
           "ID_LENGTH"]
