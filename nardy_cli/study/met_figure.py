"""The match equity table as a heat map (`nardy met --chart`, docs/matches.md)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure


def met_figure(met) -> Figure:
    """Heat map of a `met.MatchEquityTable` or `met.CubefulEquityTable`: the row player's match winning chance,
    in percent."""
    n = met.length
    fig = Figure(figsize=(1.0 + 0.62 * n, 0.8 + 0.55 * n), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(met.table * 100, cmap="RdYlGn", vmin=0, vmax=100, origin="upper")
    ticks = np.arange(n)
    ax.set_xticks(ticks, [str(j + 1) for j in ticks])
    ax.set_yticks(ticks, [str(i + 1) for i in ticks])
    ax.set_xlabel("the opponent needs (points)")
    ax.set_ylabel("the player needs (points)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    size = 9 if n <= 9 else 7 if n <= 13 else 5.5
    for i in range(n):
        for j in range(n):
            value = met.table[i, j] * 100
            text = f"{value:.0f}" if n > 11 else f"{value:.1f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=size,
                    color="black" if 25 <= value <= 80 else "white")
    d = met.distribution
    games = d.source.get("games")
    cubeful = hasattr(met, "post_crawford")
    fig.suptitle(f"Long nardy match equity table ({'cubeful' if cubeful else 'cubeless'}), {met.rules.preset} rules",
                 fontsize=11)
    sub = (f"next game's White: {met.next_white}; a draw gives each player {met.draw_points:g} point\n"
           f"one game from the start: White wins {d.white_wins:.1%}, draw {d.draw:.1%}")
    if isinstance(games, int):
        sub += f" ({d.source.get('policy')}, {games:,} games)"
    if cubeful:
        sub += f"\ncube centred, efficiency x = {met.efficiency:.2f}; a need of 1 is the Crawford game"
    ax.set_title(sub, fontsize=8, pad=24)
    fig.colorbar(image, ax=ax, shrink=0.8, label="row player's match winning chance (%)")
    return fig
