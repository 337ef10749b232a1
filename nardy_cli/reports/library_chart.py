"""A player's progress chart: the PR-style rating by month or by match with its interval, over
the grade bands, and beside it the player's checker error rate by phase against the reference
bots' (docs/library.md).

`progress_chart` returns a `matplotlib.figure.Figure` (no pyplot); `write_progress` writes the
chart as PNG and SVG, a self-contained `progress.html` (the rating tables, the SVG inline) and
`progress.json` into a folder, all or nothing.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..core.i18n import _, column, translate
from ..core.phases import PHASES
from ..library.bands import BANDS, reference
from .figures import ACCENT, LABEL_SIZE, SUBTITLE_SIZE, TITLE_SIZE, save_figure
from .folder import write_folder
from .library_tables import stats_view

PHASE_ORDER = ("opening", "contact", "blocked", "race", "bearoff")
BAND_FILLS = ("#e8f5e9", "#f1f8e9", "#fffde7", "#fff8e1", "#fff3e0", "#fbe9e7", "#ffebee",
              "#fce4ec")
BOT_MARKERS = ("v", "s", "D", "^", "o", "P", "X")
BOT_COLOURS = ("#6d4c41", "#8e24aa", "#e65100", "#f9a825", "#2e7d32", "#00838f", "#546e7a")


def _short(label: str, width: int = 16) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def progress_chart(periods: pd.DataFrame, phases: pd.DataFrame, *, player: str, by: str,
                   subtitle: str = "", evaluator: str | None = None) -> Figure:
    """The chart: PR per period (`stats.rate(by=month|match)` rows of one player) with its 95%
    interval over the bands, and the player's checker error rate per phase (`by="phase"` rows)
    beside the reference bots' (those reviewed by `evaluator` when the reference run has it)."""
    fig = Figure(figsize=(11.5, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(1.35, 1))
    title = (_("{player}: rating of play by month, and error rate by phase") if by == "month"
             else _("{player}: rating of play by match, and error rate by phase"))
    fig.suptitle(title.format(player=player),
                 fontsize=TITLE_SIZE, fontweight="bold")
    _periods(left, periods, by, subtitle)
    _phases(right, phases, player, evaluator)
    return fig


def _periods(ax, periods: pd.DataFrame, by: str, subtitle: str) -> None:
    x = np.arange(len(periods))
    pr = periods["pr"].to_numpy(float) if len(periods) else np.array([])
    low = periods["pr_low"].to_numpy(float) if len(periods) else np.array([])
    high = periods["pr_high"].to_numpy(float) if len(periods) else np.array([])
    top = np.nanmax(np.concatenate([high, pr, [1.0]]))
    top = top * 1.15 if math.isfinite(top) else 10.0
    floor = 0.0
    for k, (name, upper) in enumerate(BANDS):
        if floor >= top:
            break
        ax.axhspan(floor, min(upper, top), color=BAND_FILLS[k % len(BAND_FILLS)], zorder=0)
        middle = (floor + min(upper, top)) / 2
        if min(upper, top) - floor < 0.03 * top:     # too thin to name
            floor = upper
            continue
        ax.text(1.0, middle, f" {translate(name)}", transform=ax.get_yaxis_transform(), fontsize=8,
                va="center", ha="left", color="#555555", clip_on=False)
        floor = upper
    if len(periods):
        has = ~np.isnan(low)
        yerr = np.vstack([pr - np.where(has, low, pr), np.where(has, high, pr) - pr])
        ax.errorbar(x, pr, yerr=yerr, fmt="o-", color=ACCENT, ecolor=ACCENT, elinewidth=1.2,
                    capsize=3, markersize=5, zorder=3, label=_("PR, 95% interval"))
        for xi, g in zip(x, periods["games"]):
            ax.annotate(_("{g}g").format(g=g), (xi, 0), xytext=(0, 3), textcoords="offset points",
                        ha="center", fontsize=7, color="#777777")
        labels = [_short(str(v)) for v in periods[by]]
        ax.set_xticks(x, labels, rotation=30 if len(x) > 4 else 0, ha="right" if len(x) > 4
                      else "center", fontsize=8)
        ax.legend(loc="upper left", fontsize=8, frameon=False)
    else:
        ax.text(0.5, 0.5, _("no decisions"), ha="center", va="center", transform=ax.transAxes)
    ax.set_ylim(0, top)
    ax.set_xlim(-0.6, max(len(periods) - 0.4, 0.6))
    ax.set_ylabel(_("PR (500 x equity lost per decision)"), fontsize=LABEL_SIZE)
    ax.set_xlabel(_("month") if by == "month" else _("match (file)"), fontsize=LABEL_SIZE)
    ax.set_title(subtitle or _("lower is better; bands of docs/library.md"),
                 fontsize=SUBTITLE_SIZE,
                 color="#555555")


def _phases(ax, phases: pd.DataFrame, player: str, evaluator: str | None) -> None:
    order = [p for p in PHASE_ORDER if p in PHASES]
    x = np.arange(len(order))
    mine = phases.set_index("phase") if len(phases) else pd.DataFrame()
    values = np.array([mine["checker_mp"].get(p, np.nan) if len(mine) else np.nan
                       for p in order], dtype=float)
    lows = np.array([mine["checker_low"].get(p, np.nan) if len(mine) else np.nan
                     for p in order], dtype=float)
    highs = np.array([mine["checker_high"].get(p, np.nan) if len(mine) else np.nan
                      for p in order], dtype=float)
    shown = np.nan_to_num(values)
    yerr = np.vstack([np.nan_to_num(values - lows), np.nan_to_num(highs - values)])
    ax.bar(x, shown, width=0.55, color="#90caf9", edgecolor=ACCENT, label=player, zorder=2)
    ax.errorbar(x, shown, yerr=yerr, fmt="none", ecolor=ACCENT, capsize=3, zorder=3)
    ref = reference(evaluator)
    for k, bot in enumerate(ref["bots"]):
        ys = [bot["phases"].get(p, {}).get("checker_mp", np.nan) for p in order]
        ax.scatter(x + 0.36, ys, marker=BOT_MARKERS[k % len(BOT_MARKERS)], s=22, zorder=4,
                   color=BOT_COLOURS[k % len(BOT_COLOURS)], label=bot["name"])
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_ylim(0, None)
    ax.set_xticks(x, order, fontsize=8)
    ax.set_ylabel(_("checker error rate (mp per decision)"), fontsize=LABEL_SIZE)
    ax.set_title(_("reference bots reviewed by {evaluator} (symlog scale)").format(
                     evaluator=ref["evaluator"]),
                 fontsize=SUBTITLE_SIZE, color="#555555")
    ax.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def write_progress(periods: pd.DataFrame, phases: pd.DataFrame, overall: pd.DataFrame,
                   output: str | Path, *, player: str, by: str, subtitle: str = "",
                   evaluator: str | None = None) -> Path:
    """Write progress.png, progress.svg, progress.html and progress.json into `output`."""
    fig = progress_chart(periods, phases, player=player, by=by, subtitle=subtitle,
                         evaluator=evaluator)

    def render(folder: Path) -> None:
        save_figure(fig, folder / "progress.png")
        save_figure(fig, folder / "progress.svg")
        svg = (folder / "progress.svg").read_text(encoding="utf-8")
        svg = svg[svg.index("<svg"):]
        (folder / "progress.html").write_text(
            _page(svg, periods, phases, overall, player=player, by=by, subtitle=subtitle),
            encoding="utf-8")
        data = {"kind": "progress", "player": player, "by": by, "subtitle": subtitle,
                "overall": _records(overall), "periods": _records(periods),
                "phases": _records(phases)}
        (folder / "progress.json").write_text(json.dumps(data, indent=1) + "\n",
                                              encoding="utf-8")
    return write_folder(output, render)


def _records(frame: pd.DataFrame) -> list[dict]:
    from .render import _clean
    return [_clean(r) for r in frame.to_dict(orient="records")]


def _page(svg: str, periods, phases, overall, *, player: str, by: str, subtitle: str) -> str:
    import jinja2
    templates = Path(__file__).parent / "templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.globals.update({"_": _, "column": column})      # the page in the language in use
    overall = stats_view(overall, "player")
    if "band" in overall:
        overall["band"] = overall["band"].map(translate)
    return env.get_template("progress.html.j2").render(
        style=(templates / "library.css").read_text(encoding="utf-8"), svg=svg, player=player,
        by=by, subtitle=subtitle, overall=_table(overall),
        periods=_table(stats_view(periods, by)), phases=_table(stats_view(phases, "phase")),
        bands=[(translate(name), "-" if math.isinf(top) else f"{top:g}") for name, top in BANDS])


def _table(frame: pd.DataFrame) -> dict:
    """Columns and rows of a frame as text for the page (numbers to one decimal, NaN as '-')."""
    def cell(v):
        if isinstance(v, float):
            return "-" if math.isnan(v) else f"{v:.1f}"
        return str(v)
    return {"columns": list(frame.columns),
            "rows": [[cell(v) for v in row] for row in frame.itertuples(index=False)]}


__all__ = ["progress_chart", "write_progress"]
