"""`nardy policies`, `nardy eval` and `nardy duel`: bots, their estimates and their strength."""

from __future__ import annotations

import click
import pandas as pd

from ..analysis.deficit import static_deficit
from ..core.errors import NardyError
from ..core.i18n import _, side_words, translate
from ..core.outcomes import CLASS_KEYS, CLASS_NAMES
from ..core.position import BLACK, WHITE
from ..games.duel import duel, duel_figures
from ..match.state import match_valuation
from ..policies import known_policies
from ..policies.estimate import neural_estimate
from ..reports.render import frame_text, to_json
from .common import (POSITION, BadInput, block_validation_option, exit_if_interrupted, flatten,
                     format_option, handle_errors, report_interrupted, rules_options)
from .cube_options import cube_options, cube_text
from .cube_play import duel_cube_line, duel_cube_options, match_cube_line
from .match_options import match_options
from .progress import Progress, StepBar
from .run_options import run_options


@click.command("policies", epilog="""\b
Examples:
  nardy policies
  nardy policies --format json
""")
@format_option
@handle_errors
def policies_command(fmt) -> None:
    """List the policies (bots) a rollout or duel can use, with a one-line description each."""
    frame = pd.DataFrame([{"name": k, "description": v} for k, v in known_policies().items()])
    if fmt == "table":
        width = max(len(n) for n in frame["name"])
        for name, desc in zip(frame["name"], frame["description"]):
            click.echo(f"{name:<{width}}  {desc}")
    else:
        click.echo(frame_text(frame, fmt))


@click.command("eval", epilog="""\b
Examples:
  nardy eval "W:1x14,12 B:1x15 b"
  nardy eval "W:1x14,12 B:1x15 b 6-5"        # the best 6-5 play's chances (0-ply)
  nardy eval positions/study.txt --format csv
  nardy eval start --rules extended
  nardy eval "W:20x2,23 B:21,24x2 w" --match 7 --score 6-5      # match winning chance at 6-5 to 7
  nardy eval "W:1x14,12 B:1x15 b" --cube-owner centre            # the roller's cube decision
  nardy eval "W:19x2,20 B:22,24 w" --cube-owner white --cube 2   # exact: cubeful bear-off table
  nardy eval start --cube-owner centre --match 7 --score 5-6 --crawford
  nardy eval "W:1x13,8,12 B:1x13,6,11 w 4-2" --evaluator lookahead2:neural   # two plies too
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--evaluator", default=None, metavar="NAME",
              help="Also value the position with this evaluator: lookahead:neural (1-ply), "
                   "lookahead2:neural (2-ply, docs/strength.md), ...; with dice, the best of the "
                   "roll's 5 best plays at 0-ply.")
@rules_options
@match_options
@cube_options
@format_option
@handle_errors
def eval_command(positions, evaluator, rules, match, cube, fmt, no_block_validation) -> None:
    """Static (0-ply) estimate of the outcome chances of POSITION,
    with pip counts and static deficit.

    With --cube-owner, also the cube decision of the side on roll (docs/cube.md).
    """
    rows = []
    valuation = match_valuation(match, rules) if match is not None else None
    if evaluator is not None:
        from ..policies.judges import get_evaluator
        try:
            get_evaluator(evaluator)
        except NardyError as exc:
            raise BadInput(f"--evaluator: {exc}") from None
    for n, item in enumerate(flatten(positions)):
        pos = item.position
        est = neural_estimate(pos, rules, valuation=valuation)
        searched = None
        if evaluator is not None:
            from ..policies.searched import searched_value
            searched = searched_value(pos, evaluator, rules, valuation)
        decision = None
        # the cube is turned before the roll: a position's dice are not rolled yet
        if cube is not None:
            from ..match.cube_decision import cube_decision
            before = est if pos.dice is None else neural_estimate(pos.with_dice(None), rules)
            decision = cube_decision(pos.with_dice(None), cube, rules, match,
                                     probabilities=before.probabilities)
        equity = est.equity
        deficit = static_deficit(pos.with_dice(None), rules)
        record = {"position": str(pos), "model": est.policy, "method": est.method or est.policy,
                  "rules": rules.to_dict(), "probabilities": est.probabilities, "equity": equity,
                  "pips": {"white": pos.pip_count(WHITE), "black": pos.pip_count(BLACK)},
                  "deficit": {"p_full": deficit.p_full, "p_partial": deficit.p_partial,
                              "p_pass": deficit.p_pass,
                              "expected_lost_pips": deficit.expected_lost_pips,
                              "face_deficit": list(deficit.face_deficit)}}
        if match is not None:
            record["match"] = match.to_dict()
            record["mwc"] = est.mwc
        if decision is not None:
            record["cube"] = {"state": cube.to_dict(), **decision.to_dict()}
        if searched is not None:
            record["search"] = searched.to_dict()
        if item.name:
            record = {"name": item.name, **record}
        if fmt == "json":
            click.echo(to_json(record))
            continue
        row = {"name": item.name or "", "position": str(pos), **est.probabilities, "equity": equity,
               "white_pips": pos.pip_count(WHITE), "black_pips": pos.pip_count(BLACK),
               "p_pass": deficit.p_pass, "expected_lost_pips": deficit.expected_lost_pips}
        if match is not None:
            row["mwc"] = est.mwc
        if searched is not None:
            row |= {"search_evaluator": searched.evaluator, "search_equity": searched.equity,
                    "search_play": searched.play or ""}
        if decision is not None:
            row |= {f"cube_{k}": decision.to_dict()[k]
                    for k in ("decision", "no_double", "double_take",
                               "double_pass", "take_point",
                              "exact")}
        rows.append(row)
        if fmt == "table":
            if n:
                click.echo()
            click.echo(_estimate_text(item.name, pos, est, equity, deficit, rules, match))
            if searched is not None:
                click.echo(_searched_text(searched, pos))
            if decision is not None:
                click.echo(cube_text(pos, cube, decision))
    if fmt == "csv":
        click.echo(frame_text(pd.DataFrame(rows), "csv"))


def _match_duel(a, b, position, matches, run, quiet, rules, match, fmt, cube=None) -> None:
    """`nardy duel A B --match N [--cube]`: whole matches from 0-0, each pair on the same dice."""
    from ..games.match_play import MatchSettings, match_duel
    from ..core.position import START
    if position != START:
        raise BadInput("--match plays whole matches from the start of each game: drop --position")
    if match.score != (0, 0):
        raise BadInput("--match plays whole matches from 0-0: drop --score")
    settings = MatchSettings(match.length, rules, run.seed, match.next_white, match.draw_points)
    bar = StepBar(f"{a} vs {b} (matches)", not quiet, unit="matches")
    try:
        where = dict(**run.executors, progress=bar)
        if cube is None:
            result = match_duel(a, b, matches, settings, **where)
        else:
            from ..games.match_cube_play import cube_match_duel
            result = cube_match_duel(a, b, matches, settings, cube, **where)
    finally:
        bar.close()
    what = _("these figures ({done:,} of {asked:,} pairs of matches)").format(done=result.matches,
                                                                              asked=matches)
    if fmt in ("json", "csv"):
        row = {k: v for k, v in result.to_dict().items() if k not in ("params", "ci95")}
        row["ci95_low"], row["ci95_high"] = result.ci95
        click.echo(to_json(result.to_dict()) if fmt == "json"
                   else frame_text(pd.DataFrame([row]), "csv"))
        report_interrupted(result.interrupted, fmt, what)
        exit_if_interrupted(result.interrupted)
        return
    from ..core.rules import rules_label
    lo, hi = result.ci95
    click.echo(_("{a} vs {b}: {matches:,} pairs of matches to {length} with duplicate dice (each "
                 "policy first player "
                 "once), seed {seed}, {rules}, next White: {next_white}").format(
        a=result.a, b=result.b, matches=result.matches, length=match.length, seed=run.seed,
        rules=rules_label(rules),
        next_white=match.next_white))
    click.echo(_("match wins for {a}: {share:.2%}  95% CI [{lo:.2%}, "
                 "{hi:.2%}]  SE {se:.2%}").format(
        a=result.a, share=result.match_win_share, lo=lo, hi=hi, se=result.se))
    click.echo(_("{games:,} games, {mean:.1f} per match").format(games=result.games,
                                                                 mean=result.mean_games))
    if cube is not None:
        click.echo(match_cube_line(result))
    report_interrupted(result.interrupted, fmt, what)
    exit_if_interrupted(result.interrupted)


def _searched_text(searched, pos) -> str:
    """The line of `eval --evaluator`: the evaluator's value for the side to move (and its best
    play)."""
    words = side_words(pos.turn)
    if searched.play is None:
        return _("{evaluator}: equity {equity:+.3f} for {side}, about to roll").format(
            evaluator=searched.evaluator, equity=searched.equity, **words)
    return _("{evaluator}: equity {equity:+.3f} for {side}, best play {play}").format(
        evaluator=searched.evaluator, equity=searched.equity, play=searched.play, **words)


def _estimate_text(name, pos, est, equity, deficit, rules, match=None) -> str:
    """The table form of one estimate."""
    from ..core.rules import rules_label
    words = side_words(pos.turn)
    p = est.probabilities
    lines = [f"{name + ': ' if name else ''}{pos}   " + _("{side} to move").format(**words),
             _("{method}, {rules}, chances for {side}:").format(method=translate(est.method),
                                                                rules=rules_label(rules),
                                                                 **words)]
    width = max(len(_("win")), len(_("lose")), len(_("draw"))) + 2
    for outcome in ("win", "lose"):
        parts = ", ".join(f"{translate(name)} {p[f'{outcome}_{key}']:.3f}" for key,
                          name in zip(CLASS_KEYS, CLASS_NAMES))
        lines.append(f"  {translate(outcome):<{width}}{p[outcome]:.3f}  ({parts})")
    lines.append(f"  {_('draw'):<{width}}{p['draw']:.3f}")
    lines.append(_("equity {equity:+.3f}   pips White {white}, Black {black}").format(
        equity=equity, white=pos.pip_count(WHITE), black=pos.pip_count(BLACK)))
    if match is not None:
        lines.append(_("match winning chance for {side}: {mwc:.1%} ({match}; {how})").format(
            mwc=est.mwc, match=match.label(),
            how=_("the bear-off database, exact") if "exact" in est.method
            else _("the network and the table"), **words))
    lines.append(_("static deficit: full {full:.3f}, partial {partial:.3f}, pass {passes:.3f}, "
                   "expected lost pips "
                   "{lost:.2f}").format(full=deficit.p_full, partial=deficit.p_partial,
                                        passes=deficit.p_pass, lost=deficit.expected_lost_pips))
    return "\n".join(lines)


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
@click.option("--matches", type=click.IntRange(min=1), default=200, show_default=True,
              help="With --match: duplicate pairs of whole matches to play.")
@run_options
@rules_options
@match_options
@format_option
@duel_cube_options
@handle_errors
def duel_command(a, b, position, matches, run, quiet, rules, match, fmt, cube) -> None:
    """Play policy A against policy B with duplicate dice; report A's points per game ± 95% CI."""
    if run.until_se is not None:
        raise BadInput("--until-se is not supported by duel; use --games")
    if len(position) != 1:
        raise BadInput("--position must name exactly one position")
    if match is not None:
        _match_duel(a, b, position[0].position, matches, run, quiet, rules, match, fmt, cube)
        return
    bar = Progress(run.games, f"{a} vs {b}: ", enabled=not quiet)

    def progress(tally):
        if bar.enabled:
            fig = duel_figures(tally.joint, rules)
            bar.update(fig["games"], fig["points_per_game"], fig["se"], what="points/game")

    try:
        result = duel(a, b, run=run.with_progress(progress), rules=rules,
                      position=position[0].position, cube=cube)
    finally:
        bar.close()
    if fmt == "json":
        click.echo(to_json(result.to_dict()))
    elif fmt == "csv":
        click.echo(frame_text(result.frame(), "csv"))
    else:
        lo, hi = result.ci95
        from ..core.rules import rules_label
        from ..core.position import START
        start = position[0]
        where = _("the start position") if start.position == START else f"'{start.position}'"
        where += f" ({start.name})" if start.name else ""
        click.echo(_("{a} vs {b}: {games:,} games from {where} with duplicate dice, "
                     "seed {seed}, {rules}").format(
            a=result.a, b=result.b, games=result.games, where=where, seed=run.seed,
            rules=rules_label(rules)))
        click.echo(_("points per game for {a}: {ppg:+.4f}  95% CI [{lo:+.4f}, "
                     "{hi:+.4f}]  SE {se:.4f}").format(
            a=result.a, ppg=result.points_per_game, lo=lo, hi=hi, se=result.se))
        click.echo(_("wins {wins:.2%}   draws {draws:.2%}").format(wins=result.win_share,
                                                                   draws=result.draw_share))
        click.echo(_("mars for {mf:.2%} / against {ma:.2%}   koks for {kf:.2%} / "
                     "against {ka:.2%}").format(
            mf=result.mars_share_for, ma=result.mars_share_against, kf=result.koks_share_for,
            ka=result.koks_share_against))
        if result.cube is not None:
            click.echo(duel_cube_line(result))
    report_interrupted(result.interrupted, fmt,
                       _("these figures ({done:,} of {asked:,} games)").format(
        done=result.games, asked=run.games))
    exit_if_interrupted(result.interrupted)
