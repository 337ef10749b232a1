"""The tables of a report as DataFrames with readable labels, and their Markdown/HTML renderings.

Numbers are formatted once, here (percent with ± 95%, equity with ± 95%), so
report.md and report.html show the same text.
"""

from __future__ import annotations

import pandas as pd

from ..core.i18n import _, side_words, translate
from .charts import OUTCOME_LABELS, side_to_move
from .render import number

OUTCOME_ROWS = ("win", "win_oin", "win_home_mars", "win_mars", "win_koks",
                "lose", "lose_oin", "lose_home_mars", "lose_mars", "lose_koks", "draw")


def pct(p: float | None, se: float | None = None) -> str:
    """`29.4%` or `29.4% ± 1.7%` (95% interval)."""
    if p is None or p != p:
        return ""
    value = 100 * p + 0.0 if abs(100 * p) >= 0.05 else 0.0  # no "-0.0%"
    return f"{value:.1f}%" if se is None else f"{value:.1f}% ± {196 * se:.1f}%"


def eq(value: float | None, se: float | None = None) -> str:
    """`+0.123` or `+0.123 ± 0.045` (95% interval)."""
    if value is None or value != value:
        return ""
    shown = number(value, "{:+.3f}")  # no "-0.000"
    return shown if se is None else f"{shown} ± {1.96 * se:.3f}"


def outcome_table(result: dict) -> pd.DataFrame:
    """Chance of each outcome for the side to move, with its 95% interval."""
    head = _("outcome for {side}").format(**side_words(side_to_move(result["position"])))
    rows = [{head: translate(OUTCOME_LABELS[k]) if k in ("win", "lose", "draw") else "  "
             + translate(OUTCOME_LABELS[k]),
             _("chance ± 95%"): pct(result["probabilities"][k], result["se"][k])}
            for k in OUTCOME_ROWS]
    return pd.DataFrame(rows)


def rollout_deficit_table(result: dict) -> pd.DataFrame:
    """Each side's move deficit in the games: per face, lost pips per game, partial turns,
    passes."""
    w, b = result["deficit"]["white"], result["deficit"]["black"]
    rows = [{"move deficit": _("face {face} not played").format(face=f + 1),
             "White": pct(w["face_deficit"][f]), "Black": pct(b["face_deficit"][f])}
            for f in range(6)]
    rows.append({"move deficit": _("lost pips per game"), "White": f"{w['lost_pips_per_game']:.2f}",
                 "Black": f"{b['lost_pips_per_game']:.2f}"})
    rows.append({"move deficit": _("partial turns"), "White": pct(w["partial_turn_share"]),
                 "Black": pct(b["partial_turn_share"])})
    rows.append({"move deficit": _("passes"), "White": pct(w["pass_share"]),
                 "Black": pct(b["pass_share"])})
    return pd.DataFrame(rows).rename(columns={"move deficit": _("move deficit"),
                                              "White": _("White"), "Black": _("Black")})


def static_deficit_table(deficit: dict) -> pd.DataFrame:
    """The side to move's static deficit per face (over the 36 rolls) and mobility."""
    return pd.DataFrame([{_("die face"): f + 1,
                          _("steps not playable"): pct(deficit["face_deficit"][f]),
                          _("checkers that can move it (mobility)"): deficit["mobility"][f]}
                         for f in range(6)])


def ranking_table(ranking: dict) -> pd.DataFrame:
    """Every rolled-out play: equity ± 95%, difference to the best ± 95%, win and lose chances."""
    rows = []
    for p in ranking["plays"]:
        rows.append({_("rank"): p["rank"], _("play"): p["play"], _("games"): f"{p['games']:,}",
                     _("equity ± 95%"): eq(p["equity"], p["equity_se"]),
                     _("difference to best ± 95%"): _("best") if p["rank"] == 1
                     else eq(p["diff"], p["diff_se"]), _("win"): pct(p["probabilities"]["win"]),
                     _("lose"): pct(p["probabilities"]["lose"]),
                     _("dropped after"): _("{games:,} games").format(games=p['dropped_after'])
                     if p.get("dropped_after") else ""})
    return pd.DataFrame(rows)


def opening_rows_table(table: dict) -> pd.DataFrame:
    """Every White play of each opening roll, ranked within the roll."""
    return pd.DataFrame([{_("roll"): r["roll"], _("rank"): r["rank"], _("play"): r["play"],
                          _("games"): f"{r['games']:,}",
                          _("White's equity ± 95%"): eq(r["equity"], r["equity_se"]),
                          _("difference to best ± 95%"): _("best") if r["rank"] == 1
                          else eq(r["diff"], r["diff_se"]), _("win"): pct(r["win"]),
                          _("draw"): pct(r.get("draw")), _("lose"): pct(r["lose"]),
                          _("mars or home-mars for"): pct(r["win_home_mars"] + r["win_mars"]),
                          _("koks for"): pct(r["win_koks"]),
                          _("mars or home-mars against"): pct(r["lose_home_mars"] + r["lose_mars"]),
                          _("koks against"): pct(r["lose_koks"])} for r in table["rows"]])


def replies_table(table: dict) -> pd.DataFrame:
    """Black's best reply to each opening for each roll."""
    return pd.DataFrame([{_("White's opening"): f"{r['white_roll']} {r['white_play']}",
                          _("Black's roll"): r["black_roll"],
                          _("Black's best reply"): r["black_reply"],
                          _("plays compared"): r["candidates"],
                          _("Black's equity ± 95%"): eq(r["black_equity"], r["black_equity_se"])}
                         for r in table["replies"]])


def batch_summary_table(results: list[dict]) -> pd.DataFrame:
    """One row per position of a batch: side to move, games, equity ± 95%, win/lose/draw."""
    return pd.DataFrame([{_("position"): r.get("name") or r["position"],
                          _("to move"): translate(side_to_move(r["position"])),
                          _("games"): f"{r['games']:,}",
                          _("equity (side to move) ± 95%"): eq(r["equity"], r["equity_se"]),
                          _("win"): pct(r["probabilities"]["win"]),
                          _("lose"): pct(r["probabilities"]["lose"]),
                          _("draw"): pct(r["probabilities"]["draw"]),
                          _("mars or koks against"): pct(r["probabilities"]["lose_mars"]
                                                      + r["probabilities"]["lose_home_mars"]
                                                      + r["probabilities"]["lose_koks"])}
                         for r in results])


def to_markdown(frame: pd.DataFrame) -> str:
    """A GitHub-style Markdown table (pandas + tabulate); text left, numbers right.  A `|` in a
    cell or a header is escaped (`\\|`): unescaped, it split the cell in two and shifted the
    row's columns (the guide's second-turn grids)."""
    align = [_align(frame[c]) for c in frame.columns]
    escaped = frame.rename(columns=lambda c: _escape(c) if isinstance(c, str) else c).map(
        lambda v: _escape(v) if isinstance(v, str) else v)
    return escaped.to_markdown(index=False, disable_numparse=True, colalign=align)


def _escape(text: str) -> str:
    """A Markdown table cell's text: `|` escaped, a line break a space (either ends the cell)."""
    return text.replace("|", "\\|").replace("\n", " ")


def to_html(frame: pd.DataFrame, uid: str) -> str:
    """An HTML table (pandas Styler) with text columns left-aligned; `uid` keeps the output
    reproducible."""
    styler = frame.style.hide(axis="index").set_uuid(uid)
    left = {c: [{"selector": "td", "props": "text-align: left"},
                {"selector": "th", "props": "text-align: left"}]
            for c in frame.columns if _align(frame[c]) == "left"}
    if left:
        styler = styler.set_table_styles(left, overwrite=False)
    return styler.to_html(doctype_html=False)


def _align(column: pd.Series) -> str:
    sample = [str(v) for v in column if str(v) and str(v) != _("best")]
    numeric = all(
        s.lstrip("+-").replace(",", "").replace(".", "", 1).replace("%", "").split(" ")[0].isdigit()
        for s in sample) if sample else False
    return "right" if numeric else "left"
