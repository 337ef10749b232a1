"""A game review as a report folder: review.json, review.csv, the equity chart, boards of the worst
decisions, report.md (and report.html), all or nothing; the pieces a match review's folder
(`match_report`) reuses."""

from __future__ import annotations

import base64
import html as html_lib
import json
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..core import i18n
from ..core.errors import NardyError
from ..core.position import Position, parse_checkers, parse_position
from ..records.game_record import format_game
from ..review.game_review import GameReview
from .folder import write_folder
from .glossary import glossary_markdown
from .render import to_json
from .summary import params_frame, review_headline

MARK_STYLE = {"doubtful": ("#f9a825", "o", 7), "error": ("#ef6c00", "s", 8),
              "blunder": ("#c62828", "X", 11)}


def _end(record, unfinished: str) -> str:
    """The result of a game, how a drop ended it, or `unfinished`, in the language in use."""
    from .review_page import end_text
    return end_text(record, unfinished)


def equity_chart(review: GameReview) -> Figure:
    """White's equity after every reviewed ply, with doubtful plays, errors and blunders marked."""
    f = review.frame
    fig = Figure(figsize=(9.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(f["ply"], f["equity_white"], color="#1565c0", linewidth=1.4, marker=".", markersize=3,
            label=i18n._("equity for White after the play"))
    ax.axhline(0, color="#444444", linewidth=0.8)
    for mark, (colour, marker, size) in MARK_STYLE.items():
        m = f[f["mark"] == mark]
        if len(m):
            ax.scatter(m["ply"], m["equity_white"], color=colour, marker=marker, s=size ** 2,
                       zorder=3, label=f"{i18n.translate(mark)} ({len(m)})", edgecolors="black",
                       linewidths=0.5)
    for _, row in review.worst(3).iterrows():
        ax.annotate(f"{row['turn']} {row['dice']}", (row["ply"], row["equity_white"]),
                    textcoords="offset points", xytext=(0, 11), ha="center", fontsize=8, zorder=4,
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                          "alpha": 0.85})
    r = review.record
    ax.set_xlabel(i18n._("ply (White's and Black's turns counted separately)"))
    ax.set_ylabel(i18n._("equity for White (points per game)"))
    ax.set_title(i18n._("{white} (White) vs {black} (Black): "
                        "{result}\nevaluator {evaluator}").format(
        white=r.white, black=r.black, result=_end(r, i18n._("game not finished")),
        evaluator=review.params['evaluator']), fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    return fig


def _result(result) -> str:
    """A record's result (`White wins by mars`) in the language in use; 'game not finished' for
    None."""
    return i18n.result_text(result) if result else i18n._("game not finished")


def _pixels(fig: Figure, dpi: float = 60) -> np.ndarray:
    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())


def _position(text: str) -> Position:
    """A position from the review's text, including a drawn game's end (`W:- B:- w`), which input
    refuses."""
    try:
        return parse_position(text, check_blocks=False)
    except NardyError:
        white, black, turn = text.split()[:3]
        return Position.unchecked(parse_checkers(white[2:], "w"), parse_checkers(black[2:], "b"),
                                  turn)


BOARD_DPI = 60      # a decision figure's boards (`draw_board`'s 7.4 x 7.0 inches: 444 x 420 pixels)
FIGURE_DPI = 100    # the dpi figures are saved at (`_save`, `match_report.save_compact`)
TITLE_PX = 48       # the decision figure's title band


def decision_figure(row) -> Figure:
    """The board before a decision, the played result and the best result, side by side."""
    from .board_figure import draw_board
    before = _position(row["position"])
    mover = before.turn
    panels = [
        (before, f"{row['turn']} " + i18n._("{side} to play {dice}").format(dice=row['dice'],
                                                                             **i18n.side_words(
                                                                                 row['side']))),
        (_position(row["played_result"]), i18n._("played {play}  ({equity:+.3f})").format(
            play=row['played'], equity=row['equity_played'])),
        (_position(row["best_result"]), i18n._("best {play}  ({equity:+.3f})").format(
            play=row['best'], equity=row['equity_best'])),
    ]
    # the boards side by side, pixel for pixel (`figimage`: nothing resampled, and the figure draws
    # no axes), under a band for the title; the figure is saved at its own dpi (`_save`)
    strip = np.concatenate([_pixels(draw_board(pos, numbering=mover, title=title), BOARD_DPI)
                            for pos, title in panels], axis=1)
    height, width = strip.shape[:2]
    fig = Figure(figsize=(width / FIGURE_DPI, (height + TITLE_PX) / FIGURE_DPI), dpi=FIGURE_DPI)
    fig.figimage(strip, xo=0, yo=0, origin="upper")
    fig.suptitle(i18n._("{mark}: equity lost {lost:.3f} ({level}), "
                        "boards in {sides} numbering").format(
        mark=_mark(row['mark']), lost=row['lost'], level=row['level'],
        **i18n.side_words(row['side'])), fontsize=13, y=1 - TITLE_PX / 2 / (height + TITLE_PX),
        va="center")
    return fig


def _mark(mark) -> str:
    """A decision's mark in the language in use ('inaccuracy' when it has none)."""
    return i18n.translate(mark) if mark else i18n._("inaccuracy")


def _save(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=FIGURE_DPI, metadata={"Software": None})


def _md_table(frame, digits: int = 3) -> str:
    def cell(v) -> str:
        if isinstance(v, float):
            return "" if v != v else f"{v:.{digits}f}"
        return str(v).replace("|", "\\|")
    head = "| " + " | ".join(i18n.column(str(c)) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    return "\n".join([head, rule, *("| " + " | ".join(cell(v) for v in row) + " |"
                                    for row in frame.itertuples(index=False))])


def report_markdown(review: GameReview, top: int, boards: list[str]) -> str:
    """report.md: summary per player, the chart, the worst decisions with their boards, every
    decision."""
    r = review.record
    p = review.params
    t = review.thresholds
    lines = [i18n._("# Game review: {white} (White) vs {black} (Black)").format(white=r.white,
                                                                                black=r.black), "",
             f"**{review_headline(review.summary().to_dict(orient='records'))}**", "",
             i18n._("Result: **{result}** after {plies} plies; {preset} rules; "
                    "date {date}.").format(
                 result=_end(r, i18n._("game not finished")), plies=len(r.plies),
                 preset=r.rules.preset, date=r.date), "",
             i18n._("Evaluator: `{evaluator}` (luck at 0-ply with `{luck}`").format(
                 evaluator=p['evaluator'], luck=p['luck_evaluator'])
             + (i18n._("; flagged decisions rolled out, {games} games per candidate "
                       "with `{policy}`").format(
                 games=p['rollout_games'], policy=p['rollout_policy']) if p.get("rollout_games")
                else "") + "). "
             + i18n._("Marks: doubtful from {doubtful}, error from {error}, "
                      "blunder from {blunder} points of equity "
                   "lost; forced plays are listed, not scored.").format(
                 doubtful=t.doubtful, error=t.error, blunder=t.blunder), "",
             *[i18n._("> **Note.** {note}").format(note=note) + "\n" for note in review.notes()],
             "## " + i18n._("Summary"), "", _md_table(_shown_summary(review.summary())), "",
             i18n._("Luck: the best result's value for the roll rolled minus its mean over the 21 "
                    "rolls, summed."), "",
             *cube_markdown(review.cube, "match" in p),
             "## " + i18n._("Equity over the game"), "",
             i18n._("White's equity after every play, each judged from the side that just "
                    "moved; a static "
                 "evaluator's bias for or against the side on roll shows as a zig-zag between "
                 "White's and Black's plies."), "", "![equity chart](equity.png)", ""]
    worst = review.worst(top)
    lines += [i18n._("## The costliest decision") if len(worst) == 1
              else i18n._("## The {n} costliest decisions").format(n=len(worst)), ""]
    for (_, row), file in zip(worst.iterrows(), boards):
        lines += [f"### {row['turn']} {row['player']} ({i18n.translate(row['side'])}) "
                  f"{row['dice']}: {_mark(row['mark'])}",
                  "",
                  i18n._("Played `{played}` ({equity_played:+.3f}); "
                         "best `{best}` ({equity_best:+.3f}); equity lost "
                      "{lost:.3f} ({level}).").format(
                  played=row['played'], equity_played=row['equity_played'], best=row['best'],
                  equity_best=row['equity_best'], lost=row['lost'], level=row['level']), "",
                  i18n._("Position:") + f" `{row['position']}`", "", f"![decision]({file})", ""]
    cols = ["turn", "player", "dice", "played", "best", "plays", "equity_played", "equity_best",
            "lost", "mark", "luck"]
    shown = review.frame[cols]
    if i18n.language() != i18n.SOURCE:
        shown = shown.assign(mark=shown["mark"].map(lambda v: i18n.translate(v)
                                                    if isinstance(v, str) else v))
    lines += ["## " + i18n._("Every decision"), "", _md_table(shown), ""]
    lines += ["## " + i18n._("Run parameters"), "",
              _md_table(params_frame(p, i18n._("game review"))), "",
              i18n._("The exact parameters are in `params.json`."), "", glossary_markdown(), ""]
    return "\n".join(lines)


CUBE_MD_COLUMNS = ["turn", "player", "cube", "action", "best", "no_double", "double_take",
                   "double_pass", "double_lost", "taker", "take_lost", "error", "judged"]


def judged(cube):
    """Which values judged each cube decision: `exact` (a cubeful bear-off: money, or a match score
    up to 5 checkers a side) or `model` (the network through the cube model), in the language in
    use."""
    return cube["exact"].map(lambda e: i18n._("exact") if e else i18n._("model"))


def cube_markdown(cube, match: bool, game: bool = False) -> list[str]:
    """The report's section on the cube decisions of a cube game (nothing for a cubeless one)."""
    if cube is None:
        return []
    units = (i18n._("cubeful match winning chances; losses in normalised equity") if match
             else i18n._("equity per cube unit; losses in points (per unit times the cube)"))
    cols = (["game"] if game else []) + CUBE_MD_COLUMNS
    errors = int((cube["error"] != "").sum())
    return ["## " + i18n._("Cube decisions"), "",
            i18n._("The roller's cube decision before every roll it could double at ({units}): "
                   "a missed or wrong "
                   "double, and the taker's wrong take or pass, with what each lost; "
                   "turns with an error: "
                   "{errors}. Judged (column judged) exactly in the cubeful bear-offs (money, "
                   "and at a match score up to 5 checkers a side), elsewhere by the network "
                   "through the cube model (docs/cube.md).").format(units=units, errors=errors),
            "",
            _md_table(_localised(cube_shown(cube.assign(judged=judged(cube))[cols]))), ""]


def cube_shown(cube):
    """Cube review rows as a report shows them: the cube, actions and errors in the language in
    use (the CSV keeps them in English)."""
    shown = cube.copy()
    for col in ("action", "best"):
        if col in shown:
            shown[col] = shown[col].map(i18n.translate)
    if "cube" in shown:
        shown["cube"] = shown["cube"].map(i18n.cube_words)
    if "error" in shown:
        shown["error"] = shown["error"].map(i18n.cube_errors)
    return shown


def _shown_summary(summary):
    """The players' totals as a report shows them (sides in the language in use)."""
    if i18n.language() == i18n.SOURCE or "side" not in summary:
        return summary
    return summary.assign(side=summary["side"].map(i18n.translate))


def _html(folder: Path, md: str, title: str | None = None, breaks: frozenset[str] = frozenset(),
          keep: int = 3) -> str:
    """report.md as one self-contained HTML page (images inlined), printable: never a page break
    inside a board or a table row, one before each heading whose text is in `breaks`, and none
    inside the section a heading of level `keep` opens (a decision: its heading, text and board)."""
    body = []
    table: list[str] = []
    kept = False

    def flush() -> None:
        if table:
            rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in table
                    if not line.startswith("|---")]
            head = "".join(f"<th>{html_lib.escape(c)}</th>" for c in rows[0])
            cells = "".join("<tr>"
                            + "".join(f"<td>{html_lib.escape(c.replace(chr(92) + '|', '|'))}</td>"
                                      for c in r)
                            + "</tr>" for r in rows[1:])
            body.append(f"<table><tr>{head}</tr>{cells}</table>")
            table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("!["):
            alt, file = line[2:].split("](")
            raw = (folder / file.rstrip(")")).read_bytes()
            body.append(f'<img alt="{html_lib.escape(alt)}" src="data:image/png;base64,'
                        f'{base64.b64encode(raw).decode()}">')
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            text = line[level:].strip()
            page = ' class="page"' if text in breaks else ""
            if kept:
                body.append("</section>")
            kept = level == keep
            if kept:
                body.append('<section class="keep">')
            body.append(f"<h{level}{page}>{html_lib.escape(text)}</h{level}>")
        elif line:
            quote = line.startswith("> ")
            text = html_lib.escape(line[2:] if quote else line)
            for mark, tag in (("**", "b"), ("`", "code")):
                parts = text.split(mark)
                text = "".join(p if i % 2 == 0 else f"<{tag}>{p}</{tag}>" for i,
                               p in enumerate(parts))
            body.append(f"<blockquote><p>{text}</p></blockquote>" if quote else f"<p>{text}</p>")
    flush()
    if kept:
        body.append("</section>")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid "
             "#ccc;padding:2px 6px}img{max-width:100%}"
             "blockquote{margin:1em 0;padding:0 1em;border-left:3px solid #bbb;color:#333}"
             "@media print{body{max-width:none;margin:0}.page{break-before:page}"
             "img,tr,.keep{break-inside:avoid}h2,h3,h4{break-after:avoid}"
             "table{font-size:10px}}")
    title = title if title is not None else i18n._("Game review")
    return (f'<!DOCTYPE html><html lang="{i18n._("en")}"><head><meta '
            f'charset="utf-8"><title>{html_lib.escape(title)}</title>'
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")


def write_review(review: GameReview, output: str | Path, *, top: int = 5,
                 html: bool = False) -> Path:
    """Write the review folder into `output`, replacing an older one; all or nothing.  The review of
    an interrupted run goes to `output`-interrupted, so it never replaces a complete one."""

    def render(folder: Path) -> None:
        (folder / "review.json").write_text(to_json(review.to_dict()) + "\n")
        review.frame.to_csv(folder / "review.csv", index=False)
        if review.cube is not None:
            review.cube.to_csv(folder / "cube.csv", index=False)
        (folder / "game.txt").write_text(format_game(review.record))
        _save(equity_chart(review), folder / "equity.png")
        boards = []
        for k, (_, row) in enumerate(review.worst(top).iterrows(), 1):
            name = f"decision-{k}.png"
            _save(decision_figure(row), folder / name)
            boards.append(name)
        md = report_markdown(review, top, boards)
        if review.params.get("interrupted"):
            title, rest = md.split("\n", 1)
            md = (f"{title}\n\n"
                  + i18n._("> **Warning.** This review was **interrupted** during its "
                           "rollouts: the "
                        "decisions not reached keep their first evaluation "
                        "(level column).")
                  + "\n" + rest)
        (folder / "report.md").write_text(md)
        if html:
            from .review_page import game_data, page_data, review_units, write_page
            (folder / "report.html").write_text(_html(folder, md))
            units, columns = review_units(review)
            write_page(page_data([game_data(review, columns=columns)], units=units),
                       folder / "review.html")
        (folder / "params.json").write_text(json.dumps(review.params, indent=1) + "\n")
    return write_folder(output, render, interrupted=bool(review.params.get("interrupted")))


def _localised(frame):
    """`frame` with its headers in the language in use (the CSV files keep the names)."""
    return frame.rename(columns=i18n.column)
