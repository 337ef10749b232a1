"""Charts for study guides, drawn from plain results data (so saved JSON can be re-drawn).

Every function returns a matplotlib Figure with a title and labelled axes.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from ..errors import NardyError  # noqa: E402

OUTCOME_ORDER = ("win_oin", "win_home_mars", "win_mars", "win_koks", "draw",
                 "lose_oin", "lose_home_mars", "lose_mars", "lose_koks")
OUTCOME_LABELS = {"win_oin": "win: oin", "win_home_mars": "win: home-mars", "win_mars": "win: mars",
                  "win_koks": "win: koks", "draw": "draw", "lose_oin": "lose: oin",
                  "lose_home_mars": "lose: home-mars", "lose_mars": "lose: mars", "lose_koks": "lose: koks"}


def _fig(w: float = 8.0, h: float = 4.8) -> tuple[Figure, object]:
    fig = Figure(figsize=(w, h), layout="constrained")
    return fig, fig.add_subplot()


def outcome_chart(result: dict, title: str | None = None, who: str = "the side to move") -> Figure:
    """Probability of every outcome class with 95% error bars (a rollout or one analysed play)."""
    fig, ax = _fig()
    probs = [result["probabilities"][k] for k in OUTCOME_ORDER]
    errs = [1.96 * result["se"][k] for k in OUTCOME_ORDER]
    colours = ["#2e7d32"] * 4 + ["#9e9e9e"] + ["#c62828"] * 4
    y = np.arange(len(OUTCOME_ORDER))[::-1]
    ax.barh(y, probs, xerr=errs, color=colours, capsize=3, alpha=0.85)
    ax.set_yticks(y, [OUTCOME_LABELS[k] for k in OUTCOME_ORDER])
    for yi, p, e in zip(y, probs, errs):
        ax.text(p + e + 0.008, yi, f"{p:.3f}", va="center", fontsize=8)
    ax.set_xlim(0, min(1.0, max(probs) + max(errs) + 0.12))
    ax.set_xlabel("probability (bars: 95% confidence interval)")
    ax.set_ylabel(f"outcome for {who}")
    ax.set_title(title or f"Outcomes of {result['position']}\n{result.get('games', 0):,} games, "
                          f"equity {result['equity']:+.3f} ± {1.96 * result['equity_se']:.3f}", fontsize=10)
    return fig


def ranking_chart(ranking: dict, title: str | None = None) -> Figure:
    """The plays of a roll by equity with 95% error bars, best at the top."""
    plays = ranking["plays"]
    fig, ax = _fig(8.0, max(2.6, 0.45 * len(plays) + 1.6))
    y = np.arange(len(plays))[::-1]
    eq = [p["equity"] for p in plays]
    err = [1.96 * p["equity_se"] for p in plays]
    colours = ["#1565c0" if i == 0 else ("#bdbdbd" if p.get("dropped_after") else "#64b5f6")
               for i, p in enumerate(plays)]
    ax.barh(y, eq, xerr=err, color=colours, capsize=3)
    ax.set_yticks(y, [p["play"] for p in plays], fontsize=8, family="monospace")
    ax.axvline(0, color="#444444", linewidth=0.8)
    ax.set_xlabel("equity for the player (points per game; bars: 95% CI)")
    ax.set_ylabel("play")
    ax.set_title(title or f"Plays of {ranking['dice']} in {ranking['position']}", fontsize=10)
    return fig


def _roll_grid(rows: list[dict]) -> np.ndarray:
    grid = np.full((6, 6), np.nan)
    for r in rows:
        hi, lo = (int(x) for x in r["roll"].split("-"))
        grid[hi - 1, lo - 1] = r["equity"]
    return grid


def opening_heatmap(table: dict, title: str | None = None) -> Figure:
    """Best-play equity of each opening roll on a 6x6 grid (larger die down, smaller across)."""
    best = [r for r in table["rows"] if r["rank"] == 1]
    if not best:
        raise NardyError("the opening table has no rows")
    grid = _roll_grid(best)
    fig, ax = _fig(6.4, 5.6)
    lim = np.nanmax(np.abs(grid)) or 1.0
    im = ax.imshow(grid, cmap="RdYlGn", vmin=-lim, vmax=lim)
    for i in range(6):
        for j in range(6):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.2f}", ha="center", va="center", fontsize=9)
            elif j > i:
                ax.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, color="#eeeeee"))
    ax.set_xticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_yticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_xlabel("smaller die")
    ax.set_ylabel("larger die")
    fig.colorbar(im, ax=ax, label="equity of the best play for White")
    ax.set_title(title or "Opening rolls: equity of White's best play", fontsize=10)
    return fig


def opening_bars(table: dict, title: str | None = None) -> Figure:
    """Opening rolls ranked by the equity of White's best play, with 95% error bars."""
    best = sorted((r for r in table["rows"] if r["rank"] == 1), key=lambda r: r["equity"])
    fig, ax = _fig(8.0, max(3.0, 0.32 * len(best) + 1.4))
    y = np.arange(len(best))
    ax.barh(y, [r["equity"] for r in best], xerr=[1.96 * r["equity_se"] for r in best], color="#5c6bc0",
            capsize=2)
    ax.set_yticks(y, [f"{r['roll']}  {r['play']}" for r in best], fontsize=8, family="monospace")
    ax.axvline(0, color="#444444", linewidth=0.8)
    ax.set_xlabel("equity for White (bars: 95% CI)")
    ax.set_ylabel("opening roll and best play")
    ax.set_title(title or "Opening rolls ranked by White's best play", fontsize=10)
    return fig


def deficit_heatmap(deficit: dict, title: str | None = None) -> Figure:
    """Steps the side to move can play for each roll (6x6), from the static deficit."""
    table = np.array(deficit["steps_played"], dtype=float)
    full = np.where(np.eye(6, dtype=bool), 4, 2)
    fig, ax = _fig(6.4, 5.6)
    im = ax.imshow(table / full, cmap="RdYlGn", vmin=0, vmax=1)
    share = table / full
    for i in range(6):
        for j in range(6):
            colour = "white" if share[i, j] > 0.85 or share[i, j] < 0.15 else "black"
            ax.text(j, i, f"{int(table[i, j])}/{full[i, j]}", ha="center", va="center", fontsize=9, color=colour)
    ax.set_xticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_yticks(range(6), [str(d) for d in range(1, 7)])
    ax.set_xlabel("second die")
    ax.set_ylabel("first die")
    fig.colorbar(im, ax=ax, label="share of the roll's steps that can be played")
    ax.set_title(title or f"Steps playable per roll in {deficit['position']}", fontsize=10)
    return fig


def face_deficit_chart(series: dict[str, list[float]], title: str) -> Figure:
    """Per-face deficit bars, one series per side or source."""
    fig, ax = _fig(7.0, 4.2)
    faces = np.arange(1, 7)
    width = 0.8 / max(len(series), 1)
    for k, (label, values) in enumerate(series.items()):
        ax.bar(faces + (k - (len(series) - 1) / 2) * width, values, width=width, label=label)
    ax.set_xticks(faces)
    ax.set_xlabel("die face")
    ax.set_ylabel("share of steps of that face not played")
    ax.legend()
    ax.set_title(title, fontsize=10)
    return fig


def convergence_chart(trace: list[list[float]], title: str | None = None) -> Figure:
    """Running equity against games played, with the ±2 SE band."""
    if not trace:
        raise NardyError("no convergence trace in these results")
    games, eq, se = (np.array(c, dtype=float) for c in zip(*trace))
    fig, ax = _fig(8.0, 4.4)
    ax.fill_between(games, eq - 2 * se, eq + 2 * se, color="#90caf9", alpha=0.6, label="±2 SE")
    ax.plot(games, eq, color="#0d47a1", marker="o", markersize=3, label="equity")
    ax.axhline(eq[-1], color="#0d47a1", linewidth=0.8, linestyle="--", label=f"final {eq[-1]:+.4f}")
    ax.set_xlabel("games played")
    ax.set_ylabel("equity for the side to move")
    ax.legend()
    ax.set_title(title or "Rollout convergence", fontsize=10)
    return fig
