"""Charts for study guides, drawn from results (result objects or their saved JSON data).

Every function returns a `matplotlib.figure.Figure` whose title names what was
measured: the position, the side the numbers belong to (White or Black), the
policies, the number of games and the rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator, PercentFormatter

from ..core.errors import ResultsError
from ..core.i18n import N_, _, side_words, translate
from .figures import (ACCENT, DRAW, LABEL_SIZE, LIGHT, LOSE, MUTED, SIDE_COLOURS, WIN, as_data,
                      empty_message, position_label, run_line, side_to_move, titles)

OUTCOME_ORDER = ("win_oin", "win_home_mars", "win_mars", "win_koks", "draw",
                 "lose_oin", "lose_home_mars", "lose_mars", "lose_koks")
OUTCOME_LABELS = {"win": N_("win"), "lose": N_("lose"), "draw": N_("draw"),
                  "win_oin": N_("win by oin"), "win_home_mars": N_("win by home-mars"),
                  "win_mars": N_("win by mars"), "win_koks": N_("win by koks"),
                  "lose_oin": N_("lose by oin"), "lose_home_mars": N_("lose by home-mars"),
                  "lose_mars": N_("lose by mars"),
                  "lose_koks": N_("lose by koks")}      # shown through translate()


def _fig(w: float = 8.0, h: float = 4.8) -> tuple[Figure, Any]:
    fig = Figure(figsize=(w, h), layout="constrained")
    return fig, fig.add_subplot()


def outcome_chart(result: Any, title: str | None = None, side: str | None = None) -> Figure:
    """Chance of every outcome class with 95% error bars, for the side to move (a rollout or an
    analysed play)."""
    result = as_data(result)
    side = side or side_to_move(result["position"])
    fig, ax = _fig()
    probs = [result["probabilities"][k] for k in OUTCOME_ORDER]
    errs = [1.96 * result["se"][k] for k in OUTCOME_ORDER]
    colours = [WIN] * 4 + [DRAW] + [LOSE] * 4
    y = np.arange(len(OUTCOME_ORDER))[::-1]
    ax.barh(y, probs, xerr=errs, color=colours, capsize=3, alpha=0.85, error_kw={"elinewidth": 1})
    ax.set_yticks(y, [translate(OUTCOME_LABELS[k]) for k in OUTCOME_ORDER], fontsize=LABEL_SIZE)
    right = min(1.0, max(probs) + max(errs)) + 0.1
    for yi, p, e in zip(y, probs, errs):
        shown = 100 * p if abs(100 * p) >= 0.05 else 0.0  # no "-0.0%"
        ax.text(max(p, 0) + e + 0.01 * right, yi, f"{shown:.1f}%", va="center", fontsize=8)
    ax.set_xlim(0, right)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    words = side_words(side)
    ax.set_xlabel(_("chance (bars: 95% confidence interval)"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("outcome for {side}").format(**words), fontsize=LABEL_SIZE)
    ax.grid(axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    equity = _("{sides} equity {equity:+.3f} ± {ci:.3f} (95%)").format(
        equity=result['equity'], ci=1.96 * result['equity_se'], **words)
    titles(fig, ax, title or _("Outcomes for {side} to move in {position}").format(
        position=position_label(result), **words),
           f"{equity} · {run_line(result.get('params', {}), result.get('games'))}")
    return fig


def ranking_chart(ranking: Any, title: str | None = None) -> Figure:
    """The plays of a roll as equity difference to the best play, with 95% error bars on the paired
    difference."""
    ranking = as_data(ranking)
    plays = ranking["plays"]
    side = side_to_move(ranking["position"])
    fig, ax = _fig(8.4, max(2.8, 0.42 * len(plays) + 1.8))
    y = np.arange(len(plays))[::-1]
    diff = np.array([p["diff"] if p["diff"] is not None else 0.0 for p in plays], dtype=float)
    err = np.array([1.96 * (p["diff_se"] or 0.0) for p in plays], dtype=float)
    for yi, d, e, p, i in zip(y, diff, err, plays, range(len(plays))):
        colour = ACCENT if i == 0 else (MUTED if p.get("dropped_after") else LIGHT)
        ax.errorbar(d, yi, xerr=e, fmt="o", color=colour, ecolor=colour, capsize=3, markersize=6,
                    markeredgecolor="#333333" if i == 0 else colour)
    ax.axvline(0, color="#444444", linewidth=0.8)
    low = float(np.min(diff - err)) if len(plays) > 1 else -0.05
    span = max(-low, 0.02)
    high = float(np.max(diff + err)) if len(plays) > 1 else 0.0     # a bar reaching past 0
    ax.set_xlim(-span * 1.15, max(span * 0.35, high + span * 0.1))
    ax.set_ylim(-0.7, len(plays) - 0.3)
    labels = [f"{p['play']}" for p in plays]
    ax.set_yticks(y, labels, fontsize=8, family="monospace")
    ax.set_ylabel(_("play"), fontsize=LABEL_SIZE)
    at_right = ax.get_yaxis_transform()  # x in axes fractions, y in data
    ax.text(1.02, len(plays) - 0.45, _("equity"), transform=at_right, fontsize=8, fontweight="bold",
            va="bottom")
    for yi, p in zip(y, plays):
        ax.text(1.02, yi,
                f"{p['equity']:+.3f}" + (_(" (dropped)") if p.get("dropped_after") else ""),
                transform=at_right, fontsize=8, va="center")
    words = side_words(side)
    ax.set_xlabel(_("{sides} equity minus the best play's (points per game; bars: "
                    "95% CI of the paired difference)").format(**words), fontsize=LABEL_SIZE - 1)
    ax.grid(axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    games = max((p["games"] for p in plays), default=0)
    fewest = min((p["games"] for p in plays), default=0)
    label = _("games per play") if fewest == games else _("games per play, "
                                                          "{fewest:,} for the plays dropped "
                                                          "first").format(fewest=fewest)
    titles(fig, ax, title or _("{side} to play {dice} in {position}").format(
        dice=ranking['dice'], position=ranking.get('name') or ranking['position'], **words),
           run_line(ranking.get("params", {}), games, label))
    return fig


def _roll_grid(rows: list[dict], key: str = "equity", roll_key: str = "roll") -> np.ndarray:
    grid = np.full((6, 6), np.nan)
    for r in rows:
        hi, lo = (int(x) for x in r[roll_key].split("-"))
        grid[hi - 1, lo - 1] = r[key]
    return grid


def _annotated_grid(ax, grid: np.ndarray, fmt: str, cmap: str, lim: float | None = None,
                    aspect: str = "equal", fontsize: float = 8.5):
    lim = lim or (float(np.nanmax(np.abs(grid))) if np.isfinite(grid).any() else 1.0) or 1.0
    im = ax.imshow(grid, cmap=cmap, vmin=-lim, vmax=lim, aspect=aspect)
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            v = grid[i, j]
            if np.isnan(v):
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="#f3f3f3"))
            else:
                strong = abs(v) > 0.6 * lim
                ax.text(j, i, format(v, fmt), ha="center", va="center", fontsize=fontsize,
                        color="white" if strong else "black")
    return im


def opening_heatmap(table: Any, title: str | None = None) -> Figure:
    """Equity of White's best play for each opening roll on a 6x6 grid (larger die down, smaller
    across)."""
    table = as_data(table)
    best = [r for r in table["rows"] if r["rank"] == 1]
    if not best:
        raise ResultsError("the opening table has no rows")
    fig, ax = _fig(6.6, 5.8)
    im = _annotated_grid(ax, _roll_grid(best), "+.2f", "RdYlGn")
    ax.set_xticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_yticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_xlabel(_("smaller die"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("larger die"), fontsize=LABEL_SIZE)
    fig.colorbar(im, ax=ax, label=_("White's equity after its best play"))
    games = max(r["games"] for r in best)
    titles(fig, ax, title or _("Opening rolls: White's equity after its best play"),
           run_line(table.get("params", {}), games, _("games per play")))
    return fig


def opening_bars(table: Any, title: str | None = None) -> Figure:
    """Opening rolls ranked by the equity of White's best play, with 95% error bars (axis fitted to
    the data)."""
    table = as_data(table)
    best = sorted((r for r in table["rows"] if r["rank"] == 1), key=lambda r: r["equity"])
    fig, ax = _fig(8.0, max(3.0, 0.34 * len(best) + 1.6))
    y = np.arange(len(best))
    eq = np.array([r["equity"] for r in best])
    err = np.array([1.96 * r["equity_se"] for r in best])
    ax.errorbar(eq, y, xerr=err, fmt="o", color=ACCENT, capsize=3, markersize=5)
    lo, hi = float(np.min(eq - err)), float(np.max(eq + err))
    pad = max(0.1 * (hi - lo), 0.01)
    ax.set_xlim(lo - pad, hi + pad)
    if lo - pad < 0 < hi + pad:
        ax.axvline(0, color="#444444", linewidth=0.8)
    ax.set_yticks(y, [f"{r['roll']}  {r['play']}" for r in best], fontsize=8, family="monospace")
    ax.set_xlabel(_("White's equity after its best play (bars: 95% CI)"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("opening roll and best play"), fontsize=LABEL_SIZE)
    ax.grid(axis="x", color="#eeeeee")
    ax.set_axisbelow(True)
    games = max(r["games"] for r in best) if best else 0
    titles(fig, ax, title or _("Opening rolls ranked by White's best play"),
           run_line(table.get("params", {}), games, _("games per play")))
    return fig


def replies_heatmap(table: Any, title: str | None = None) -> Figure:
    """Black's equity after its best reply: one row per White opening, one column per Black roll."""
    table = as_data(table)
    replies = table.get("replies") or []
    fig, ax = _fig(12.5, 2.4 + 0.5 * max(len({r["white_roll"] for r in replies}), 1))
    if not replies:
        empty_message(ax, _("No replies in these results (run the openings with --replies)."))
        titles(fig, ax, title or _("Black's best replies"))
        return fig
    openings = list(dict.fromkeys(r["white_roll"] for r in replies))
    rolls = list(dict.fromkeys(r["black_roll"] for r in replies))
    grid = np.full((len(openings), len(rolls)), np.nan)
    for r in replies:
        grid[openings.index(r["white_roll"]), rolls.index(r["black_roll"])] = r["black_equity"]
    im = _annotated_grid(ax, grid, "+.2f", "RdYlGn", aspect="auto", fontsize=7.5)
    plays = {r["white_roll"]: r["white_play"] for r in replies}
    ax.set_yticks(range(len(openings)), [f"{o}  {plays[o]}" for o in openings], fontsize=8,
                  family="monospace")
    ax.set_xticks(range(len(rolls)), rolls, fontsize=8, rotation=90)
    ax.set_xlabel(_("Black's roll"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("White's opening and its best play"), fontsize=LABEL_SIZE)
    fig.colorbar(im, ax=ax, label=_("Black's equity\nafter its best reply"), pad=0.01)
    params = table.get("params", {})
    titles(fig, ax, title or _("Black's best reply to each opening: Black's equity"),
           run_line(params, params.get("reply_games"), _("games per candidate reply")))
    return fig


def deficit_heatmap(deficit: Any, title: str | None = None) -> Figure:
    """Steps the side to move can play for each roll (6x6), from the static deficit."""
    deficit = as_data(deficit)
    side = side_to_move(deficit["position"])
    table = np.array(deficit["steps_played"], dtype=float)
    full = np.where(np.eye(6, dtype=bool), 4, 2)
    share = table / full
    fig, ax = _fig(6.6, 5.8)
    im = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1)
    for i in range(6):
        for j in range(6):
            colour = "white" if share[i, j] < 0.2 or share[i, j] > 0.85 else "black"
            ax.text(j, i, f"{int(table[i, j])}/{full[i, j]}", ha="center", va="center", fontsize=9,
                    color=colour)
    ax.set_xticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_yticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_xlabel(_("second die"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("first die"), fontsize=LABEL_SIZE)
    fig.colorbar(im, ax=ax, label=_("share of the roll's steps that can be played"))
    titles(fig, ax, title or _("Steps {side} can play, roll by roll").format(**side_words(side)),
           f"{deficit.get('name') or deficit['position']} · "
           + _("full {full:.0f}%, partial {partial:.0f}%, pass "
               "{passes:.0f}% of "
               "the 36 rolls").format(
               full=100 * deficit['p_full'], partial=100 * deficit['p_partial'],
               passes=100 * deficit['p_pass']))
    return fig


def face_deficit_chart(series: dict[str, list[float]], title: str,
                       subtitle: str | None = None) -> Figure:
    """Per-face deficit bars, one series per side; a message instead of an empty plot when nothing
    is lost."""
    fig, ax = _fig(7.4, 4.2)
    if not any(v for values in series.values() for v in values):
        empty_message(ax, _("No step was lost: every die of every roll could be played."))
        titles(fig, ax, title, subtitle)
        return fig
    faces = np.arange(1, 7)
    width = 0.8 / max(len(series), 1)
    for k, (label, values) in enumerate(series.items()):
        colour = {translate(k): v for k, v in SIDE_COLOURS.items()}.get(label.split()[0], ACCENT)
        ax.bar(faces + (k - (len(series) - 1) / 2) * width, [100 * v for v in values], width=width,
               label=label, color=colour, edgecolor="#333333", linewidth=0.6)
    ax.set_xticks(faces)
    ax.set_xlabel(_("die face"), fontsize=LABEL_SIZE)
    ax.set_ylabel(_("steps of that face not played (%)"), fontsize=LABEL_SIZE)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.05)
    ax.grid(axis="y", color="#eeeeee")
    ax.set_axisbelow(True)
    if len(series) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=LABEL_SIZE)
    titles(fig, ax, title, subtitle)
    return fig


def rollout_deficit_chart(result: Any) -> Figure:
    """Each side's per-face deficit in the games of a rollout."""
    result = as_data(result)
    d = result["deficit"]
    return face_deficit_chart({_("White"): d["white"]["face_deficit"],
                               _("Black"): d["black"]["face_deficit"]},
                              _("Move deficit per face in the games from {position}").format(
                                  position=position_label(result)),
                              run_line(result.get("params", {}), result.get("games")))


def static_face_chart(deficit: Any) -> Figure:
    """The side to move's static deficit per face over the 36 rolls."""
    deficit = as_data(deficit)
    side = side_to_move(deficit["position"])
    words = side_words(side)
    return face_deficit_chart({words["side"]: deficit["face_deficit"]},
                              _("{sides} static deficit per face in {position}").format(
                                  position=deficit.get('name') or deficit['position'], **words),
                              _("share of the steps of each face that cannot be played, "
                                "over the 36 rolls"))


def convergence_chart(trace: list[list[float]], title: str | None = None,
                      subtitle: str | None = None, side: str = N_("the side to move")) -> Figure:
    """Running equity against games played, with the ±2 SE band."""
    if not trace:
        raise ResultsError("no convergence trace in these results")
    games, eq, se = (np.array(c, dtype=float) for c in zip(*trace))
    fig, ax = _fig(8.0, 4.4)
    ax.fill_between(games, eq - 2 * se, eq + 2 * se, color="#c5d8f2", label="±2 SE")
    ax.plot(games, eq, color=ACCENT, marker="o", markersize=3, label=_("equity so far"))
    ax.axhline(eq[-1], color=ACCENT, linewidth=0.8, linestyle="--",
               label=_("final {equity:+.4f}").format(equity=eq[-1]))
    ax.set_xlabel(_("games played"), fontsize=LABEL_SIZE)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    words = (side_words(side) if side in ("White", "Black")
             else {"side": translate(side), "sides": translate(side)})
    ax.set_ylabel(_("equity for {side}").format(**words), fontsize=LABEL_SIZE)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=LABEL_SIZE)
    ax.grid(color="#eeeeee")
    titles(fig, ax, title or _("Rollout convergence"), subtitle)
    return fig


def rollout_convergence_chart(result: Any, trace: list[list[float]]) -> Figure:
    """The convergence of one rollout's equity, titled with its position and run."""
    result = as_data(result)
    side = side_to_move(result["position"])
    words = side_words(side)
    return convergence_chart(trace, _("Convergence of {sides} equity in {position}").format(
        position=position_label(result), **words),
                             run_line(result.get("params", {}), result.get("games")), side=side)
