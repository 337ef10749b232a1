"""A match review as a report folder: review.json, review.csv, summary.csv, match.txt, each game's
equity chart and the boards of its marked decisions, report.md; with `html`, the printable,
self-contained report.html and the interactive review.html.  All or nothing.

The page a coach reads: the players' totals over the match, the running score
(every game, its result and the score after it), the cube actions and errors,
then game by game its totals, its equity chart, every decision a mark flagged
with the board before it, the played and the best result, and every decision.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd

from ..core import i18n
from ..review.match_review import MatchReview
from .glossary import glossary_markdown
from .render import to_json
from .review_report import (FIGURE_DPI, _end, _html, _localised, _mark, _md_table, _save,
                            _shown_summary, cube_shown, decision_figure, equity_chart)
from .summary import params_frame

DECISION_COLUMNS = ["turn", "player", "dice", "played", "best", "plays", "equity_played",
                    "equity_best", "lost", "mark", "luck"]
CUBE_ACTIONS = ["game", "turn", "player", "cube", "action", "best", "taker", "error"]


def score_text(points) -> str:
    """`2-1`, `3.5-2`: two players' points."""
    return "-".join(f"{p:g}" for p in points)


def match_standing(match) -> str:
    """How a match record stands, in the language in use: `final score 5-0, won by Anna`, or
    `unfinished at 2-1` when the record ends before a player reached the length."""
    final = score_text(match.final_score)
    if match.winner:
        return i18n._("final score {final}, won by {winner}").format(final=final,
                                                                     winner=match.winner)
    if match.is_over:
        return i18n._("final score {final}").format(final=final)
    return i18n._("unfinished at {final}").format(final=final)


def running_score(match) -> pd.DataFrame:
    """One row per game: its players by colour, the score before it and after it (in the match's
    players' order), its result and whether it was the Crawford game."""
    standings = match.standings()
    crawford = match.crawford_games()
    rows = []
    for k, record in enumerate(match.games):
        before, after = standings[k], standings[k + 1]
        rows.append({"game": k + 1, "white": record.white, "black": record.black,
                     "score_before": score_text(before),
                     "result": _end(record, i18n._("not finished")),
                     "points": score_text(a - b for a, b in zip(after, before)),
                     "score_after": score_text(after),
                     "crawford": i18n._("yes") if crawford[k] else ""})
    return pd.DataFrame(rows)


def _decisions(frame: pd.DataFrame, match: bool) -> pd.DataFrame:
    """Every decision of a game as the page lists it: a forced play's losses read `forced`, marks
    in the language in use."""
    cols = DECISION_COLUMNS + (["mwc_lost"] if match and "mwc_lost" in frame else [])
    shown = frame[cols].astype(object)
    forced = frame["forced"].to_numpy(dtype=bool)
    word = i18n._("forced")
    for col in ("lost", "mwc_lost"):
        if col in shown:
            shown.loc[forced, col] = word
    shown["mark"] = [i18n.translate(v) if isinstance(v, str) and v else "" for v in shown["mark"]]
    return shown


def _cube_actions(cube: pd.DataFrame | None) -> pd.DataFrame | None:
    """The cube actions taken (doubles, takes, passes) and the cube errors; None when there are
    none."""
    if cube is None:
        return None
    rows = cube[(cube["action"] != "no double") | (cube["error"] != "")]
    if rows.empty:
        return None
    return cube_shown(rows[[c for c in CUBE_ACTIONS if c in rows]])


def game_heading(k: int, review, score) -> str:
    """The heading of game k's section: its score before, its players and its result."""
    r = review.record
    return i18n._("Game {k} at {w:g}-{b:g} (White-Black): {white} (White) vs {black} (Black), "
                  "{result}").format(k=k, w=score[0], b=score[1], white=r.white, black=r.black,
                                     result=_end(r, i18n._("not finished")))


def match_markdown(review: MatchReview, boards: dict[int, list[str]]) -> str:
    """report.md of a match review; `boards[k]` are the board files of game k's marked
    decisions, in the order of `GameReview.decisions()`'s marked rows."""
    m = review.match
    summary = review.summary()
    cube = review.cube_frame()
    lines = [i18n._("# Match review: {a} vs {b}, match to {length}").format(
                 a=m.players[0], b=m.players[1], length=m.length), "",
             i18n._("{games} games, {standing}; evaluator `{evaluator}`. Every decision is judged "
                    "at its game's score: equity lost is normalised (a single game won +1, lost "
                    "-1) and `mwc_lost` is the cubeless match winning chance lost.").format(
                 games=len(m.games), standing=match_standing(m),
                 evaluator=review.params['evaluator']), "",
             "## " + i18n._("Totals"), "", _md_table(_localised(summary)), "",
             "## " + i18n._("Running score"), "",
             i18n._("Scores in the players' order ({a}-{b}).").format(a=m.players[0],
                                                                       b=m.players[1]), "",
             _md_table(_localised(running_score(m))), ""]
    actions = _cube_actions(cube)
    if cube is not None:
        lines += ["## " + i18n._("Cube actions"), "",
                  i18n._("Every double, take and pass of the match, and every cube error "
                         "(each game's cube decisions in full are in cube.csv)."), "",
                  _md_table(_localised(actions)) if actions is not None
                  else i18n._("No cube action and no cube error."), ""]
    for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
        lines += ["## " + game_heading(k, g, score), "",
                  *[i18n._("> **Note.** {note}").format(note=note) + "\n" for note in g.notes()],
                  _md_table(_localised(_shown_summary(g.summary()))), "",
                  f"![{i18n._('equity chart')}](game-{k}-equity.png)", ""]
        game_actions = _cube_actions(g.cube)
        if game_actions is not None:
            lines += ["### " + i18n._("Cube actions"), "",
                      _md_table(_localised(game_actions.drop(columns="game", errors="ignore"))),
                      ""]
        marked = _marked(g)
        lines += ["### " + i18n._("Marked decisions: {n}").format(n=len(marked)), ""]
        for (_, row), file in zip(marked.iterrows(), boards.get(k, [])):
            mwc = (i18n._("; match winning chance lost {mwc:.2%}").format(mwc=row["mwc_lost"])
                   if "mwc_lost" in row else "")
            lines += [f"#### {row['turn']} {row['player']} ({i18n.translate(row['side'])}) "
                      f"{row['dice']}: {_mark(row['mark'])}", "",
                      i18n._("Played `{played}` ({equity_played:+.3f}); best `{best}` "
                             "({equity_best:+.3f}); equity lost {lost:.3f}").format(
                          played=row['played'], equity_played=row['equity_played'],
                          best=row['best'], equity_best=row['equity_best'], lost=row['lost'])
                      + mwc + ".", "",
                      i18n._("Position:") + f" `{row['position']}`", "",
                      f"![{i18n._('decision')}]({file})", ""]
        lines += ["### " + i18n._("Every decision"), "",
                  _md_table(_decisions(g.frame, bool(m.length))), ""]
    lines += ["## " + i18n._("Run parameters"), "",
              _md_table(params_frame(review.params, i18n._("match review"))), "",
              i18n._("The exact parameters are in `params.json`."), "", glossary_markdown(), ""]
    return "\n".join(lines)


def save_compact(fig, path: Path, colours: int = 64) -> None:
    """Save a figure as a PNG of at most `colours` colours: a board figure then takes about a
    quarter of the bytes (80 KB instead of 290 KB) and looks the same, so a match's page of
    dozens of boards stays a few megabytes."""
    from PIL import Image
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=FIGURE_DPI)
    buffer.seek(0)
    with Image.open(buffer) as image:
        image.convert("RGB").quantize(colors=colours).save(path, format="PNG", optimize=True)


def _marked(review) -> pd.DataFrame:
    """A game's decisions a mark flagged (doubtful, error, blunder), in the order played."""
    d = review.decisions()
    return d[d["mark"].isin(("doubtful", "error", "blunder"))]


def write_match_review(review: MatchReview, output: str | Path, *, html: bool = False) -> Path:
    """Write a match review's folder: review.json, review.csv (every ply, with its game and score),
    summary.csv (the players' totals), cube.csv in a cube match, match.txt, each game's equity
    chart and the boards of its marked decisions, report.md; with `html`, report.html (the whole
    match on one printable, self-contained page) and review.html (every game, a game selector,
    match-chance losses).  All or nothing."""
    from ..records.match_record import format_match
    from .folder import write_folder

    def render(folder: Path) -> None:
        (folder / "review.json").write_text(to_json(review.to_dict()) + "\n")
        review.frame().to_csv(folder / "review.csv", index=False)
        review.summary().to_csv(folder / "summary.csv", index=False)
        cube = review.cube_frame()
        if cube is not None:
            cube.to_csv(folder / "cube.csv", index=False)
        (folder / "match.txt").write_text(format_match(review.match))
        boards: dict[int, list[str]] = {}
        for k, g in enumerate(review.games, 1):
            _save(equity_chart(g), folder / f"game-{k}-equity.png")
            for j, (_, row) in enumerate(_marked(g).iterrows(), 1):
                name = f"game-{k}-decision-{j}.png"
                save_compact(decision_figure(row), folder / name)
                boards.setdefault(k, []).append(name)
        md = match_markdown(review, boards)
        (folder / "report.md").write_text(md)
        (folder / "params.json").write_text(json.dumps(review.params, indent=1) + "\n")
        if html:
            breaks = frozenset(game_heading(k, g, score) for k, (g, score)
                               in enumerate(zip(review.games, review.match.scores()), 1))
            (folder / "report.html").write_text(_html(folder, md, i18n._("Match review"), breaks,
                                                      keep=4))
            _write_page(review, folder / "review.html")

    return write_folder(output, render, interrupted=review.interrupted)


def _write_page(review: MatchReview, path: Path) -> None:
    """The interactive page of every game of the match (`review_page`)."""
    from .review_page import game_data, page_data, review_units, write_page
    m = review.match
    games = []
    units = None
    for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
        units, columns = review_units(g)
        games.append(game_data(g, title=i18n._("Game {k}: {white} (White) vs {black} "
                                               "(Black)").format(k=k, white=g.record.white,
                                                                 black=g.record.black),
                               score=i18n._("score before the game {w:g}-{b:g} (White-Black), "
                                            "match to {length}").format(w=score[0], b=score[1],
                                                                        length=m.length),
                               columns=columns))
    write_page(page_data(games, title=i18n._("{a} vs {b}, match to {length}").format(
        a=m.players[0], b=m.players[1], length=m.length), units=units), path)
