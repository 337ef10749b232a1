"""Position notation (RULES.md §9): parse/format pairs that round-trip, and the name `start`."""

from __future__ import annotations

import re

from .dice import Dice, format_dice, parse_dice
from .errors import DiceError, InvalidPositionError, NotationError
from .position import BLACK, N_CHECKERS, N_POINTS, SIDE_NAMES, START, WHITE, Position, validate

_ITEM_RE = re.compile(r"^(\d+)(?:x(\d+))?$")


def parse_checkers(text: str, side: str) -> tuple[int, ...]:
    """Parse one side's checker list (`1x14,12` or `-`) into 24 counts."""
    counts = [0] * N_POINTS
    if text == "-":
        return tuple(counts)
    if not text:
        raise NotationError(f"{SIDE_NAMES[side]} checker list is empty: write '-' for none on the board")
    for item in text.split(","):
        m = _ITEM_RE.match(item)
        if not m:
            raise NotationError(f"bad checker item {item!r} for {SIDE_NAMES[side]}: expected P or PxN")
        point, n = int(m.group(1)), int(m.group(2) or 1)
        if not 1 <= point <= N_POINTS:
            raise NotationError(f"point out of range in {item!r}: points are 1-24")
        if n == 0:
            raise NotationError(f"count of 0 in {item!r}: leave the point out instead")
        if counts[point - 1]:
            raise NotationError(f"point listed twice: {item!r} for {SIDE_NAMES[side]}")
        counts[point - 1] = n
    total = sum(counts)
    if total > N_CHECKERS:
        raise NotationError(f"{SIDE_NAMES[side]} has {total} checkers in {text!r}, more than 15")
    return tuple(counts)


def format_checkers(counts: tuple[int, ...]) -> str:
    """Canonical checker list: points ascending, `xN` only for N >= 2, `-` for none."""
    items = [f"{i + 1}x{n}" if n > 1 else f"{i + 1}" for i, n in enumerate(counts) if n]
    return ",".join(items) if items else "-"


def parse_position(text: str, *, check_blocks: bool = True) -> Position:
    """Parse `W:<checkers> B:<checkers> <w|b> [<dice>]`; the name `start` is the opening position.

    `check_blocks=False` skips the R6 validity check (for reading foreign data
    that holds an unreachable block); every other check still applies.
    """
    stripped = text.strip()
    if stripped == "start":
        return START
    fields = stripped.split()
    if not fields:
        raise NotationError("empty position: expected 'W:<checkers> B:<checkers> <w|b> [<dice>]'")
    white = black = turn = None
    dice: Dice | None = None
    for token in fields:
        head = token[:2].upper()
        if head in ("W:", "B:"):
            side = WHITE if head == "W:" else BLACK
            if (white if side == WHITE else black) is not None:
                raise NotationError(f"field given twice: {token!r}")
            counts = parse_checkers(token[2:], side)
            if side == WHITE:
                white = counts
            else:
                black = counts
        elif token in ("w", "b") and turn is None:
            turn = token
        elif turn is not None and dice is None and re.match(r"^\d-?\d$", token):
            try:
                dice = parse_dice(token)
            except DiceError:
                raise DiceError(f"bad dice {token!r}: values must be 1-6") from None
        else:
            raise NotationError(f"unknown field {token!r} in position {stripped!r}")
    if white is None or black is None:
        raise NotationError(f"position {stripped!r} needs both a 'W:' and a 'B:' field")
    if turn is None:
        raise NotationError(f"position {stripped!r} needs the side to move, 'w' or 'b'")
    if not any(white) and not any(black):
        raise InvalidPositionError(f"both sides have borne off every checker in {stripped!r}: the game is over "
                                   "once one side has (docs/rules.md, R8)")
    try:
        if not check_blocks:
            pos = Position._trusted(white, black, turn, dice)
            validate(pos, check_blocks=False)
            return pos
        return Position(white, black, turn, dice)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{exc} in {stripped!r}") from None


def format_position(pos: Position) -> str:
    """Canonical notation: `W:1x14,12 B:1x15 b`, with the dice last when present."""
    text = f"W:{format_checkers(pos.white)} B:{format_checkers(pos.black)} {pos.turn}"
    return f"{text} {format_dice(pos.dice)}" if pos.dice is not None else text
