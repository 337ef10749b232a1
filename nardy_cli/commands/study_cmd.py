"""Study commands: `nardy analyze`, `nardy openings`, `nardy batch`, `nardy chart`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..analysis.analyze import rank_plays
from ..analysis.batch import batch_frame, batch_record, batch_rollout
from ..analysis.openings import opening_table, parse_rolls
from ..analysis.staged import STAGED_FROM
from ..core.engine import legal_plays
from ..core.errors import (ArgumentError, PositionsFileError, ReportKindError, ResultsError,
    WriteError)
from ..core.i18n import _, translate
from ..core.positions_file import read_positions
from ..core.rules import rules_label
from ..match.state import match_valuation
from ..reports.folder import json_data, rollout_data
from ..reports.render import frame_text, to_json
from .common import (DICE, POSITION, BadInput, block_validation_option, exit_if_interrupted,
                     format_option, handle_errors, report_interrupted, rules_options)
from .cube_options import cube_options, cube_text
from .match_options import match_options
from .policy_names import check_policy
from .progress import StageBars, StepBar
from .report_options import check_report_flags, finish_report, report_options
from .run_options import run_options
from .scoring_options import scoring_from, scoring_options
from .staged_view import filter_option, parse_filters, show_forced, show_staged
from .tables import until_se_note

STUDY_POLICY = "neural"


def study_policy_option(func):
    """--policy for both sides, defaulting to the neural bot."""
    return click.option("--policy", default=STUDY_POLICY, show_default=True, metavar="NAME",
                        callback=check_policy,
                        help="Policy both sides play in the rollouts (see 'nardy policies').")(func)


def study_options(func):
    """The options every study command shares: policy, run, rules, format and report; errors as exit
    2."""
    for decorate in (handle_errors, report_options, format_option, match_options, rules_options,
                     run_options, study_policy_option):
        func = decorate(func)
    return func


@click.command("analyze", epilog="""\b
Examples:
  nardy analyze "W:1x13,7,12 B:1x14,7 w" --dice 6-1
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --games 5184 --top 6
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w" --dice 4-2 --until-se 0.02 --output reports/four-two
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --policy lookahead:heuristic --games 1296
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --filter top8,0.05 --games 25920
  nardy analyze "W:1x13,8,12 B:1x13,6,11 w 4-2" --no-staged --games 2592
  nardy analyze "W:1x14,12 B:1x15 b 6-5" --cube-owner centre --games 1296  # cube decision first
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
@filter_option
@scoring_options
@study_options
@cube_options
def analyze_command(position, dice, top, staged, rollout_forced, filters, exact_bearoff, truncate,
                    vr, luck_network, policy, run, quiet, rules, match, fmt, output, html, svg,
                    force, no_block_validation, cube) -> None:
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
    plays = legal_plays(item.position, roll, rules)
    cube_record = _cube_first(item.position, cube, rules, match, fmt)
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
                        svg, force, match, cube_record)
        return
    bar = StepBar(_("analyze (games per play)"), not quiet, unit="games")
    try:
        ranking = rank_plays(item.position, dice, policy, run=run.with_progress(bar), rules=rules,
                             top=top, match=match)
    finally:
        bar.close()
    frame = ranking.frame()
    if fmt == "json":
        click.echo(to_json(ranking.to_dict() | cube_record))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    else:
        click.echo(_("{position}   to play {dice}   ({policy} rollouts, seed {seed}, "
                     "{rules}{match})").format(
            position=ranking.position, dice=ranking.dice, policy=policy, seed=run.seed,
            rules=rules_label(rules),
            match=', ' + match.label() if match else ''))
        columns = ["rank", "play", "games", "equity", "equity_se", "diff", "diff_se", "win", "lose",
                   "dropped_after"]
        if match is not None:
            columns[3:3] = ["mwc", "mwc_se", "money_rank"]
        shown = frame[columns].copy()
        shown["dropped_after"] = shown["dropped_after"].map(lambda v: "" if v is None or v != v
                                                            else f"{int(v):,}")
        if match is not None:
            shown["money_rank"] = [f"{m}*" if m != r else f"{m}" for m,
                                   r in zip(shown["money_rank"], shown["rank"])]
        click.echo(frame_text(shown, "table"))
        if match is not None:
            click.echo(_("ranked by match winning chance (mwc); diff is in match winning chance; "
                         "equity is money points; * the money ranking differs"))
        if ranking.prefiltered:
            click.echo(_("left out by --top: {plays}").format(plays=', '.join(ranking.prefiltered)))
    missed = until_se_note(ranking.params, ranking.params["games_requested"],
                           max(rp.equity_se for rp in ranking.plays if rp.dropped_after is None))
    if missed:
        click.echo(missed if fmt == "table" else f"Warning: {missed}", err=fmt != "table")
    report_interrupted(ranking.interrupted, fmt, _("these figures"))
    finish_report(json_data("analyze", ranking, names=[item.name], comments=[item.comment]), output,
                  html, svg, force)
    exit_if_interrupted(ranking.interrupted)


def _cube_first(position, cube, rules, match, fmt) -> dict:
    """With a cube: its decision before the roll, printed first in a table; the JSON key "cube" to
    add."""
    if cube is None:
        return {}
    from ..match.cube_decision import cube_decision
    before = position.with_dice(None)
    decision = cube_decision(before, cube, rules, match)
    if fmt == "table":
        click.echo(cube_text(position, cube, decision))
        click.echo()
    return {"cube": {"state": cube.to_dict(), **decision.to_dict()}}


def _analyze_staged(item, dice, policy, run, quiet, rules, filters, scoring, fmt, output, html, svg,
                    force, match=None, cube_record=None) -> None:
    """`analyze` in stages: run, print every stage, write the report (at a `match` score by match
    equity)."""
    from ..analysis.staged import staged_rank
    bars = StageBars("analyze", not quiet)
    try:
        ranking = staged_rank(item.position, dice, policy, run=run.with_progress(bars), rules=rules,
                              filters=parse_filters(filters), scoring=scoring,
                              valuation=None if match is None else match_valuation(match, rules))
    finally:
        bars.close()
    show_staged(ranking, fmt, policy, run.seed, rules, cube_record)
    interrupted = bool(ranking.params.get("interrupted"))
    report_interrupted(interrupted, fmt, _("the rollout figures"))
    finish_report(json_data("analyze", ranking, names=[item.name], comments=[item.comment]), output,
                  html, svg, force)
    exit_if_interrupted(interrupted)


@click.command("openings", epilog="""\b
Examples:
  nardy openings --rolls 65,64,31 --games 2592
  nardy openings --rolls all --output reports/openings --html
  nardy openings --rolls all --replies --reply-games 1296
""")
@click.option("--rolls", default="all", show_default=True,
              help="Opening rolls: 'all' or a list like 65,33.")
@click.option("--replies", is_flag=True,
              help="Also find Black's best reply to each opening for all 21 rolls.")
@click.option("--reply-games", type=click.IntRange(min=1), default=1296, show_default=True,
              help="Games per candidate reply.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Roll out only the K best plays by the evaluator (replies default to 6).")
@study_options
def openings_command(rolls, replies, reply_games, top, policy, run, quiet, rules, match, fmt,
                     output, html, svg, force) -> None:
    """The opening table: every legal White play of each opening roll, rolled out and ranked."""
    dice = parse_rolls(rolls)
    check_report_flags(output, html, svg, force)
    bar = StepBar("openings", not quiet, unit="analyses")
    try:
        table = opening_table(dice, policy, run=run.with_progress(bar), rules=rules,
                              replies=replies, reply_games=reply_games, top=top, match=match)
    finally:
        bar.close()
    frame = table.frame()
    if fmt == "json":
        click.echo(to_json(table.to_dict()))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    else:
        click.echo(_("White's equity and chances (mars: home-mars or mars)"))
        click.echo(frame_text(frame[["roll", "rank", "play", "games", "equity", "equity_se", "diff",
                                     "diff_se", "win", "draw", "lose", "mars_for", "koks_for",
                                     "mars_against", "koks_against"]],
                              "table"))
        if replies:
            click.echo()
            click.echo(frame_text(table.replies_frame()[["white_roll", "white_play", "black_roll",
                                                         "black_reply",
                                                          "candidates", "black_equity",
                                                         "black_equity_se"]], "table"))
        click.echo(_("({seconds:.0f} s, {policy} rollouts, seed {seed}, {rules})").format(
            seconds=table.params['seconds'], policy=policy, seed=run.seed,
            rules=rules_label(rules)), err=True)
    missed = until_se_note(table.params, table.params["games_per_play"],
                           table.params.get("worst_se", 0.0))
    if missed:
        click.echo(missed if fmt == "table" else f"Warning: {missed}", err=fmt != "table")
    report_interrupted(table.interrupted, fmt, _("these figures"))
    finish_report(json_data("openings", table), output, html, svg, force)
    exit_if_interrupted(table.interrupted)


@click.command("batch", epilog="""\b
Examples:
  nardy batch positions/study.txt --games 5000
  nardy batch positions/openings.txt --format csv > openings.csv
  nardy batch positions/study.txt --output reports/study --html
""")
@click.argument("file", type=click.Path(dir_okay=False))
@study_options
def batch_command(file, policy, run, quiet, rules, match, fmt, output, html, svg, force) -> None:
    """Roll out every position of a positions FILE into one table."""
    positions = read_positions(file)
    if not positions:
        raise PositionsFileError(f"positions file {file!r} holds no position")
    check_report_flags(output, html, svg, force)
    bar = StepBar("batch", not quiet, unit="positions")
    try:
        results = batch_rollout(positions, policy, run=run.with_progress(bar), rules=rules,
                                match=match)
    finally:
        bar.close()
    frame = batch_frame(results)
    if fmt == "json":
        for r in results:
            click.echo(to_json(batch_record(r)))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    else:
        click.echo(_("{n} positions of {file}: {policy} (both sides), seed {seed}, {rules}").format(
            n=len(results), file=file, policy=policy, seed=run.seed, rules=rules_label(rules)))
        columns = ["name", "to_move", "games", "equity", "equity_se", "win", "lose", "draw",
                   "mean_plies", "white_lost_pips_per_game", "black_lost_pips_per_game"]
        click.echo(_("equity and chances are the side to move's (to_move) in each position"))
        if match is not None:
            columns[5:5] = ["mwc", "mwc_se"]
            click.echo(_("at {match}: mwc is the side to move's match "
                         "winning chance").format(match=match.label()))
        click.echo(frame_text(frame[columns].assign(to_move=frame["to_move"].map(translate)),
                              "table"))
    for r in results:
        missed = until_se_note(r.params, r.games, r.equity_se)
        if missed:
            click.echo(f"{r.name}: {missed}" if fmt == "table" else f"Warning: {r.name}: {missed}",
                       err=fmt != "table")
    if results.interrupted:
        report_interrupted(True, fmt, _("these figures (the first {done} of {n} positions)").format(
            done=len(results), n=len(positions)))
    finish_report(rollout_data(results, "batch",
                               comments=[p.comment for p in positions[:len(results)]],
                               interrupted=results.interrupted), output, html, svg, force)
    exit_if_interrupted(results.interrupted)


@click.command("chart", epilog="""\b
Examples:
  nardy rollout start --policy heuristic --games 2592 --output reports/demo
  nardy chart reports/demo/results.json --list
  nardy chart reports/demo/results.json --kind convergence -o conv.svg
  nardy openings --rolls 65,31 --games 1296 --policy heuristic --output reports/openings
  nardy chart reports/openings/results.json --kind opening-heatmap -o heatmap.png
""")
@click.argument("results", type=click.Path(exists=True, dir_okay=False), metavar="RESULTS.json")
@click.option("--kind", default=None, help="Which chart to draw (see --list).")
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which result of the file (batch and multi-position rollouts).")
@click.option("--list", "list_kinds", is_flag=True, help="List the chart kinds this file can draw.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), default=None,
              help="Image file (.png or .svg).")
@handle_errors
def chart_command(results, kind, index, list_kinds, out) -> None:
    """Re-draw a chart from a saved results.json without re-running anything."""
    from ..reports.figures import save_figure
    from ..reports.report import chart_kinds
    try:
        data = json.loads(Path(results).read_text(encoding="utf-8"))
        kinds = chart_kinds(data)
    except ReportKindError:
        raise ResultsError(f"{results!r} holds {data['kind']!r} results, of which nardy chart "
                           "draws no chart (it draws rollout, batch, analyze and openings "
                           "results)") from None
    except (ValueError, KeyError, TypeError):
        raise ResultsError(f"{results!r} is not a nardy results.json") from None
    if list_kinds or kind is None:
        if kind is None and not list_kinds:
            raise BadInput(f"choose --kind: {', '.join(kinds)}")
        click.echo("\n".join(kinds))
        return
    if kind not in kinds:
        raise BadInput(f"unknown chart kind {kind!r} for {data['kind']} results: "
                       f"choose one of {', '.join(kinds)}")
    if not out:
        raise BadInput("give the image file with -o FILE.png or FILE.svg")
    if Path(out).suffix.lower() not in (".png", ".svg"):
        raise BadInput(f"bad image file {out!r}: use a .png or .svg name")
    if index > len(data["results"]):
        raise BadInput(f"--index {index}: the file holds {len(data['results'])} results")
    try:
        save_figure(kinds[kind](data, index - 1), Path(out))
    except OSError as exc:
        raise WriteError(f"cannot write {out!r}: {exc.strerror}") from None
    click.echo(_("Chart written to {out}").format(out=out), err=True)
