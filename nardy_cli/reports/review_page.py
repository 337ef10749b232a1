"""The interactive review page: one self-contained HTML file to step through a reviewed game or
match.

`game_data` turns a `GameReview` into one game of the page: its title and score
line, every position, and for every ply the roll, the steps played, the loss, the
best play (its steps and result) and the value graphed.  `page_data` collects games
(one for a game, several for a match) under one title and one unit, so a match
review with match winning chances plugs in by passing `MWC` and its own columns.
`page_html` renders the page from reports/templates (the data as one JSON blob, the
script, style and boards inline: no network access); `write_page` writes it.  In a
cube game each ply also carries the cube decision before its roll (`cube`), and the
game the turn a drop ended (`end_cube`).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Sequence

from ..core import i18n
from ..core.engine import legal_plays
from ..core.errors import ArgumentError
from ..records.game_record import GameRecord, format_moves
from ..review.game_review import MARKS, GameReview

TEMPLATES = Path(__file__).parent / "templates"
VERSION = 1

# What the page calls the value it graphs and the loss it lists; `percent` shows them as
# percentages.
EQUITY = {"name": i18n.N_("equity"), "loss": i18n.N_("equity lost"),
          "cube_loss": i18n.N_("equity lost"),
          "graph": i18n.N_("equity for White after the play"), "value": i18n.N_("equity"),
          "centre": 0.0, "percent": False}
# the plays are judged cubeless, the cube decisions cubeful
MWC = {"name": i18n.N_("cubeless match winning chance"),
       "loss": i18n.N_("cubeless match winning chance lost"),
       "cube_loss": i18n.N_("cubeful match winning chance lost"),
       "graph": i18n.N_("White's cubeless match winning chance after the play"),
       "value": i18n.N_("cubeless match winning chance"),
       # marks are set by normalised equity lost
       "centre": 0.5, "percent": True, "marks": i18n.N_("norm. equity")}
# The review frame's columns the page reads: the mover's loss, value of the play and of the best
# play, the graphed value (White's), and the text of the best play with its resulting position.
EQUITY_COLUMNS = {"loss": "lost", "value": "equity_played", "best_value": "equity_best",
                  "graph": "equity_white", "best": "best", "best_result": "best_result"}
MWC_COLUMNS = {"loss": "mwc_lost", "value": "mwc_played", "best_value": "mwc_best",
               "graph": "mwc_white", "best": "best", "best_result": "best_result"}


def end_text(record, unfinished: str) -> str:
    """How a game ended, in the language in use: its result, the drop that ended it, else
    `unfinished`."""
    if record.result is None and record.dropped is not None:
        return i18n._("{side} dropped the double to {value}").format(value=record.dropped.value,
                                                                      **i18n.side_words(
                                                                          record.dropped.side))
    return i18n.result_text(record.result) if record.result else unfinished


def review_units(review: GameReview) -> tuple[dict, dict[str, str]]:
    """(units, columns) of a review: match winning chance for a review at a match score, else
    equity."""
    return (MWC, MWC_COLUMNS) if "match" in review.params else (EQUITY, EQUITY_COLUMNS)


def _num(value: Any, digits: int = 4) -> float | None:
    """A float rounded for the page, None for a missing value (NaN)."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else round(value, digits)


def _board(position) -> list[list[int]]:
    """Both sides' 24 counts, each in its own numbering: [white, black]."""
    return [list(position.white), list(position.black)]


def _best_play(record: GameRecord, index: int, best_result: str):
    """The legal play of ply `index` whose result is `best_result` (its steps draw the best play's
    arrows)."""
    ply = record.plies[index]
    for play in legal_plays(ply.position, ply.dice, record.rules):
        if str(play.result) == best_result:
            return play
    raise ArgumentError(f"ply {index + 1}: no legal play of {ply.dice} leads to {best_result!r}")


def game_data(review: GameReview, *, title: str | None = None, score: str | None = None,
              columns: dict[str, str] = EQUITY_COLUMNS) -> dict:
    """One game of the page: title, score line, positions and every ply, read from `review.frame`'s
    `columns`."""
    record = review.record
    rows = {int(r["ply"]): r for r in review.frame.to_dict(orient="records")}
    cube_rows = _cube_rows(review, columns is MWC_COLUMNS or columns.get("loss") == "mwc_lost")
    positions = record.positions()
    plies = []
    for i, ply in enumerate(record.plies):
        row = rows.get(i + 1)
        entry = {"n": i + 1, "label": ply.label, "side": ply.side,
                 "player": record.white if ply.side == "w" else record.black,
                 "dice": [ply.dice.high, ply.dice.low], "played": format_moves(ply.play),
                 "steps": [list(s) for s in ply.play.steps], "comment": ply.comment,
                 "reviewed": row is not None}
        if row is not None:
            forced = bool(row["forced"])
            entry.update({"forced": forced, "mark": row["mark"], "plays": int(row["plays"]),
                          "loss": None if forced else _num(row[columns["loss"]]),
                          "value": _num(row[columns["value"]]),
                          "graph": _num(row[columns["graph"]]), "level": row["level"],
                          "luck": _num(row["luck"])})
            if not forced:
                best_result = row[columns["best_result"]]
                best = (ply.play if best_result == str(ply.play.result)
                        else _best_play(record, i, best_result))
                entry.update({"best": row[columns["best"]],
                              "best_value": _num(row[columns["best_value"]]),
                              "best_steps": [list(s) for s in best.steps],
                              "best_board": None if best is ply.play else _board(best.result)})
        if i + 1 in cube_rows:
            entry["cube"] = cube_rows[i + 1]
        plies.append(entry)
    r = record
    extra = {}
    if review.cube is not None:
        extra["end_cube"] = cube_rows.get(len(record.plies) + 1)
    return {**extra,
            "title": title or i18n._("{white} (White) vs {black} (Black)").format(white=r.white,
                                                                               black=r.black),
            "score": score if score is not None else (i18n.result_text(r.result) if r.result
                                                      else i18n._("game not finished")),
            "white": r.white, "black": r.black, "rules": r.rules.preset,
            "evaluator": review.params.get("evaluator"),
            "thresholds": {"doubtful": review.thresholds.doubtful, "error": review.thresholds.error,
                           "blunder": review.thresholds.blunder},
            "turns": [p.turn for p in positions], "boards": [_board(p) for p in positions],
            "plies": plies, "summary": _summary(record, plies)}


def _cube_rows(review: GameReview, mwc: bool) -> dict[int, dict]:
    """The cube decision before each ply's roll, by ply number (one past the last: the turn a drop
    ended)."""
    if review.cube is None:
        return {}
    out = {}
    for row in review.cube.to_dict(orient="records"):
        lost = ("mwc_double_lost", "mwc_take_lost") if mwc else ("double_lost", "take_lost")
        out[int(row["ply"])] = {"cube": i18n.cube_words(row["cube"]),
                                "action": i18n.translate(row["action"]),
                                "best": i18n.translate(row["best"]),
                                "error": i18n.cube_errors(row["error"]), "player": row["player"],
                                "taker": row["taker"], "double_lost": _num(row[lost[0]]),
                                "take_lost": _num(row[lost[1]]),
                                "doubled": row["action"] != "no double"}
    return out


def _summary(record: GameRecord, plies: list[dict]) -> list[dict]:
    """Per player: decisions, total and mean loss, doubtful/errors/blunders."""
    out = []
    for side, player in (("w", record.white), ("b", record.black)):
        scored = [p for p in plies if p["side"] == side and p["reviewed"] and not p["forced"]]
        if not any(p["side"] == side and p["reviewed"] for p in plies):
            continue
        losses = [p["loss"] for p in scored if p["loss"] is not None]
        out.append({"side": side, "player": player, "decisions": len(scored),
                    "loss": _num(sum(losses)),
                    "mean": _num(sum(losses) / len(losses)) if losses else None,
                    **{m: sum(p["mark"] == m for p in scored) for m in MARKS}})
    return out


def page_data(games: Sequence[GameReview | dict], *, title: str | None = None,
              units: dict = EQUITY) -> dict:
    """The page's data: a title, the units of the loss and graph, and a list of games (reviews or
    `game_data`)."""
    games = [g if isinstance(g, dict) else game_data(g) for g in games]
    if not games:
        raise ArgumentError("a review page needs at least one game")
    data = {"version": VERSION,
            "title": title or (i18n._("Game review: {title}").format(title=games[0]["title"])
                               if len(games) == 1 else
                               i18n._("Match review: {n} "
                                      "games").format(n=len(games))),
            "units": dict(units), "games": games}
    text = page_text(units)
    if text:
        data["text"] = text
    return data


# The script's messages: `_("...")` calls with a literal first argument (tests/test_i18n.py finds
# them the same way).
SCRIPT_MESSAGE = re.compile(r'_\("((?:[^"\\]|\\.)*)"[,)]')


def page_text(units: dict) -> dict[str, str]:
    """The script's words in the language in use (msgid -> text), for `_()` in review_page.js; empty
    in English."""
    if i18n.language() == i18n.SOURCE:
        return {}
    script = (TEMPLATES / "review_page.js").read_text(encoding="utf-8")
    msgids = [json.loads(f'"{m}"') for m in SCRIPT_MESSAGE.findall(script)]
    msgids += [v for v in units.values() if isinstance(v, str)] + list(MARKS)
    return {m: i18n.translate(m) for m in dict.fromkeys(msgids) if i18n.translate(m) != m}


def _blob(data: dict) -> str:
    """The data as JSON that cannot end its <script> element early."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(data: dict) -> str:
    """The self-contained page: the template with its style, script and the data inlined."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.globals["_"] = i18n._
    template = env.get_template("review_page.html.j2")
    return template.render(title=data["title"], data=_blob(data),
                           style=(TEMPLATES / "review_page.css").read_text(encoding="utf-8"),
                           script=(TEMPLATES / "review_page.js").read_text(encoding="utf-8"))


def write_page(data: dict, path: str | Path) -> Path:
    """Write the page for `data` to `path`."""
    path = Path(path)
    path.write_text(page_html(data), encoding="utf-8")
    return path


__all__ = ["EQUITY", "MWC", "EQUITY_COLUMNS", "MWC_COLUMNS", "game_data", "page_data", "page_html",
           "review_units", "write_page"]
