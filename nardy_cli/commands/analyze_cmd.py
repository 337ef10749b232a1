"""`nardy analyze`: the plays of a roll ranked by rollouts with common dice (staged or all)."""

from __future__ import annotations


import click

from ..analysis.analyze import rank_plays
from ..analysis.rollout_row import policy_columns
from ..analysis.staged import STAGED_FROM
from ..core.engine import legal_plays
from ..core.errors import ArgumentError
from ..core.i18n import _
from ..core.rules import rules_label
from ..reports.folder import json_data
from ..reports.render import Views, table_text
from .common import (DICE, POSITION, BadInput, block_validation_option, exit_if_interrupted, note,
                     report_interrupted, show)
from .cube_options import cube_options, cube_text
from .progress import StageBars, StepBar
from .report_options import check_report_flags, finish_report
from .scoring_options import scoring_from, scoring_options
from .staged_view import filter_option, parse_filters, show_forced, show_staged
from .study_options import study_options
from .tables import until_se_note


@click.command("analyze", epilog="""\b
Examples:
  nardy analyze "W:1x13,7,12 B:1x14,7 w" --dice 6-1
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --games 5184 --top 6
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w" --dice 4-2 --until-se 0.02 --output reports/four-two
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --policy lookahead:heuristic --games 1296
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --filter top8,0.05 --games 25920
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --no-staged --games 2592
  nardy analyze "W:1x14,12 B:1x15 b 6-5" --cube-owner centre --games 1296  # cube decision first
  nardy analyze "W:1x13,7x2 B:1x13,7x2 w" --dice 2-1          # from the opening book
  nardy analyze "W:1x13,7x2 B:1x13,7x2 w" --dice 2-1 --no-book  # computed afresh
""")
@block_validation_option
@click.argument("position", type=POSITION, metavar="POSITION")
@click.option("--dice", type=DICE, default=None,
              help="The roll to play; default: the position's dice.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Roll out only the K best plays by the policy's evaluator (implies "
                   "--no-staged).")
@click.option("--staged/--no-staged", default=None,
              help="Staged ranking: 0-ply, then 1-ply, then rollouts (common dice, VR, "
                   "exact bear-offs) of the survivors; see docs/rollouts.md. [default: "
                   f"staged when the roll has {STAGED_FROM} or more "
                   f"distinct plays; --no-staged rolls out every play]")
@click.option("--rollout-forced", is_flag=True,
              help="Roll out a forced play (the roll's only legal play) too; "
                   "by default it is only named.")
@click.option("--book/--no-book", "book", default=True, show_default=True,
              help="Answer from the opening book when it holds the position and roll (no "
                   "option that changes the figures given); --no-book computes afresh.")
@filter_option
@scoring_options
@study_options
@cube_options
@click.pass_context
def analyze_command(ctx, position, dice, top, staged, rollout_forced, book, filters, exact_bearoff,
                    truncate, vr, luck_network, policy, run, quiet, rules, stakes, fmt, output,
                    html, svg, force, no_block_validation) -> None:
    """Rank every legal play of a roll by rollouts with common dice
    (equity ± SE, difference to the best).

    A roll with many plays is ranked in stages (0-ply, 1-ply, then rollouts of the
    survivors); --no-staged rolls out every play.  With --until-se X the plays are
    rolled out in rounds of 1,296 games: a play more than 3 paired standard errors
    behind the best is dropped (the table says after how many games), and the
    analysis stops once every remaining play's SE is at most X.  With --cube-owner
    the cube decision before the roll comes first (table and JSON key "cube").
    """
    if len(position) != 1:
        raise BadInput("analyze takes exactly one position (use 'nardy batch' for a file)")
    item = position[0]
    check_report_flags(output, html, svg, force)
    scoring_given = truncate is not None or vr or luck_network is not None
    if staged and top is not None:
        raise BadInput("--top and --staged do not combine: use --filter topK,...")
    if staged is False and (filters is not None or scoring_given):
        raise BadInput("--filter, --truncate, --vr and --luck-network apply to staged analyses, "
                       "not --no-staged")
    roll = dice or item.position.dice
    if roll is None:
        raise ArgumentError("no dice: give {dice} or a position that carries dice")
    if _from_book(ctx, book, item.position, roll, rules, fmt):
        return
    plays = legal_plays(item.position, roll, rules)
    match = stakes.match
    cube_record = _cube_first(item.position, stakes, rules, fmt)
    if len(plays) == 1 and not rollout_forced:
        show_forced(item.position.with_dice(None), roll, plays[0], fmt, cube_record)
        if output:
            click.echo(_("Warning: a forced play has nothing to rank, so no report was "
                         "written to {output}").format(
                output=output), err=True)
        return
    if staged is None:
        staged = filters is not None or scoring_given or (top is None and len(plays) >= STAGED_FROM)
    if staged:
        _analyze_staged(item, dice, policy, run, quiet, rules, filters,
                        scoring_from(exact_bearoff, truncate, vr, luck_network), fmt, output, html,
                        svg, force, stakes, cube_record)
        return
    bar = StepBar(_("analyze (games per play)"), not quiet, unit="games")
    try:
        ranking = rank_plays(item.position, dice, policy, run=run.with_progress(bar), rules=rules,
                             top=top, stakes=stakes.with_cube(None))
    finally:
        bar.close()
    show(fmt, Views(table=lambda: _ranking_text(ranking, policy, run.seed, rules, match),
                    frame=lambda: ranking.frame().assign(**policy_columns(ranking.params)),
                    data=lambda: ranking.to_dict() | cube_record))
    missed = until_se_note(ranking.params, ranking.params["games_requested"],
                           max(rp.equity_se for rp in ranking.plays if rp.dropped_after is None))
    if missed:
        note(fmt, missed)
    report_interrupted(ranking.interrupted, fmt, _("these figures"))
    finish_report(json_data("analyze", ranking, names=[item.name], comments=[item.comment]), output,
                  html, svg, force)
    exit_if_interrupted(ranking.interrupted)


def _ranking_text(ranking, policy, seed, rules, match) -> str:
    """A ranking rolled out without stages, for people: the plays' table and what it says."""
    lines = [_("{position}   to play {dice}   ({policy} rollouts, seed {seed}, "
               "{rules}{match})").format(
        position=ranking.position, dice=ranking.dice, policy=policy, seed=seed,
        rules=rules_label(rules), match=', ' + match.label() if match else '')]
    columns = ["rank", "play", "games", "equity", "equity_se", "diff", "diff_se", "win", "lose",
               "dropped_after"]
    if match is not None:
        columns[3:3] = ["mwc", "mwc_se", "money_rank"]
    shown = ranking.frame()[columns].copy()
    shown["dropped_after"] = shown["dropped_after"].map(lambda v: "" if v is None or v != v
                                                        else f"{int(v):,}")
    if match is not None:
        shown["money_rank"] = [f"{m}*" if m != r else f"{m}" for m,
                               r in zip(shown["money_rank"], shown["rank"])]
    lines.append(table_text(shown))
    if match is not None:
        lines.append(_("ranked by cubeless match winning chance (mwc); diff is in it; "
                       "equity is money points; * the money ranking differs"))
    if ranking.prefiltered:
        lines.append(_("left out by --top: {plays}").format(plays=', '.join(ranking.prefiltered)))
    return "\n".join(lines)


def _from_book(ctx, book, position, roll, rules, fmt) -> bool:
    """Show the opening book's entry for this decision when the book may answer and holds it (made
    under the same rules; money, no cube); True when it did."""
    from .book_view import show_entry, wants_book
    if not wants_book(ctx, book):
        return False
    from ..book.read import load_book
    entry = load_book().answers(position, roll, rules)
    if entry is None or len(entry.get("plays", [])) < 2:
        return False
    show_entry(entry, fmt)
    return True


def _cube_first(position, stakes, rules, fmt) -> dict:
    """With a cube in the stakes: its decision before the roll, printed first for people; the JSON
    key "cube" to add."""
    if stakes.cube is None:
        return {}
    from ..match.cube_decision import cube_decision
    before = position.with_dice(None)
    decision = cube_decision(before, stakes, rules)
    show(fmt, Views(table=lambda: cube_text(position, stakes, decision) + "\n"))
    return {"cube": {"state": stakes.cube_dict(), **decision.to_dict()}}


def _analyze_staged(item, dice, policy, run, quiet, rules, filters, scoring, fmt, output, html, svg,
                    force, stakes, cube_record=None) -> None:
    """`analyze` in stages: run, print every stage, write the report (at a `match` score by match
    equity)."""
    from ..analysis.staged import staged_rank
    bars = StageBars("analyze", not quiet)
    try:
        ranking = staged_rank(item.position, dice, policy, run=run.with_progress(bars), rules=rules,
                              filters=parse_filters(filters), scoring=scoring,
                              stakes=stakes.with_cube(None))
    finally:
        bars.close()
    show_staged(ranking, fmt, policy, run.seed, rules, cube_record)
    interrupted = bool(ranking.params.get("interrupted"))
    report_interrupted(interrupted, fmt, _("the rollout figures"))
    finish_report(json_data("analyze", ranking, names=[item.name], comments=[item.comment]), output,
                  html, svg, force)
    exit_if_interrupted(interrupted)


