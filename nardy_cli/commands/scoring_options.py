"""`--exact-bearoff`, `--truncate`, `--vr`: how rollout games are scored (see docs/rollouts.md)."""

from __future__ import annotations

import click


def scoring_options(func):
    """Add the three options; the command receives them as `exact_bearoff`, `truncate`, `vr`."""
    for opt in reversed([
        click.option("--exact-bearoff/--no-exact-bearoff", default=None,
                     help="Stop each game once both sides are all home and add the bear-off databases' "
                          "probabilities (built-in bots also bear off by them) [default: on, except for the "
                          "random policy]."),
        click.option("--truncate", type=click.IntRange(min=0), default=None, metavar="PLIES",
                     help="Stop each game after PLIES plies and score it by the evaluator (biased by the "
                          "evaluator's error; off by default)."),
        click.option("--vr/--no-vr", default=None,
                     help="Variance reduction: subtract each roll's luck as the evaluator sees it "
                          "[default: on for lookahead:heuristic and lookahead:neural]."),
    ]):
        func = opt(func)
    return func


def scoring_from(exact_bearoff: bool | None, truncate: int | None, vr: bool | None):
    """The library's `Scoring` for the options."""
    from ..scoring import Scoring
    return Scoring(exact_bearoff=exact_bearoff, truncate=truncate, vr=vr)


# VR's CPU time over plain games' with a lookahead policy is at least 1.10 on the study positions (`race`;
# more elsewhere, docs/rollouts.md): a variance cut smaller than this did not pay.
VR_LEAST_COST = 1.05


def scoring_note(result) -> str | None:
    """One line under a rollout table: which scoring was used and both standard errors."""
    p = result.params
    if "plain" not in p:
        return None
    parts = []
    if p.get("vr"):
        parts.append(f"variance reduction: equity SE {result.equity_se:.4f} (plain {p['plain']['equity_se']:.4f}, "
                     f"plain equity {p['plain']['equity']:+.4f})")
        if (p["plain"]["equity_se"] / max(result.equity_se, 1e-300)) ** 2 < VR_LEAST_COST:
            parts.append("VR did not pay here (the evaluator misreads this position's luck): --no-vr is faster")
    if p.get("exact_bearoff"):
        parts.append(f"{p.get('scored_games', 0)} games ended in the bear-off databases")
    if p.get("truncate") is not None:
        parts.append(f"truncated at {p['truncate']} plies")
    return "; ".join(parts) or None
