"""What a report says first and last: a one-line plain-language summary, and the run parameters as a table.

The summary reads like a sentence ("White wins 62.0% (mars or koks 9.1%), loses 30.2% ...");
the parameters table names each setting in words; the exact parameters stay in results.json.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from .figures import policy_text, side_to_move
from .report_tables import eq, pct

_BIG_WINS = ("home_mars", "mars", "koks")


def _chances(probs: dict, side: str) -> str:
    """`White wins 62.0% (mars or koks 9.1%), loses 30.2% (mars or koks 4.0%), draws 7.8%`."""
    big = {k: sum(probs[f"{k}_{c}"] for c in _BIG_WINS) for k in ("win", "lose")}
    text = (f"{side} wins {pct(probs['win'])} (mars or koks {pct(big['win'])}), "
            f"loses {pct(probs['lose'])} (mars or koks {pct(big['lose'])})")
    return text + (f", draws {pct(probs['draw'])}" if probs.get("draw") else "")


def rollout_headline(results: list[dict], names: list[str | None]) -> str:
    """One rollout: its chances and equity; several: the range of the side to move's equity."""
    if len(results) == 1:
        r = results[0]
        side = side_to_move(r["position"])
        return (f"{_chances(r['probabilities'], side)}; {side}'s equity {eq(r['equity'], r['equity_se'])} (95%) "
                f"in {r['games']:,} games.")
    ranked = sorted(zip(results, names), key=lambda rn: rn[0]["equity"])
    (lo, lo_name), (hi, hi_name) = ranked[0], ranked[-1]
    return (f"{len(results)} positions; the side to move's equity runs from {eq(lo['equity'])} "
            f"({lo_name or lo['position']}, {side_to_move(lo['position'])} to move) to {eq(hi['equity'])} "
            f"({hi_name or hi['position']}, {side_to_move(hi['position'])} to move).")


def analyze_headline(ranking: dict) -> str:
    """The best play, its equity, and how far the next play is behind."""
    side, plays = side_to_move(ranking["position"]), ranking["plays"]
    best = plays[0]
    text = (f"Best play for {side} with {ranking['dice']}: {best['play']}, {side}'s equity "
            f"{eq(best['equity'], best['equity_se'])} (95%)")
    if len(plays) == 1:
        return text + "; it was the only play rolled out."
    second = plays[1]
    return text + (f"; the next best, {second['play']}, is {-second['diff']:.3f} behind "
                   f"(± {1.96 * second['diff_se']:.3f} (95%), paired).")


def openings_headline(table: dict) -> str:
    """The best and the worst opening roll, by White's equity after its best play."""
    best = {}
    for row in table["rows"]:
        if row["rank"] == 1:
            best[row["roll"]] = row
    ranked = sorted(best.values(), key=lambda r: -r["equity"])
    top, low = ranked[0], ranked[-1]
    text = (f"Best opening roll for White: {top['roll']} played {top['play']}, equity "
            f"{eq(top['equity'], top['equity_se'])}")
    if len(ranked) == 1:
        return text + " (95%)."
    return text + f" (95%); worst: {low['roll']} played {low['play']}, {eq(low['equity'], low['equity_se'])}."


def review_headline(summary: list[dict]) -> str:
    """Per player: equity lost over its decisions, blunders, and the luck it had."""
    parts = [f"{row['player']} ({row['side'].capitalize()}) lost {row['equity_lost']:.3f} points in "
             f"{_count(row['decisions'], 'decision')} ({_count(row['blunders'], 'blunder')}, luck "
             f"{row['luck']:+.3f})" for row in summary]
    return "; ".join(parts) + "."


def _count(n: int, word: str) -> str:
    """`1 blunder`, `2 blunders`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


_LABELS = {
    "kind": "report", "policies": "policies", "evaluator": "evaluator", "luck_evaluator": "luck valued by",
    "games_requested": "games (at most)", "games_per_play": "games per play", "reply_games": "games per reply",
    "until_se": "stop once the SE is at most", "until_se_met": "SE target reached",
    "worst_se": "largest SE at the end", "seed": "dice seed",
    "stratify": "first rolls stratified", "rules": "rules", "exact_bearoff": "exact bear-offs (databases)",
    "bearoff_policy": "bear-off play by the databases", "truncate": "games truncated after (plies)",
    "vr": "variance reduction (VR)", "luck_network": "luck valued by the network", "plain": "without VR",
    "scored_games": "games scored early", "top": "plays rolled out (--top)", "filters": "stage filters",
    "rolls": "opening rolls", "replies": "Black's replies", "seconds": "time (s)", "width": "lookahead width",
    "sides": "sides reviewed", "thresholds": "marks (equity lost)", "rollout_games": "rollout games per candidate",
    "rollout_policy": "rollout policy", "self_reviewed": "sides played by the evaluator", "interrupted": "interrupted",
    "version": "nardy version",
}


def _value(key: str, value: Any) -> str:
    from ..rules import rules_label
    if key == "rules" and isinstance(value, dict):
        return rules_label(value)
    if key == "policies":
        return policy_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}" if key != "seed" else str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_value(k, v)}" for k, v in value.items())
    return str(value)


def params_frame(params: dict, kind: str | None = None) -> pd.DataFrame:
    """The run parameters as a two-column table (setting in words, value), in the order of `params`."""
    rows = [{"setting": "report", "value": kind}] if kind else []
    rows += [{"setting": _LABELS.get(k, k.replace("_", " ")), "value": _value(k, v)} for k, v in params.items()]
    return pd.DataFrame(rows, columns=["setting", "value"])
