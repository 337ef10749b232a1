"""`nardy duel`: policy A against policy B with duplicate dice, in money games or whole matches."""

from __future__ import annotations

import click

from ..core.i18n import _
from ..games.duel import duel, duel_figures
from ..reports.render import Views
from .common import (KEPT_GAMES, POSITION, BadInput, exit_if_interrupted, format_option, given,
                     handle_errors, refuse_without, report_interrupted, rules_options, show)
from .cube_play import duel_cube_line, duel_cube_options, match_cube_line
from .match_options import match_options
from .progress import Progress, StepBar
from .run_options import run_options_without_stop_rule


def _match_duel(a, b, position, matches, run, quiet, rules, stakes, fmt, cube_bots) -> None:
    """`nardy duel A B --match N [--cube]`: whole matches from 0-0, each pair on the same dice."""
    from ..games.match_play import MatchSettings, match_duel
    from ..core.position import START
    if position != START:
        raise BadInput("--match plays whole matches from the start of each game: drop --position")
    match = stakes.match
    if match.score != (0, 0):
        raise BadInput("--match plays whole matches from 0-0: drop --score")
    settings = MatchSettings(match.length, rules, run.seed, match.next_white, match.draw_points)
    bar = StepBar(f"{a} vs {b} (matches)", not quiet, unit="matches")
    try:
        where = dict(**run.executors, progress=bar)
        if stakes.cube is None:
            result = match_duel(a, b, matches, settings, **where)
        else:
            from ..games.match_cube_play import cube_match_duel
            result = cube_match_duel(a, b, matches, settings, cube_bots, **where)
    finally:
        bar.close()
    what = _("these figures ({done:,} of {asked:,} pairs of matches)").format(done=result.matches,
                                                                              asked=matches)
    row = {k: v for k, v in result.to_dict().items() if k not in ("params", "ci95")}
    row["ci95_low"], row["ci95_high"] = result.ci95      # Wilson's interval
    show(fmt, Views(table=lambda: _match_duel_text(result, stakes.match, run.seed, rules,
                                                        stakes.cube),
                    rows=lambda: [row], data=result.to_dict))
    report_interrupted(result.interrupted, fmt, what)
    exit_if_interrupted(result.interrupted)


@click.command("duel", epilog="""\b
Examples:
  nardy duel heuristic random --games 10000
  nardy duel lookahead:heuristic heuristic --games 2000 --format json
  nardy duel heuristic racer --position "W:1x14,12 B:1x15 b"
  nardy duel neural heuristic --match 7 --matches 200      # matches to 7: A's share of wins
  nardy duel neural neural --cube --never-double b --games 2000   # the cube against no cube
  nardy duel neural heuristic --match 5 --cube --matches 20       # matches with cube, Crawford
""")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--position", "position", type=POSITION, default="start", show_default=True,
              help="Where every game starts.")
@click.option("--matches", type=KEPT_GAMES, default=200, show_default=True,
              help="With --match: duplicate pairs of whole matches to play.")
@run_options_without_stop_rule
@rules_options
@match_options
@format_option
@duel_cube_options
@handle_errors
def duel_command(a, b, position, matches, run, quiet, rules, stakes, fmt, cube_bots) -> None:
    """Play policy A against policy B with duplicate dice; report A's points per game ± 95% CI."""
    if len(position) != 1:
        raise BadInput("--position must name exactly one position")
    refuse_without(stakes.match is not None, "--match N (whole matches)", "matches")
    if stakes.match is not None and given("games"):
        raise BadInput("--games counts money games: with --match, --matches counts the pairs of "
                       "matches")
    if stakes.match is not None:
        _match_duel(a, b, position[0].position, matches, run, quiet, rules, stakes, fmt, cube_bots)
        return
    bar = Progress(run.games, f"{a} vs {b}: ", enabled=not quiet)

    def progress(tally):
        if bar.enabled:
            fig = duel_figures(tally.joint, rules)
            bar.update(fig["games"], fig["points_per_game"], fig["se"], what="points/game")

    try:
        result = duel(a, b, run=run.with_progress(progress), rules=rules,
                      position=position[0].position, stakes=stakes, cube_bots=cube_bots)
    finally:
        bar.close()
    show(fmt, Views(table=lambda: _duel_text(result, position[0], run.seed, rules),
                    frame=result.frame, data=result.to_dict))
    report_interrupted(result.interrupted, fmt,
                       _("these figures ({done:,} of {asked:,} games)").format(
        done=result.games, asked=run.games))
    exit_if_interrupted(result.interrupted)


def _match_duel_text(result, match, seed, rules, cube) -> str:
    """A duel of whole matches for people: A's share of match wins, the games, the cube's line."""
    from ..core.rules import rules_label
    lo, hi = result.ci95
    lines = [_("{a} vs {b}: {matches:,} pairs of matches to {length} with duplicate dice (each "
               "policy first player "
               "once), seed {seed}, {rules}, next White: {next_white}").format(
        a=result.a, b=result.b, matches=result.matches, length=match.length, seed=seed,
        rules=rules_label(rules), next_white=match.next_white),
        _("match wins for {a}: {share:.2%}  95% CI [{lo:.2%}, "
          "{hi:.2%}]  SE {se:.2%}").format(a=result.a, share=result.match_win_share, lo=lo, hi=hi,
                                           se=result.se),
        _("{games:,} games, {mean:.1f} per match").format(games=result.games,
                                                          mean=result.mean_games)]
    if cube is not None:
        lines.append(match_cube_line(result))
    return "\n".join(lines)


def _duel_text(result, start, seed, rules) -> str:
    """A duel of single games for people: A's points per game with its interval, the shares of
    wins, mars and koks, the cube's line."""
    from ..core.position import START
    from ..core.rules import rules_label
    lo, hi = result.ci95
    where = _("the start position") if start.position == START else f"'{start.position}'"
    where += f" ({start.name})" if start.name else ""
    lines = [_("{a} vs {b}: {games:,} games from {where} with duplicate dice, "
               "seed {seed}, {rules}").format(a=result.a, b=result.b, games=result.games,
                                              where=where, seed=seed, rules=rules_label(rules)),
             _("points per game for {a}: {ppg:+.4f}  95% CI [{lo:+.4f}, "
               "{hi:+.4f}]  SE {se:.4f}").format(a=result.a, ppg=result.points_per_game, lo=lo,
                                                 hi=hi, se=result.se),
             _("wins {wins:.2%}  95% CI [{lo:.2%}, {hi:.2%}]   draws {draws:.2%}").format(
                 wins=result.win_share, lo=result.win_ci95[0], hi=result.win_ci95[1],
                 draws=result.draw_share),
             _("mars for {mf:.2%} / against {ma:.2%}   koks for {kf:.2%} / "
               "against {ka:.2%}").format(mf=result.mars_share_for, ma=result.mars_share_against,
                                          kf=result.koks_share_for, ka=result.koks_share_against)]
    if result.cube is not None:
        lines.append(duel_cube_line(result))
    return "\n".join(lines)
