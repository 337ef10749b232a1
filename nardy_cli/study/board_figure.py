"""The board as a matplotlib Figure: 24 points in two rows, the bar, stacked checkers, both numberings."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Circle, Polygon, Rectangle  # noqa: E402

from ..position import BLACK, SIDE_NAMES, WHITE, Position, other_side, to_other_numbering  # noqa: E402

POINT_W = 1.0
BAR_W = 0.6
HEIGHT = 11.0
POINT_H = 4.6
R = 0.45
MAX_DRAWN = 5
COLOURS = {WHITE: ("#fbfaf5", "#333333", "#222222"), BLACK: ("#2b2b2b", "#000000", "#f5f5f5")}
POINT_FILL = ("#c8a27a", "#7a4e2d")


def _x(col: int) -> float:
    """Centre of column 0..11 (left to right), skipping the bar after column 5."""
    return col * POINT_W + (BAR_W if col >= 6 else 0.0) + POINT_W / 2


def _slot(point: int) -> tuple[int, bool]:
    """Column and row (True for the top row) of the viewer's point 1..24."""
    if point <= 12:
        return point - 1, False
    return 24 - point, True


def draw_board(position: Position, numbering: str = WHITE, title: str | None = None) -> Figure:
    """A print-ready diagram of `position` in `numbering`'s view (its points 1-12 along the bottom)."""
    viewer, other = numbering, other_side(numbering)
    width = 12 * POINT_W + BAR_W
    fig = Figure(figsize=(6.8, 7.0))
    ax = fig.add_axes((0.02, 0.12, 0.96, 0.77))
    ax.set_xlim(-0.9, width + 0.9)
    ax.set_ylim(-1.6, HEIGHT + 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0, 0), width, HEIGHT, facecolor="#eadbc4", edgecolor="#5a3d22", linewidth=2.5))
    ax.add_patch(Rectangle((6 * POINT_W, 0), BAR_W, HEIGHT, facecolor="#5a3d22", edgecolor="#5a3d22"))
    for point in range(1, 25):
        col, top = _slot(point)
        x0 = _x(col) - POINT_W / 2
        tri = ([(x0, HEIGHT), (x0 + POINT_W, HEIGHT), (x0 + POINT_W / 2, HEIGHT - POINT_H)] if top else
               [(x0, 0), (x0 + POINT_W, 0), (x0 + POINT_W / 2, POINT_H)])
        ax.add_patch(Polygon(tri, closed=True, facecolor=POINT_FILL[point % 2], edgecolor="none"))
        y_main = HEIGHT + 0.45 if top else -0.45
        y_other = HEIGHT + 1.1 if top else -1.1
        ax.text(_x(col), y_main, str(point), ha="center", va="center", fontsize=11, fontweight="bold")
        ax.text(_x(col), y_other, str(to_other_numbering(point)), ha="center", va="center", fontsize=8,
                color="#666666")
        n_view = position.checkers(viewer)[point - 1]
        n_other = position.checkers(other)[to_other_numbering(point) - 1]
        side, n = (viewer, n_view) if n_view else (other, n_other)
        if n:
            _stack(ax, _x(col), top, side, n)
    ax.text(-0.75, -0.45, viewer.upper(), ha="center", va="center", fontsize=11, fontweight="bold")
    ax.text(-0.75, -1.1, other.upper(), ha="center", va="center", fontsize=8, color="#666666")
    ax.text(-0.75, HEIGHT + 0.45, viewer.upper(), ha="center", va="center", fontsize=11, fontweight="bold")
    ax.text(-0.75, HEIGHT + 1.1, other.upper(), ha="center", va="center", fontsize=8, color="#666666")
    dice = f"   ·   dice {position.dice}" if position.dice is not None else ""
    fig.suptitle(title or f"{SIDE_NAMES[position.turn]} to move{dice}", fontsize=15, y=0.96)
    info = (f"White: {position.pip_count(WHITE)} pips, {position.off(WHITE)} off        "
            f"Black: {position.pip_count(BLACK)} pips, {position.off(BLACK)} off")
    fig.text(0.5, 0.085, info, ha="center", fontsize=11)
    fig.text(0.5, 0.04, str(position), ha="center", fontsize=9, family="monospace", color="#444444")
    return fig


def _stack(ax, x: float, top: bool, side: str, n: int) -> None:
    face, edge, text = COLOURS[side]
    shown = min(n, MAX_DRAWN)
    for k in range(shown):
        y = HEIGHT - R - 2 * R * k - 0.05 if top else R + 2 * R * k + 0.05
        ax.add_patch(Circle((x, y), R * 0.96, facecolor=face, edgecolor=edge, linewidth=1.2, zorder=3))
    if n > MAX_DRAWN or n > 1:
        y = (HEIGHT - R - 2 * R * (shown - 1) - 0.05) if top else (R + 2 * R * (shown - 1) + 0.05)
        ax.text(x, y, str(n), ha="center", va="center", fontsize=10, fontweight="bold", color=text, zorder=4)
