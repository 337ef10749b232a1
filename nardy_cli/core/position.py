"""The `Position` value and its notation (docs/rules.md §9).

A position holds both sides' checkers in their own numbering, the side to move and
the dice; `parse_position`/`format_position` (and the checker-list pair below them)
round-trip, and the name `start` is the opening position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..kernels.board import forbidden_block_span
from .dice import Dice, format_dice, parse_dice
from .errors import ArgumentError, DiceError, InvalidPositionError, NotationError, check_type

WHITE, BLACK = "w", "b"
SIDE_NAMES = {WHITE: "White", BLACK: "Black"}
N_POINTS = 24
N_CHECKERS = 15


def other_side(side: str) -> str:
    """The side that is not `side`."""
    return BLACK if side == WHITE else WHITE


def to_other_numbering(point: int) -> int:
    """A point (1-24) in the other side's numbering: k <-> k+12 (§1)."""
    return point + 12 if point <= 12 else point - 12


@dataclass(frozen=True, slots=True)
class Position:
    """A frozen, hashable position: `white`/`black` are 24 counts in each side's own numbering."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    turn: str = WHITE
    dice: Dice | None = None

    def __post_init__(self) -> None:
        validate(self)

    @classmethod
    def unchecked(cls, white: tuple[int, ...], black: tuple[int, ...], turn: str,
                  dice: Dice | None = None) -> "Position":
        """Build without validation: for boards the engine produced, or a final position shown as it
        is."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "white", white)
        object.__setattr__(obj, "black", black)
        object.__setattr__(obj, "turn", turn)
        object.__setattr__(obj, "dice", dice)
        return obj

    @classmethod
    def parse(cls, text: str) -> "Position":
        """Parse the position notation of docs/rules.md §9."""
        return parse_position(text)

    @classmethod
    def start(cls) -> "Position":
        """The starting position, White to move."""
        return START

    def __str__(self) -> str:
        return format_position(self)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The board as SVG: a notebook (Jupyter, VS Code) shows a `Position` as its board."""
        from .board_svg import board_svg
        return board_svg(self)

    @property
    def white_off(self) -> int:
        """White checkers borne off."""
        return N_CHECKERS - sum(self.white)

    @property
    def black_off(self) -> int:
        """Black checkers borne off."""
        return N_CHECKERS - sum(self.black)

    def checkers(self, side: str) -> tuple[int, ...]:
        """The 24 counts of `side` ('w' or 'b') in its own numbering."""
        if side == WHITE:
            return self.white
        if side == BLACK:
            return self.black
        check_type(side, str, "side", "'w' or 'b'")
        raise ArgumentError(f"{{side}} must be 'w' or 'b', got {side!r}")

    def off(self, side: str) -> int:
        """Checkers `side` has borne off."""
        return N_CHECKERS - sum(self.checkers(side))

    def pip_count(self, side: str) -> int:
        """Pips `side` still has to travel: sum of 25 - point over its checkers."""
        return pip_count(self.checkers(side))

    def with_dice(self, dice: Dice | None) -> "Position":
        """The same position with other dice (or none)."""
        return Position.unchecked(self.white, self.black, self.turn, dice)

    def board(self) -> tuple[np.ndarray, int, int]:
        """Mover-relative int8 board of the kernels, with the mover's and opponent's off counts."""
        mine, theirs = (self.white, self.black) if self.turn == WHITE else (self.black, self.white)
        return mover_board(mine, theirs), N_CHECKERS - sum(mine), N_CHECKERS - sum(theirs)


def pip_count(counts: tuple[int, ...]) -> int:
    """Pip count of one side's 24 counts: sum of 25 - point over its checkers."""
    what = "one side's 24 checker counts such as position.white"
    hint = (" (a position's pip count is position.pip_count('w'))" if isinstance(counts, Position)
            else "")
    check_type(counts, (tuple, list), "counts", what, hint)
    if len(counts) != N_POINTS or not all(isinstance(n, int) for n in counts):
        check_type(counts, (), "counts", what)
    return sum(n * (24 - i) for i, n in enumerate(counts))


def mover_board(mine: tuple[int, ...], theirs: tuple[int, ...]) -> np.ndarray:
    """Mover-relative int8 board from both sides' counts in their own numbering."""
    board = np.array(mine, dtype=np.int8)
    board -= np.array(theirs[12:] + theirs[:12], dtype=np.int8)
    return board


def validate(pos: Position, check_blocks: bool = True) -> None:
    """Raise `InvalidPositionError` unless the position obeys R1, R6 and the checker counts."""
    if pos.turn not in (WHITE, BLACK):
        raise InvalidPositionError(f"bad side to move {pos.turn!r}: expected 'w' or 'b'")
    for side, counts in ((WHITE, pos.white), (BLACK, pos.black)):
        if len(counts) != N_POINTS or any((not isinstance(n, int)) or n < 0 for n in counts):
            raise InvalidPositionError(f"{SIDE_NAMES[side]} needs 24 non-negative counts")
        if sum(counts) > N_CHECKERS:
            raise InvalidPositionError(f"{SIDE_NAMES[side]} has {sum(counts)} checkers, "
                                       "more than 15")
    for i in range(N_POINTS):
        if pos.white[i] and pos.black[(i + 12) % N_POINTS]:
            raise InvalidPositionError(
                f"both colours on one point: W{i + 1} = B{to_other_numbering(i + 1)}")
    for side, mine, theirs in ((WHITE, pos.white, pos.black), (BLACK, pos.black, pos.white)):
        if not check_blocks:
            break
        first, last = forbidden_block_span(mover_board(mine, theirs), N_CHECKERS - sum(theirs))
        if first >= 0:
            letter = side.upper()
            span = f"{letter}{to_other_numbering(first + 1)}-{letter}{to_other_numbering(last + 1)}"
            raise InvalidPositionError(
                f"forbidden block {span}: {SIDE_NAMES[side]} holds six or more points in a row "
                f"with no {SIDE_NAMES[other_side(side)]} checker past it (R6)")


def _counts(points: dict[int, int]) -> tuple[int, ...]:
    return tuple(points.get(p, 0) for p in range(1, N_POINTS + 1))


# valid by R1; no kernel call at import
START = Position.unchecked(_counts({1: 15}), _counts({1: 15}), WHITE)


# --- Notation ---------------------------------------------------------------

_ITEM_RE = re.compile(r"^([0-9]+)(?:x([0-9]+))?$")


def parse_checkers(text: str, side: str) -> tuple[int, ...]:
    """Parse one side's checker list (`1x14,12` or `-`) into 24 counts."""
    counts = [0] * N_POINTS
    if text == "-":
        return tuple(counts)
    if not text:
        raise NotationError(f"{SIDE_NAMES[side]} checker list is empty: write '-' for none "
                            "on the board")
    for item in text.split(","):
        m = _ITEM_RE.match(item)
        if not m:
            raise NotationError(f"bad checker item {item!r} for {SIDE_NAMES[side]}: "
                                "expected P or PxN")
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
    check_type(text, str, "text", "the position's text such as 'W:1x15 B:1x15 w' or 'start'")
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
        elif turn is not None and dice is None and re.match(r"^[0-9]-?[0-9]$", token):
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
    try:
        if not check_blocks:
            pos = Position.unchecked(white, black, turn, dice)
            validate(pos, check_blocks=False)
            return pos
        return Position(white, black, turn, dice)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{exc} in {stripped!r}") from None


def format_position(pos: Position) -> str:
    """Canonical notation: `W:1x14,12 B:1x15 b`, with the dice last when present."""
    check_type(pos, Position, "pos", "a Position (e.g. parse_position('start'))")
    text = f"W:{format_checkers(pos.white)} B:{format_checkers(pos.black)} {pos.turn}"
    return f"{text} {format_dice(pos.dice)}" if pos.dice is not None else text
