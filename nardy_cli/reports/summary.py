"""What a report says first and last: a one-line plain-language summary, and the run parameters as a
table.

The summary reads like a sentence ("White wins 62.0% (mars or koks 9.1%), loses 30.2% ...");
the parameters table names each setting in words; the exact parameters stay in results.json.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.i18n import N_, _, side_words, translate
from .figures import policy_text, side_to_move
from .tables import eq, pct

_BIG_WINS = ("home_mars", "mars", "koks")


def _chances(probs: dict, side: str) -> str:
    """`White wins 62.0% (mars or koks 9.1%), loses 30.2% (mars or koks 4.0%), draws 7.8%`."""
    big = {k: sum(probs[f"{k}_{c}"] for c in _BIG_WINS) for k in ("win", "lose")}
    text = _("{side} wins {win} (mars or koks {big_win}), loses {lose} (mars or "
             "koks {big_lose})").format(
        win=pct(probs['win']), big_win=pct(big['win']), lose=pct(probs['lose']),
        big_lose=pct(big['lose']), **side_words(side))
    return text + (_(", draws {draw}").format(draw=pct(probs['draw'])) if probs.get("draw") else "")


def rollout_headline(results: list[dict], names: list[str | None]) -> str:
    """One rollout: its chances and equity; several: the range of the side to move's equity."""
    if len(results) == 1:
        r = results[0]
        side = side_to_move(r["position"])
        return _("{chances}; {sides} equity {equity} (95%) in {games:,} games.").format(
            chances=_chances(r['probabilities'], side), equity=eq(r['equity'], r['equity_se']),
            games=r['games'], **side_words(side))
    ranked = sorted(zip(results, names), key=lambda rn: rn[0]["equity"])
    (lo, lo_name), (hi, hi_name) = ranked[0], ranked[-1]
    return _("{n} positions; the side to move's equity runs from {low} ({low_name}, "
             "{low_side}) to {high} ({high_name}, {high_side}).").format(
        n=len(results), low=eq(lo['equity']), low_name=lo_name or lo['position'],
        low_side=_("{side} to move").format(**side_words(side_to_move(lo['position']))),
        high=eq(hi['equity']), high_name=hi_name or hi['position'],
        high_side=_("{side} to move").format(**side_words(side_to_move(hi['position']))))


def analyze_headline(ranking: dict) -> str:
    """The best play, its equity, and how far the next play is behind."""
    side, plays = side_to_move(ranking["position"]), ranking["plays"]
    best = plays[0]
    text = _("Best play for {side} with {dice}: {play}, {sides} equity {equity} (95%)").format(
        dice=ranking['dice'], play=best['play'], equity=eq(best['equity'], best['equity_se']),
        **side_words(side))
    if len(plays) == 1:
        return text + _("; it was the only play rolled out.")
    second = plays[1]
    return text + _("; the next best, {play}, is {behind:.3f} behind (± {ci:.3f} "
                    "(95%), paired).").format(
        play=second['play'], behind=-second['diff'], ci=1.96 * second['diff_se'])


def openings_headline(table: dict) -> str:
    """The best and the worst opening roll, by White's equity after its best play."""
    best = {}
    for row in table["rows"]:
        if row["rank"] == 1:
            best[row["roll"]] = row
    ranked = sorted(best.values(), key=lambda r: -r["equity"])
    top, low = ranked[0], ranked[-1]
    text = _("Best opening roll for White: {roll} played {play}, equity {equity}").format(
        roll=top['roll'], play=top['play'], equity=eq(top['equity'], top['equity_se']))
    if len(ranked) == 1:
        return text + " (95%)."
    return text + _(" (95%); worst: {roll} played {play}, {equity}.").format(
        roll=low['roll'], play=low['play'], equity=eq(low['equity'], low['equity_se']))


def review_headline(summary: list[dict]) -> str:
    """Per player: equity lost over its decisions, blunders, and the luck it had."""
    parts = [_("{player} ({side}) lost {lost:.3f} points in {decisions} ({blunders}, "
               "luck {luck:+.3f})").format(
        player=row['player'], side=translate(row['side'].capitalize()), lost=row['equity_lost'],
        decisions=_count(row['decisions'], N_('decision'), N_('decisions')),
        blunders=_count(row['blunders'], N_('blunder'), N_('blunders')), luck=row['luck'])
             for row in summary]
    return "; ".join(parts) + "."


def _count(n: int, one: str, many: str) -> str:
    """`1 blunder`, `2 blunders` (in Russian `решений: 2`, without plural forms)."""
    return _("{n} {word}").format(n=n, word=translate(one if n == 1 else many),
                                  words=translate(many))


_LABELS = {     # shown through translate()
    "kind": N_("report"), "policies": N_("policies"), "evaluator": N_("evaluator"),
    "luck_evaluator": N_("luck valued by"), "games_requested": N_("games (at most)"),
    "games_per_play": N_("games per play"), "reply_games": N_("games per reply"),
    "until_se": N_("stop once the SE is at most"), "until_se_met": N_("SE target reached"),
    "worst_se": N_("largest SE at the end"), "seed": N_("dice seed"),
    "stratify": N_("first rolls stratified"), "rules": N_("rules"),
    "exact_bearoff": N_("exact bear-offs (databases)"),
    "bearoff_policy": N_("bear-off play by the databases"),
    "truncate": N_("games truncated after (plies)"), "vr": N_("variance reduction (VR)"),
    "luck_network": N_("luck valued by the network"), "plain": N_("without VR"),
    "scored_games": N_("games scored early"), "top": N_("plays rolled out (--top)"),
    "filters": N_("stage filters"), "rolls": N_("opening rolls"), "replies": N_("Black's replies"),
    "seconds": N_("time (s)"), "width": N_("lookahead width"), "sides": N_("sides reviewed"),
    "thresholds": N_("marks (equity lost)"), "rollout_games": N_("rollout games per candidate"),
    "rollout_policy": N_("rollout policy"), "self_reviewed": N_("sides played by the evaluator"),
    "interrupted": N_("interrupted"), "version": N_("nardy version"),
    "network": N_("network weights (sha256)"),
    # a match review's
    "cube": N_("cube"), "crawford": N_("Crawford game"), "length": N_("match length"),
    "next_white": N_("next game's White"), "draw_points": N_("points of a draw each"),
}


def _value(key: str, value: Any) -> str:
    from ..core.rules import rules_label
    if key == "rules" and isinstance(value, dict):
        return rules_label(value)
    if key == "policies":
        return policy_text(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}" if key != "seed" else str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(translate(str(v)) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{translate(_LABELS.get(k, k.replace('_', ' ')))} {_value(k, v)}"
                         for k, v in value.items())
    return str(value)


def params_frame(params: dict, kind: str | None = None) -> pd.DataFrame:
    """The run parameters as a two-column table (setting in words, value), in the order of
    `params`."""
    rows = [{"setting": _("report"), "value": kind}] if kind else []
    rows += [{"setting": translate(_LABELS[k]) if k in _LABELS else k.replace("_", " "),
              "value": _value(k, v)}
             for k, v in params.items()]
    return pd.DataFrame(rows, columns=["setting", "value"]).rename(columns={"setting": _("setting"),
                                                                            "value": _("value")})
