"""`nardy met`: the long-nardy match equity table, cubeless or cubeful."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..core.i18n import _
from ..analysis.met_measure import MEASURE_POLICY, measure_start_distribution
from ..match.met import cubeful_equity_table, match_equity_table, table_se
from ..match.table import DEFAULT_DRAW_POINTS, DEFAULT_NEXT_WHITE, NEXT_WHITE, GameDistribution
from ..reports.render import Views
from .common import (GAMES, IMAGE_FILE, SEED, BadInput, exit_if_interrupted, format_option,
                     handle_errors, refuse_without, report_interrupted, rules_options, show)
from .progress import Progress


@click.command("met", epilog="""\b
Examples:
  nardy met --length 7
  nardy met --length 17 --format json
  nardy met --length 7 --next-white lot --se
  nardy met --length 7 --chart reports/met-7.png
  nardy met --length 7 --cubeful          # with the cube and the Crawford rule (docs/cube.md)
  nardy met --length 5 --measure --games 2592 --policy neural --save reports/start-distribution.json
""")
@click.option("--length", type=click.IntRange(1, 64), default=7, show_default=True,
              help="The longest match (points).")
@click.option("--next-white", type=click.Choice(NEXT_WHITE), default=DEFAULT_NEXT_WHITE,
              show_default=True,
              help="Who plays White in each game after the first (docs/rules-decisions.md).")
@click.option("--draw-points", type=float, default=DEFAULT_DRAW_POINTS, show_default=True,
              metavar="P", help="Points a draw (R8) gives each player.")
@click.option("--cubeful", is_flag=True,
              help="The cubeful table (the cube model, the Crawford rule, the post-Crawford row; "
                   "docs/cube.md).")
@click.option("--se", "with_se", is_flag=True,
              help="Also the standard error of each entry, propagated from the measured "
                   "distribution's SE.")
@click.option("--chart", type=IMAGE_FILE, default=None,
              help="Draw the table as a heat map into FILE (.png, .svg or .pdf).")
@click.option("--distribution", "dist_file", type=click.Path(exists=True, dir_okay=False),
              default=None, metavar="FILE",
              help="Build on this outcome distribution (a file written by --save) instead of "
                   "the shipped one.")
@click.option("--measure", is_flag=True,
              help="Measure the outcome distribution anew by a rollout of the start.")
@click.option("--policy", default=MEASURE_POLICY, show_default=True, metavar="NAME",
              help="With --measure: the policy of both sides.")
@click.option("--games", type=GAMES, default=20736, show_default=True,
              help="With --measure: games of the rollout.")
@click.option("--seed", type=SEED, default=2026, show_default=True,
              help="With --measure: the rollout's seed.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --measure: worker processes.")
@click.option("--save", type=click.Path(dir_okay=False, writable=True), default=None,
              metavar="FILE",
              help="With --measure: write the measured distribution (JSON) to FILE.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@rules_options
@format_option
@handle_errors
def command(length, next_white, draw_points, cubeful, with_se, chart, dist_file, measure, policy,
            games, seed, workers, save, quiet, rules, fmt) -> None:
    """The match equity table: each player's chance to win from every score of a match
    (cubeless or cubeful)."""
    if cubeful and with_se:
        raise BadInput("--se is for the cubeless table: drop --cubeful or --se")
    refuse_without(measure, "--measure", "policy", "games", "seed", "workers", "save")
    if measure and dist_file:
        raise BadInput("give --measure or --distribution, not both")
    dist = None
    interrupted = False
    if dist_file:
        try:
            dist = GameDistribution.from_dict(
                json.loads(Path(dist_file).read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise BadInput(f"{dist_file} is not an outcome distribution written by `nardy met "
                           f"--save` ({exc})")
    if measure:
        from ..games.executors import default_workers
        bar = Progress(games, "start", enabled=not quiet)
        try:
            dist, result = measure_start_distribution(rules, policy=policy, games=games, seed=seed,
                                                      workers=workers or default_workers(),
                                                      progress=bar)
        finally:
            bar.close()
        command_line = (f"nardy met --measure --policy {policy} --games {games} --seed {seed} "
                        f"--rules {rules.preset}")
        dist = GameDistribution(dist.white, dist.black, dist.draw, dist.se,
                                {**dist.source, "command": command_line})
        interrupted = result.interrupted
        if interrupted:
            dist = GameDistribution(dist.white, dist.black, dist.draw, dist.se,
                                    {**dist.source, "interrupted": True})
        if save and interrupted:
            click.echo(f"Warning: the measurement was interrupted after {result.games:,} of "
                       f"{games:,} games, so {save} was not written", err=True)
        elif save:
            with open(save, "w", encoding="utf-8") as f:
                f.write(json.dumps(dist.to_dict(), indent=2) + "\n")
    build = cubeful_equity_table if cubeful else match_equity_table
    met = build(length, rules, next_white=next_white, draw_points=draw_points, distribution=dist)
    if with_se:
        met = table_se(met)
    if chart:
        from ..reports.met_figure import met_figure
        from ..reports.figures import save_figure
        save_figure(met_figure(met), chart, dpi=120)
    what = _("the table's figures (from the {games:,} games measured)").format(
        games=met.distribution.source.get('games', 0))
    show(fmt, Views(table=lambda: _met_text(met, length, rules, next_white, draw_points, cubeful,
                                            with_se),
                    frame=lambda: met.frame().reset_index(), data=met.to_dict))
    report_interrupted(interrupted, fmt, what)
    exit_if_interrupted(interrupted)


def _met_text(met, length, rules, next_white, draw_points, cubeful, with_se) -> str:
    """The match equity table for people: what it is, a row per need, the post-Crawford row, the
    game it is built on."""
    d = met.distribution
    kind = (_("cubeful, cube efficiency x = {x:.2f}").format(x=met.efficiency) if cubeful
            else _("cubeless"))
    lines = [_("Match equity table ({kind}), {preset} rules, next game's White: {next_white}, "
               "draw {draw:g} point "
               "each").format(kind=kind, preset=rules.preset, next_white=next_white,
                              draw=draw_points),
             _("Row: the player who needs that many points; column: the opponent. "
               "Colours of the coming game by "
               "lot. Percent{se}.").format(se=_(" ± SE") if with_se else "")]
    if cubeful:
        lines.append(_("The cube centred before each game; a need of 1 is the Crawford "
                       "game (no cube)."))
    pct = (met.table * 100)
    width = 11 if with_se else 6
    lines.append(f"{_('needs'):<5} " + "".join(f"{j:>{width}}" for j in range(1, length + 1)))
    for i in range(length):
        cells = []
        for j in range(length):
            cell = f"{pct[i, j]:.1f}" + (f"±{met.se[i, j] * 100:.1f}" if with_se else "")
            cells.append(f"{cell:>{width}}")
        lines.append(f"{i + 1:>5} " + "".join(cells))
    if cubeful:
        lines.append(_("post-Crawford, the leader (needs 1) against the trailer needing the "
                       "column's points:"))
        lines.append("      " + "".join(f"{v * 100:>{width}.1f}" for v in met.post_crawford))
    src = d.source
    line = _("One game from the start: White wins {white:.1%}, Black {black:.1%}, "
             "draw {draw:.1%}").format(
        white=d.white_wins, black=sum(d.black), draw=d.draw)
    if isinstance(src.get("games"), int):
        line += _(" (measured by {policy}: {games:,} games, seed {seed})").format(
            policy=src.get('policy'), games=src['games'], seed=src.get('seed'))
    lines.append("\n" + line)
    return "\n".join(lines)
