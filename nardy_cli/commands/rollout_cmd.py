"""`nardy rollout`: outcome probabilities, equity and deficits by Monte Carlo games."""

from __future__ import annotations

import click

from ..analysis.rollout import rollout
from ..core.errors import NoGamesError
from ..core.i18n import _
from ..reports.folder import rollout_data
from ..reports.render import Views
from .common import (POSITION, BadInput, Shown, block_validation_option, exit_if_interrupted,
                     flatten, format_option, handle_errors, note, report_interrupted,
                     rules_options)
from .cube_options import cube_options
from .cube_play import never_double_option, rollout_cube_bots, rollout_cube_line
from .match_options import match_options
from .policy_names import check_policy
from .progress import Progress
from .report_options import check_report_flags, finish_report, report_options
from .run_options import run_options
from .scoring_options import scoring_from, scoring_note, scoring_options
from .tables import rollout_table, until_se_note


def _rollout_text(result) -> str:
    """One position's rollout for people: the table, the scoring note, the cube's line."""
    lines = [rollout_table(result)]
    scoring = scoring_note(result)
    if scoring:
        lines.append(scoring)
    if result.cube is not None:
        lines.append(rollout_cube_line(result))
    return "\n".join(lines)


def policy_options(func):
    """--policy for both sides, or --white-policy/--black-policy."""
    func = click.option("--black-policy", default=None, metavar="NAME", callback=check_policy,
                        help="Black's policy (overrides --policy).")(func)
    func = click.option("--white-policy", default=None, metavar="NAME", callback=check_policy,
                        help="White's policy (overrides --policy).")(func)
    return click.option("--policy", default="neural", show_default=True, metavar="NAME",
                        callback=check_policy,
                        help="Policy for both sides: neural (the trained network), "
                             "lookahead:NAME, heuristic, racer, random (rule statistics, not "
                             "play), a plugin or module:attribute (see 'nardy policies').")(func)


@click.command("rollout", epilog="""\b
Examples:
  nardy rollout "W:1x14,12 B:1x15 b"
  nardy rollout start --games 100000 --policy random       # rule statistics of random play
  nardy rollout positions/study.txt --until-se 0.01 --format json
  nardy rollout start --white-policy heuristic --black-policy racer --output reports/h-vs-r
  nardy rollout "W:17x2,19x3,22x5,24x5 B:18,19x4,21x5,23x5 w" --policy heuristic --no-vr \\
      --truncate 20
  nardy rollout "W:2x2,3x2,4,6x3,7,8,9x2,10x2,12 B:1x10,2x5 w 4-1" --policy lookahead:neural \\
      --luck-network experiments/training-runs/values-step/checkpoint.npz --games 1296
  nardy rollout "W:1x14,12 B:1x15 b" --policy neural --match 7 --score 4-6 --games 2592
  nardy rollout "W:1x14,12 B:1x15 b" --policy neural --cube-owner centre --games 1296
  nardy rollout "W:1x14,12 B:1x15 b" --policy heuristic --cube-owner white --cube 2 \\
      --never-double black
  nardy rollout "W:1x14,12 B:1x15 b" --match 7 --score 4-5 --cube-owner centre --games 324
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@policy_options
@run_options
@scoring_options
@rules_options
@match_options
@cube_options
@never_double_option(("white", "black", "both"), "that side")
@format_option
@report_options
@handle_errors
def command(positions, policy, white_policy, black_policy, run, quiet, exact_bearoff, truncate, vr,
            luck_network, rules, stakes, never_double, fmt, output, html, svg, force,
            no_block_validation) -> None:
    """Roll out POSITION: chances of every outcome for the side to move, equity, move deficits."""
    items = flatten(positions)
    cube_bots = rollout_cube_bots(stakes, never_double)
    pols = (white_policy or policy, black_policy or policy)
    scoring = scoring_from(exact_bearoff, truncate, vr, luck_network)
    check_report_flags(output, html, svg, force)
    if stakes.match is not None and stakes.cube is not None:
        if output:
            raise BadInput("--output: a rollout with the cube at a match score writes no report "
                           "folder yet; use --format json")
        _match_cube_rollouts(items, pols, run, quiet, rules, stakes, cube_bots, scoring, fmt)
        return
    results = []
    interrupted = False
    shown = Shown(fmt)
    for item in items:
        bar = Progress(run.games, f"{item.name}: " if item.name else "", enabled=not quiet)
        try:
            result = rollout(item.position, pols, run=run.with_progress(bar), rules=rules,
                             name=item.name, scoring=scoring, stakes=stakes, cube_bots=cube_bots)
        except (NoGamesError, KeyboardInterrupt):      # in this position, or between two positions
            if not results:
                raise
            interrupted = True      # an earlier position's figures are still reported
            break
        finally:
            bar.close()
        results.append(result)
        shown.add(Views(table=lambda: ("\n" if len(results) > 1 else "") + _rollout_text(result),
                        data=result.to_dict, rows=lambda: [result.summary_row()]))
        missed = until_se_note(result.params, result.games, result.equity_se)
        if missed:
            note(fmt, missed)
        if result.unfinished:
            click.echo(f"Warning: {result.unfinished} games did not finish within the ply limit",
                       err=True)
        if result.interrupted:
            interrupted = True
            break
    shown.close()
    if interrupted and not results[-1].interrupted:
        note(fmt, _("INTERRUPTED: the positions after the first {n} were "
                    "not rolled out.").format(n=len(results)), gap=True)
    if output:
        finish_report(rollout_data(results,
                                   comments=[item.comment for item in items[:len(results)]],
                                   interrupted=interrupted), output, html, svg, force)
    exit_if_interrupted(interrupted)


def _match_cube_rollouts(items, pols, run, quiet, rules, stakes, cube_bots, scoring, fmt) -> None:
    """`rollout` at a match score with the cube: each position's cubeful match winning chance, and
    its cube decision rolled out (`analysis/match_cube_rollout.py`)."""
    from ..analysis.match_cube_rollout import match_cube_rollout
    shown = Shown(fmt)
    interrupted = False
    for n, item in enumerate(items):
        bar = Progress(run.games, f"{item.name}: " if item.name else "", enabled=not quiet)
        try:
            result = match_cube_rollout(
                item.position, pols, stakes=stakes, run=run, rules=rules, cube_bots=cube_bots,
                scoring=scoring, progress=lambda done, est: bar.update(done, est.mean, est.se,
                                                                       "mwc"))
        finally:
            bar.close()
        shown.add(Views(table=lambda: ("\n" if n else "") + match_cube_text(result, stakes),
                        data=result.to_dict, rows=lambda: [match_cube_row(result)]))
        if result.interrupted:
            interrupted = True
            break
    shown.close()
    if interrupted:
        report_interrupted(True, fmt, _("these figures ({done:,} of {asked:,} games a branch)")
                           .format(done=result.games, asked=run.games))
    if interrupted and n + 1 < len(items):
        note(fmt, _("INTERRUPTED: the positions after the first {n} were "
                    "not rolled out.").format(n=n + 1))
    exit_if_interrupted(interrupted)


def match_cube_text(result, stakes) -> str:
    """A match cube rollout for people: the branches with their intervals and the decision."""
    from ..core.i18n import side_words, translate
    from .cube_play import start_label
    p = result.params
    words = side_words(result.position.turn)
    pct = lambda e: _("{mwc:.1%} ± {se:.1%} (95%: {lo:.1%} to {hi:.1%})").format(  # noqa: E731
        mwc=e.mean, se=e.se, lo=e.ci95[0], hi=e.ci95[1])
    lines = [_("{position}   {side} on roll, {match}, {cube}").format(
                 position=result.position, match=stakes.match.label(),
                 cube=start_label(stakes.cube), **words),
             _("{white} (White) vs {black} (Black): {games} games a branch, seed {seed}; both "
               "sides use the cube at the score (the cubeful match model); cubeful match winning "
               "chances for {side}:").format(white=p["policies"]["white"],
                                             black=p["policies"]["black"], games=result.games,
                                             seed=p["seed"], **words)]
    if p.get("vr"):
        plain = p["plain"]
        lines.append(_("  variance-reduced by each roll's cubeful luck (without: no double "
                       "{nd:.1%} ± {nd_se:.1%}{dt})").format(
            nd=plain["no_double"]["mwc"], nd_se=plain["no_double"]["se"],
            dt=(_(", double/take {dt:.1%} ± {dt_se:.1%}").format(
                dt=plain["double_take"]["mwc"], dt_se=plain["double_take"]["se"])
                if "double_take" in plain else "")))
    if result.double_take is None:
        lines.append(_("  cube as it is   {value}").format(value=pct(result.no_double)))
        return "\n".join(lines)
    lines += [_("  no double       {value}").format(value=pct(result.no_double)),
              _("  double/take     {value}").format(value=pct(result.double_take)),
              _("  double/pass     {value:.1%} (no games: the cube's points)").format(
                  value=result.double_pass),
              _("  double/take - no double: {diff:+.1%} ± {se:.1%} (same dice in both)").format(
                  diff=result.take_minus_no_double.mean, se=result.take_minus_no_double.se),
              (_("  decision so far (INTERRUPTED): {decision}") if result.interrupted
               else _("  rolled-out decision: {decision}")).format(
                  decision=translate(result.decision))]
    return "\n".join(lines)


def match_cube_row(result) -> dict:
    """A match cube rollout as one CSV row."""
    row = {"position": str(result.position), "games": result.games,
           "interrupted": result.interrupted,
           "no_double": result.no_double.mean, "no_double_se": result.no_double.se}
    if result.double_take is not None:
        row |= {"double_take": result.double_take.mean, "double_take_se": result.double_take.se,
                "double_pass": result.double_pass, "decision": result.decision,
                "take_minus_no_double_se": result.take_minus_no_double.se}
    return row
