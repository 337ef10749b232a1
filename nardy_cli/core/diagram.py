"""Text board diagram of a position, in either side's numbering."""

from __future__ import annotations

from .i18n import SIDES, _, side_words, translate
from .position import BLACK, WHITE, Position, other_side, to_other_numbering

CELL = 4


def _cell(pos: Position, viewer: str, point: int) -> str:
    """Checkers on the viewer's `point`: `w15`, `b2` or `.`."""
    other = other_side(viewer)
    n_view = pos.checkers(viewer)[point - 1]
    n_other = pos.checkers(other)[to_other_numbering(point) - 1]
    if n_view:
        return f"{viewer}{n_view}"
    if n_other:
        return f"{other}{n_other}"
    return "."


def _row(items: list[str]) -> str:
    left = "".join(s.rjust(CELL) for s in items[:6])
    right = "".join(s.rjust(CELL) for s in items[6:])
    return f"{left}  |{right}"


def board_diagram(pos: Position, numbering: str = WHITE) -> str:
    """Two rows of 12 points, both numberings, off and pip counts, side to move and dice.

    The viewer's points 1-12 run left to right along the bottom and 13-24 right
    to left along the top, so both sides travel counter-clockwise.
    """
    viewer = numbering
    other = other_side(viewer)
    top = list(range(24, 12, -1))
    bottom = list(range(1, 13))
    v, o = viewer.upper(), other.upper()
    lines = [
        f"{v}: " + _row([str(p) for p in top]),
        f"{o}: " + _row([str(to_other_numbering(p)) for p in top]),
        "   " + _row([_cell(pos, viewer, p) for p in top]),
        "   " + "-" * (CELL * 12 + 3),
        "   " + _row([_cell(pos, viewer, p) for p in bottom]),
        f"{o}: " + _row([str(to_other_numbering(p)) for p in bottom]),
        f"{v}: " + _row([str(p) for p in bottom]),
        "",
    ]
    width = max(len(translate(SIDES[side])) for side in (WHITE, BLACK))
    for side in (WHITE, BLACK):
        lines.append(_("{side} off {off:>2}   pips {pips:>3}").format(
            side=translate(SIDES[side]).ljust(max(width, 6)), off=pos.off(side),
            pips=pos.pip_count(side)))
    dice = _(", dice {dice}").format(dice=pos.dice) if pos.dice is not None else ""
    lines.append(_("{side} to move").format(**side_words(pos.turn)) + dice)
    return "\n".join(lines)
