"""`--exact-bearoff`, `--truncate`, `--vr`, `--luck-network`: how rollout games are scored
(docs/rollouts.md)."""

from __future__ import annotations

import click

from ..core.i18n import _


def scoring_options(func):
    """Add the four options; the command receives them as `exact_bearoff`, `truncate`, `vr`,
    `luck_network`."""
    for opt in reversed([
        click.option("--exact-bearoff/--no-exact-bearoff", default=None,
                     help="Stop each game once both sides are all home and add the "
                          "bear-off databases' "
                          "probabilities (built-in bots also bear off by them) [default: on, "
                          "except for the random policy]."),
        click.option("--truncate", type=click.IntRange(min=0), default=None, metavar="PLIES",
                     help="Stop each game after PLIES plies and score it by the evaluator "
                          "(biased by the evaluator's error; off by default)."),
        click.option("--vr/--no-vr", default=None,
                     help="Variance reduction: subtract each roll's luck as the evaluator sees it "
                          "[default: on for lookahead:heuristic and lookahead:neural]."),
        click.option("--luck-network", type=click.Path(dir_okay=False), default=None,
                     metavar="FILE",
                     help="Value VR's luck by this network file instead of the policy's "
                          "evaluator (e.g. one "
                          "trained by `nardy train --player` on games like this position's); "
                          "turns VR on."),
    ]):
        func = opt(func)
    return func


def scoring_from(exact_bearoff: bool | None, truncate: int | None, vr: bool | None,
                 luck_network: str | None):
    """The library's `Scoring` for the options."""
    from ..games.scoring import Scoring
    luck = None
    if luck_network is not None:
        from ..policies.network import load_network
        luck = load_network(luck_network)
    return Scoring(exact_bearoff=exact_bearoff, truncate=truncate, vr=vr, luck_network=luck)


# VR's CPU time over plain games' with a lookahead policy is at least 1.10 on the study positions
# (`race`; more elsewhere, docs/rollouts.md): a variance cut smaller than this did not pay.
VR_LEAST_COST = 1.05


def scoring_note(result) -> str | None:
    """One line under a rollout table: which scoring was used and both standard errors."""
    p = result.params
    if "plain" not in p:
        return None
    parts = []
    if p.get("vr"):
        parts.append(_("variance reduction: equity SE {se:.4f} (plain {plain_se:.4f}, "
                       "plain equity {plain:+.4f})").format(
            se=result.equity_se, plain_se=p['plain']['equity_se'], plain=p['plain']['equity']))
        if p.get("luck_network"):
            parts.append(_("luck valued by the --luck-network ({hidden} hidden units, "
                           "weights {sha})").format(
                hidden=p['luck_network']['hidden'], sha=p['luck_network']['sha256']))
        if (p["plain"]["equity_se"] / max(result.equity_se, 1e-300)) ** 2 < VR_LEAST_COST:
            parts.append(_("VR did not pay here (the evaluator misreads this position's luck): "
                           "--no-vr is faster"))
    if p.get("exact_bearoff"):
        parts.append(_("{n} games ended in the bear-off databases").format(n=p.get('scored_games',
                                                                                   0)))
    if p.get("truncate") is not None:
        parts.append(_("truncated at {plies} plies").format(plies=p['truncate']))
    return "; ".join(parts) or None
