"""`nardy eval`: a position's 0-ply chances, pip counts and static deficit, or a searching
evaluator's value."""

from __future__ import annotations

import click

from ..analysis.deficit import static_deficit
from ..core.errors import NardyError
from ..core.i18n import _, side_words, translate
from ..core.outcomes import CLASS_KEYS, CLASS_NAMES
from ..core.position import BLACK, SIDE_NAMES, WHITE
from ..policies.estimate import neural_estimate
from ..reports.render import Views
from .common import (POSITION, BadInput, Shown, block_validation_option, flatten, format_option,
                     handle_errors, rules_options)
from .cube_options import cube_options, cube_text
from .match_options import match_options


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
  nardy eval "W:20x2,22 B:20,23 w" --match 7 --score 4-5 --cube-owner centre   # exact at 4-5
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
def eval_command(positions, evaluator, rules, stakes, fmt, no_block_validation) -> None:
    """Static (0-ply) estimate of the outcome chances of POSITION,
    with pip counts and static deficit.

    With --cube-owner, also the cube decision of the side on roll (docs/cube.md).
    """
    shown = Shown(fmt)
    match = stakes.match
    valuation = stakes.valuation(rules) if match is not None else None
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
        if stakes.cube is not None:
            from ..match.cube_decision import cube_decision
            before = est if pos.dice is None else neural_estimate(pos.with_dice(None), rules)
            decision = cube_decision(pos.with_dice(None), stakes, rules,
                                     probabilities=before.probabilities)
        deficit = static_deficit(pos.with_dice(None), rules)
        parts = (item, est, deficit, searched, decision)
        shown.add(Views(table=lambda: ("\n" if n else "")
                        + _eval_text(*parts, rules, match, stakes),
                        data=lambda: _eval_data(*parts, rules, match, stakes),
                        rows=lambda: [_eval_row(*parts, match)]))
    shown.close()


def _eval_data(item, est, deficit, searched, decision, rules, match, stakes) -> dict:
    """One position's estimate as JSON data."""
    pos = item.position
    record = {"position": str(pos), "side": SIDE_NAMES[pos.turn].lower(), "model": est.policy,
              "method": est.method or est.policy,
              "rules": rules.to_dict(), "probabilities": est.probabilities, "equity": est.equity,
              "pips": {"white": pos.pip_count(WHITE), "black": pos.pip_count(BLACK)},
              "deficit": {"p_full": deficit.p_full, "p_partial": deficit.p_partial,
                          "p_pass": deficit.p_pass,
                          "expected_lost_pips": deficit.expected_lost_pips,
                          "face_deficit": list(deficit.face_deficit)}}
    if match is not None:
        record["match"] = match.to_dict()
        record["mwc"] = est.mwc
    if decision is not None:
        record["cube"] = {"state": stakes.cube_dict(), **decision.to_dict()}
    if searched is not None:
        record["search"] = searched.to_dict()
    return {"name": item.name, **record} if item.name else record


def _eval_row(item, est, deficit, searched, decision, match) -> dict:
    """One position's estimate as a CSV row."""
    pos = item.position
    row = {"name": item.name or "", "position": str(pos), **est.probabilities,
           "equity": est.equity, "white_pips": pos.pip_count(WHITE),
           "black_pips": pos.pip_count(BLACK), "p_pass": deficit.p_pass,
           "expected_lost_pips": deficit.expected_lost_pips}
    if match is not None:
        row["mwc"] = est.mwc
    if searched is not None:
        row |= {"search_evaluator": searched.evaluator, "search_equity": searched.equity,
                "search_play": searched.play or ""}
    if decision is not None:
        row |= {f"cube_{k}": decision.to_dict()[k]
                for k in ("decision", "no_double", "double_take", "double_pass", "take_point",
                          "exact")}
    return row


def _eval_text(item, est, deficit, searched, decision, rules, match, stakes) -> str:
    """One position's estimate for people: the chances, the search's value, the cube decision."""
    lines = [_estimate_text(item.name, item.position, est, est.equity, deficit, rules, match)]
    if searched is not None:
        lines.append(_searched_text(searched, item.position))
    if decision is not None:
        lines.append(cube_text(item.position, stakes, decision))
    return "\n".join(lines)


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
        lines.append(_("cubeless match winning chance for {side}: {mwc:.1%} ({match}; "
                       "{how})").format(
            mwc=est.mwc, match=match.label(),
            how=_("the bear-off database, exact") if "exact" in est.method
            else _("the one-sided bear-off database and the table")
            if est.method.startswith("bear-off") else _("the network and the table"), **words))
    lines.append(_("static deficit: full {full:.3f}, partial {partial:.3f}, pass {passes:.3f}, "
                   "expected lost pips "
                   "{lost:.2f}").format(full=deficit.p_full, partial=deficit.p_partial,
                                        passes=deficit.p_pass, lost=deficit.expected_lost_pips))
    return "\n".join(lines)
