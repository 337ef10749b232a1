"""The match equity table as a heat map (`nardy met --chart`, docs/matches.md)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..core.i18n import _


def met_figure(met) -> Figure:
    """Heat map of a `met.MatchEquityTable` or `met.CubefulEquityTable`: the row player's match
    winning chance, in percent."""
    n = met.length
    # titles fit
    fig = Figure(figsize=(max(1.0 + 0.62 * n, 7.0), max(0.8 + 0.55 * n, 4.5)), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(met.table * 100, cmap="RdYlGn", vmin=0, vmax=100, origin="upper")
    ticks = np.arange(n)
    ax.set_xticks(ticks, [str(j + 1) for j in ticks])
    ax.set_yticks(ticks, [str(i + 1) for i in ticks])
    ax.set_xlabel(_("the opponent needs (points)"))
    ax.set_ylabel(_("the player needs (points)"))
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
    title = _("Long nardy match equity table ({kind}), {preset} rules").format(
        kind=_("cubeful") if cubeful else _("cubeless"), preset=met.rules.preset)
    sub = _("next game's White: {next_white}; a draw gives each player {draw:g} point\none game "
            "from the start: "
            "White wins {white:.1%}, draw {drawn:.1%}").format(next_white=met.next_white,
                                                               draw=met.draw_points,
                                                              white=d.white_wins, drawn=d.draw)
    if isinstance(games, int):
        sub += _(" ({policy}, {games:,} games)").format(policy=d.source.get('policy'), games=games)
    if cubeful:
        sub += "\n" + _("cube centred, efficiency x = {x:.2f}; a need of 1 is the "
                        "Crawford game").format(
            x=met.efficiency)
    # one centred block, so constrained layout makes room
    fig.suptitle(title + "\n" + sub, fontsize=9)
    fig.colorbar(image, ax=ax, shrink=0.8, label=_("row player's match winning chance (%)"))
    return fig
