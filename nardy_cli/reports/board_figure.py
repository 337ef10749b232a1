"""The board as a matplotlib Figure: 24 points in two rows, the bar, stacked checkers, both
numberings, trays of borne-off checkers, the direction of play and the dice; `draw_play` adds a
play's moves as arrows."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Polygon, Rectangle

from ..core.i18n import _, side_words
from ..core.engine import OFF
from ..core.position import BLACK, WHITE, Position, other_side, to_other_numbering

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


def draw_board(position: Position, numbering: str = WHITE, title: str | None = None,
               name: str | None = None) -> Figure:
    """A print-ready diagram of `position` in `numbering`'s view (its points 1-12 along the bottom).

    The title names the position (`name`) and the side to move; borne-off checkers
    sit in trays beside each side's home, arrows show the direction of play, and
    the dice of the position are drawn as dice.
    """
    viewer, other = numbering, other_side(numbering)
    width = 12 * POINT_W + BAR_W
    fig = Figure(figsize=(7.4, 7.0))
    ax = fig.add_axes((0.02, 0.12, 0.96, 0.76))
    ax.set_xlim(-2.3, width + 2.3)
    ax.set_ylim(-1.6, HEIGHT + 1.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_artist(Rectangle((0, 0), width, HEIGHT, facecolor="#eadbc4", edgecolor="#5a3d22",
                            linewidth=2.5))
    ax.add_artist(Rectangle((6 * POINT_W, 0), BAR_W, HEIGHT, facecolor="#5a3d22",
                            edgecolor="#5a3d22"))
    for point in range(1, 25):
        col, top = _slot(point)
        x0 = _x(col) - POINT_W / 2
        tri = ([(x0, HEIGHT), (x0 + POINT_W, HEIGHT), (x0 + POINT_W / 2, HEIGHT - POINT_H)] if top
               else
               [(x0, 0), (x0 + POINT_W, 0), (x0 + POINT_W / 2, POINT_H)])
        ax.add_artist(Polygon(tri, closed=True, facecolor=POINT_FILL[point % 2], edgecolor="none"))
        y_main = HEIGHT + 0.45 if top else -0.45
        y_other = HEIGHT + 1.1 if top else -1.1
        ax.text(_x(col), y_main, str(point), ha="center", va="center", fontsize=11,
                fontweight="bold")
        ax.text(_x(col), y_other, str(to_other_numbering(point)), ha="center", va="center",
                fontsize=8, color="#666666")
        n_view = position.checkers(viewer)[point - 1]
        n_other = position.checkers(other)[to_other_numbering(point) - 1]
        side, n = (viewer, n_view) if n_view else (other, n_other)
        if n:
            _stack(ax, _x(col), top, side, n)
    for y, side, size, colour in ((-0.45, viewer, 10, "#222222"), (-1.1, other, 8, "#666666"),
                                  (HEIGHT + 0.45, viewer, 10, "#222222"),
                                  (HEIGHT + 1.1, other, 8, "#666666")):
        ax.text(-0.35, y, side.upper(), ha="right", va="center", fontsize=size, fontweight="bold",
                color=colour)
    # The viewer's home is the top-left quarter (it bears off to the left), the other side's the
    # bottom right.
    _tray(ax, -1.75, HEIGHT - 4.6, viewer, position.off(viewer))
    _tray(ax, width + 0.35, 0.0, other, position.off(other))
    _direction(ax, width)
    if position.dice is not None:
        _dice(ax, _x(8.5), HEIGHT / 2, position.dice)
    head = f"{name}: " if name else ""
    fig.suptitle(title or head + _("{side} to move").format(**side_words(position.turn)),
                 fontsize=15, y=0.965)
    info = (_("{side}: {pips} pips, {off} off").format(pips=position.pip_count(WHITE),
                                                       off=position.off(WHITE),
                                                         **side_words(WHITE)) + "        "
            + _("{side}: {pips} pips, {off} off").format(pips=position.pip_count(BLACK),
                                                         off=position.off(BLACK),
                                                           **side_words(BLACK)))
    fig.text(0.5, 0.085, info, ha="center", fontsize=11)
    fig.text(0.5, 0.04, str(position), ha="center", fontsize=9, family="monospace", color="#444444")
    return fig


def draw_play(position: Position, play, numbering: str = WHITE, title: str | None = None,
              caption: str | None = None) -> Figure:
    """The board after `play` (a `Play` of `position`'s side to move), each step drawn as an arrow
    from where the checker stood (a dashed ring) to where it went (the tray for a checker borne
    off). `title` heads the figure (default: the mover and the play), `caption` goes under it."""
    mover = position.turn
    after = play.result
    fig = draw_board(after, numbering,
                     title=title or _("{side} plays {play}").format(play=play, **side_words(mover)))
    ax = fig.axes[0]
    if caption:
        fig.text(0.5, 0.915, caption, ha="center", fontsize=11, color="#333333")
    counts = {WHITE: list(after.checkers(WHITE)), BLACK: list(after.checkers(BLACK))}
    sources = dict.fromkeys(range(1, 25), 0)
    for k, (src, dst) in enumerate(play.steps):
        start = _point_xy(numbering, mover, src, counts[mover][src - 1] + sources[src])
        sources[src] += 1
        if dst == OFF:
            end = _tray_xy(numbering, mover)
        else:
            end = _point_xy(numbering, mover, dst, max(counts[mover][dst - 1] - 1, 0))
        ax.add_artist(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=16, color=ARROW,
                                      linewidth=2.2,
                                      connectionstyle=f"arc3,rad={0.25 if k % 2 == 0 else -0.25}",
                                      zorder=8, shrinkA=2, shrinkB=6))
        ax.add_artist(Circle(start, R * 0.5, facecolor="none", edgecolor=ARROW, linewidth=1.6,
                             linestyle="--", zorder=7))
    return fig


ARROW = "#d81b60"


def _point_xy(numbering: str, side: str, point: int, index: int) -> tuple[float, float]:
    """Where the `index`-th checker (0 = the bottom of the stack) stands on `side`'s point
    `point`."""
    viewer_point = point if side == numbering else to_other_numbering(point)
    col, top = _slot(viewer_point)
    k = min(index, MAX_DRAWN - 1)
    return _x(col), (HEIGHT - R - 2 * R * k - 0.05) if top else (R + 2 * R * k + 0.05)


def _tray_xy(numbering: str, side: str) -> tuple[float, float]:
    """The middle of `side`'s tray of borne-off checkers."""
    if side == numbering:
        return -1.75 + 0.7, HEIGHT - 2.3
    return 12 * POINT_W + BAR_W + 0.35 + 0.7, 2.3


def _tray(ax, x: float, y: float, side: str, n: int) -> None:
    """A tray of borne-off checkers, drawn as thin slabs, with the count."""
    face, edge = COLOURS[side][:2]
    ax.add_artist(Rectangle((x, y), 1.4, 4.6, facecolor="#d9c6a8", edgecolor="#5a3d22",
                            linewidth=1.5))
    for k in range(n):
        ax.add_artist(Rectangle((x + 0.15, y + 0.12 + k * 0.29), 1.1, 0.24, facecolor=face,
                                edgecolor=edge,
                               linewidth=0.8, zorder=3))
    label_y = y + 4.6 + 0.35 if y < HEIGHT / 2 else y - 0.35
    ax.text(x + 0.7, label_y, _("{side} off: {n}").format(n=n, **side_words(side)), ha="center",
            va="center", fontsize=7.5, color="#333333")


def _direction(ax, width: float) -> None:
    """Arrows in the middle band: play runs left to right along the bottom, right to left along the
    top."""
    mid = HEIGHT / 2
    style = {"arrowstyle": "-|>", "mutation_scale": 14, "color": "#5a3d22", "linewidth": 1.6}
    ax.add_artist(FancyArrowPatch((0.4, mid - 0.45), (5.2, mid - 0.45), **style))
    ax.add_artist(FancyArrowPatch((5.2, mid + 0.45), (0.4, mid + 0.45), **style))
    ax.text(2.8, mid, _("direction of play"), ha="center", va="center", fontsize=7.5,
            color="#5a3d22")


def _dice(ax, x: float, y: float, dice) -> None:
    """The two dice of the roll, with pips."""
    size = 1.15
    pips = {1: [(0, 0)], 2: [(-1, 1), (1, -1)], 3: [(-1, 1), (0, 0), (1, -1)],
            4: [(-1, 1), (1, 1), (-1, -1), (1, -1)],
            5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
            6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)]}
    for k, value in enumerate((dice.high, dice.low)):
        cx = x + (k - 0.5) * (size + 0.35)
        ax.add_artist(FancyBboxPatch((cx - size / 2, y - size / 2), size, size,
                                     boxstyle="round,pad=0,rounding_size=0.18",
                                    facecolor="#fffdf7", edgecolor="#333333", linewidth=1.3,
                                     zorder=5))
        for px, py in pips[value]:
            ax.add_artist(Circle((cx + px * size * 0.27, y + py * size * 0.27), size * 0.09,
                                 facecolor="#222222",
                                zorder=6))


def _stack(ax, x: float, top: bool, side: str, n: int) -> None:
    face, edge, text = COLOURS[side]
    shown = min(n, MAX_DRAWN)
    for k in range(shown):
        y = HEIGHT - R - 2 * R * k - 0.05 if top else R + 2 * R * k + 0.05
        ax.add_artist(Circle((x, y), R * 0.96, facecolor=face, edgecolor=edge, linewidth=1.2,
                             zorder=3))
    if n > MAX_DRAWN or n > 1:
        y = (HEIGHT - R - 2 * R * (shown - 1) - 0.05) if top else (R + 2 * R * (shown - 1) + 0.05)
        ax.text(x, y, str(n), ha="center", va="center", fontsize=10, fontweight="bold", color=text,
                zorder=4)
