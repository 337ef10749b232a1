"""What every chart and board image shares: the colours, the run line under a title, and saving.

Charts are `matplotlib.figure.Figure` objects built directly (no pyplot), so the
library never touches the global backend or rcParams; saving sets its options
inside a local `rc_context`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.errors import OutputError
from ..core.i18n import _

WIN, DRAW, LOSE = "#2e7d32", "#8d8d8d", "#c62828"
ACCENT, LIGHT, MUTED = "#0d47a1", "#5c8fd6", "#b0b0b0"
SIDE_COLOURS = {"White": "#c9a66b", "Black": "#37474f"}
TITLE_SIZE, SUBTITLE_SIZE, LABEL_SIZE = 11.5, 8.5, 9.5
DPI = 110


def side_to_move(notation: str) -> str:
    """'White' or 'Black': the side to move in a position's notation."""
    fields = notation.split()
    return "Black" if len(fields) > 2 and fields[2] == "b" else "White"


def position_label(result: dict) -> str:
    """The position's name when it has one, else its notation."""
    return result.get("name") or result["position"]


def as_data(obj: Any) -> Any:
    """Plain results data from a result object (anything with `to_dict`) or from data already
    plain."""
    if hasattr(obj, "to_dict") and not isinstance(obj, dict):
        import json

        from .render import to_json
        return json.loads(to_json(obj.to_dict()))
    return obj


def policy_text(policies: Any) -> str:
    """`heuristic (both sides)` or `heuristic (White) vs racer (Black)`."""
    if isinstance(policies, dict):
        white, black = policies.get("white"), policies.get("black")
        return (_("{policy} (both sides)").format(policy=white) if white == black
                else _("{white} (White) vs {black} (Black)").format(white=white, black=black))
    return _("{policy} (both sides)").format(policy=policies)


def run_line(params: dict, games: int | None = None, games_label: str | None = None) -> str:
    """One line naming the policies, the games and the rules of a run."""
    from ..core.rules import rules_label
    parts = []
    if "policies" in params:
        parts.append(policy_text(params["policies"]))
    if games:
        parts.append(_("{games:,} {label}").format(games=games, label=games_label or _("games")))
    if "rules" in params:
        parts.append(rules_label(params["rules"]))
    return " · ".join(parts)


def titles(fig, ax, title: str, subtitle: str | None = None) -> None:
    """A bold figure title, and under it a smaller line (the run) as the axes' title (`save_figure`
    breaks it where it would run past the figure's edge)."""
    fig.suptitle(title, fontsize=TITLE_SIZE, fontweight="bold")
    if subtitle:
        ax.set_title(subtitle, fontsize=SUBTITLE_SIZE, color="#555555")


def fit_titles(fig) -> None:
    """Break each axes title that runs past the figure's edge once laid out (a Russian run line
    beside long Russian tick labels) at its ` · ` separators, so the whole line shows."""
    if not any(SEP in ax.get_title() for ax in fig.axes):
        return
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw_without_rendering()
    width = fig.bbox.width
    for ax in fig.axes:
        text = ax.get_title()
        if SEP not in text or "\n" in text:
            continue
        box = ax.title.get_window_extent(renderer)
        centre = (box.x0 + box.x1) / 2
        room = 2 * min(centre, width - centre) * 0.96
        if box.width > room:
            ax.title.set_text(fitted(text, int(len(text) * room / box.width)))


SEP = " · "


def fitted(line: str, chars: int, sep: str = SEP) -> str:
    """`line` broken into lines of at most about `chars` characters at its `sep` separators."""
    lines: list[str] = []
    for part in line.split(sep):
        if lines and len(lines[-1]) + len(sep) + len(part) <= chars:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return "\n".join(lines)


def empty_message(ax, message: str) -> None:
    """Say in the plot why there is nothing to draw, instead of an empty frame."""
    ax.set_axis_off()
    ax.text(0.5, 0.5, message, ha="center", va="center", fontsize=LABEL_SIZE + 1, color="#444444",
            wrap=True, transform=ax.transAxes)


IMAGE_SUFFIXES = (".png", ".svg", ".pdf")
# without the timestamp each format writes, the same data gives the same file
_NO_DATE = {".png": {"Software": None}, ".svg": {"Date": None},
            ".pdf": {"CreationDate": None, "Producer": None}}


def image_path(path: str | Path) -> Path:
    """`path` as a `Path` when its suffix names an image format nardy draws (.png, .svg, .pdf);
    else `OutputError` naming it. Every option that writes a chart or a board checks its file
    here, before any work."""
    path = Path(path)
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise OutputError(f"cannot draw an image into {str(path)!r}: "
                          f"name a {', '.join(IMAGE_SUFFIXES[:-1])} or {IMAGE_SUFFIXES[-1]} file")
    return path


def save_figure(fig, path: str | Path, dpi: int = DPI) -> Path:
    """Save without timestamps (the same data gives the same file); the format follows the
    suffix (.png, .svg or .pdf; another is an `OutputError`, see `image_path`)."""
    import matplotlib
    path = image_path(path)
    fit_titles(fig)
    with matplotlib.rc_context({"svg.hashsalt": "nardy", "svg.fonttype": "path"}):
        fig.savefig(path, dpi=dpi, metadata=_NO_DATE[path.suffix.lower()])
    return path
