"""A position's board as a small SVG text (no matplotlib): what a notebook shows for a `Position`.

The layout follows `study/board_figure.py` (the print-ready matplotlib diagram): the viewer's points
1-12 along the bottom from the left, 13-24 along the top from the right, the bar between points 6
and 7, the viewer's home top left; the other side's numbering is printed smaller beside each point
number.
"""

from __future__ import annotations

from html import escape

from .i18n import _, side_words

# position.py imports this module (inside `Position._repr_svg_`), so it imports nothing from
# position.py: it reads a position only through its methods (checkers, off, pip_count) and fields
# (turn, dice).
WHITE, BLACK = "w", "b"
SIDE_NAMES = {WHITE: "White", BLACK: "Black"}

POINT_W = 36          # width of one point
BAR_W = 20            # the bar between the viewer's points 6 and 7
BOARD_H = 330         # height of the playing area
MARGIN_X = 64         # room for the trays of borne-off checkers
MARGIN_TOP = 58       # title and point numbers
MARGIN_BOTTOM = 64    # point numbers, pips and notation
R = 16                # checker radius
MAX_DRAWN = 5         # checkers drawn on one point; more are counted
CHECKER = {WHITE: ("#fbfaf5", "#333333", "#222222"), BLACK: ("#2b2b2b", "#000000", "#f5f5f5")}
POINT_FILL = ("#c8a27a", "#7a4e2d")


def _x(col: int) -> float:
    """Centre of column 0..11 (left to right), skipping the bar after column 5."""
    return MARGIN_X + col * POINT_W + (BAR_W if col >= 6 else 0) + POINT_W / 2


def _other(point: int) -> int:
    """A point in the other side's numbering: k <-> k+12 (docs/rules.md §1)."""
    return point + 12 if point <= 12 else point - 12


def _slot(point: int) -> tuple[int, bool]:
    """Column and row (True for the top row) of the viewer's point 1..24."""
    return (point - 1, False) if point <= 12 else (24 - point, True)


def board_svg(position, numbering: str = WHITE) -> str:
    """The board of `position` (a `Position`) in `numbering`'s view as an SVG document: checkers,
    both numberings, trays of borne-off checkers, pips, side to move and dice."""
    viewer, other = numbering, BLACK if numbering == WHITE else WHITE
    width = 12 * POINT_W + BAR_W
    total_w, total_h = width + 2 * MARGIN_X, BOARD_H + MARGIN_TOP + MARGIN_BOTTOM
    top, bottom = MARGIN_TOP, MARGIN_TOP + BOARD_H
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{total_h}" '
           f'viewBox="0 0 {total_w} {total_h}" font-family="sans-serif">',
           f'<rect width="{total_w}" height="{total_h}" fill="#ffffff"/>',
           f'<rect x="{MARGIN_X}" y="{top}" width="{width}" height="{BOARD_H}" fill="#eadbc4" '
           'stroke="#5a3d22" stroke-width="3"/>',
           f'<rect x="{MARGIN_X + 6 * POINT_W}" y="{top}" width="{BAR_W}" height="{BOARD_H}" '
           'fill="#5a3d22"/>']
    # the board's line in the language in use
    dice = _(", to play {dice}").format(dice=position.dice) if position.dice is not None else ""
    out.append(_text(total_w / 2, 22, _("{side} to move").format(
        **side_words(SIDE_NAMES[position.turn])) + dice, 16, bold=True))
    for point in range(1, 25):
        col, is_top = _slot(point)
        x0, x1, xc = _x(col) - POINT_W / 2, _x(col) + POINT_W / 2, _x(col)
        tip = top + 0.42 * BOARD_H if is_top else bottom - 0.42 * BOARD_H
        base = top if is_top else bottom
        out.append(f'<polygon points="{x0},{base} {x1},{base} {xc},{tip}" '
                   f'fill="{POINT_FILL[point % 2]}"/>')
        y = top - 22 if is_top else bottom + 16
        out.append(_text(xc, y, str(point), 12, bold=True))
        out.append(_text(xc, y + (11 if is_top else 13), str(_other(point)), 9, colour="#777777"))
        n_view = position.checkers(viewer)[point - 1]
        n_other = position.checkers(other)[_other(point) - 1]
        side, n = (viewer, n_view) if n_view else (other, n_other)
        out += _stack(xc, is_top, side, n, top, bottom)
    out += _tray(MARGIN_X - 52, top, viewer, position.off(viewer))
    out += _tray(MARGIN_X + width + 8, bottom - 150, other, position.off(other))
    for y, side, size, colour in ((top - 22, viewer, 12, "#222222"),
                                  (top - 11, other, 9, "#777777"),
                                  (bottom + 16, viewer, 12, "#222222"),
                                  (bottom + 29, other, 9, "#777777")):
        out.append(_text(MARGIN_X - 8, y, side.upper(), size, bold=True, colour=colour,
                         anchor="end"))
    pips = (f"White: {position.pip_count(WHITE)} pips, {position.off(WHITE)} off  \u00b7  "
            f"Black: {position.pip_count(BLACK)} pips, {position.off(BLACK)} off")
    out.append(_text(total_w / 2, bottom + 46, pips, 12))
    out.append(_text(total_w / 2, bottom + 60, str(position), 10, colour="#444444",
                     family="monospace"))
    out.append("</svg>")
    return "\n".join(out)


def _text(x: float, y: float, text: str, size: int, *, bold: bool = False, colour: str = "#222222",
          anchor: str = "middle", family: str | None = None) -> str:
    weight = ' font-weight="bold"' if bold else ""
    font = f' font-family="{family}"' if family else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{colour}"{weight}{font}>{escape(text)}</text>')


def _stack(x: float, is_top: bool, side: str, n: int, top: float, bottom: float) -> list[str]:
    """Up to MAX_DRAWN checkers from the edge of the board, the count on the last one when more than
    one."""
    face, edge, ink = CHECKER[side]
    out = []
    for k in range(min(n, MAX_DRAWN)):
        y = top + R + 2 + 2 * R * k if is_top else bottom - R - 2 - 2 * R * k
        out.append(f'<circle cx="{x:g}" cy="{y:g}" r="{R - 1}" fill="{face}" stroke="{edge}" '
                   'stroke-width="1.5"/>')
    if n > 1:
        out.append(_text(x, y + 4, str(n), 12, bold=True, colour=ink))
    return out


def _tray(x: float, y: float, side: str, n: int) -> list[str]:
    """A tray of borne-off checkers as thin slabs, with the count."""
    face, edge, _ = CHECKER[side]
    out = [f'<rect x="{x}" y="{y}" width="44" height="150" fill="#d9c6a8" stroke="#5a3d22" '
           'stroke-width="1.5"/>']
    out += [f'<rect x="{x + 5}" y="{y + 150 - 12 - 9 * k}" width="34" height="7" fill="{face}" '
            f'stroke="{edge}" '
            'stroke-width="0.8"/>' for k in range(n)]
    # below the top tray, above the bottom one
    label_y = y + 164 if y < MARGIN_TOP + 10 else y - 6
    out.append(_text(x + 22, label_y, f"{side.upper()} off: {n}", 10, colour="#333333"))
    return out
