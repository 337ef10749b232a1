"""A review as a report folder: review.json, review.csv, the equity chart, boards of the worst decisions,
report.md (and report.html), all or nothing."""

from __future__ import annotations

import base64
import html as html_lib
import json
import shutil
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .errors import NardyError
from .position import Position, parse_checkers, parse_position
from .records import format_game
from .render import to_json
from .report_folder import commit_output, interrupted_path, prepare_output
from .review import GameReview
from .study.glossary import glossary_markdown
from .study.report_summary import params_frame, review_headline

MARK_STYLE = {"doubtful": ("#f9a825", "o", 7), "error": ("#ef6c00", "s", 8), "blunder": ("#c62828", "X", 11)}


def _end(record, unfinished: str) -> str:
    """The result of a game, how a drop ended it, or `unfinished`."""
    if record.result is None and record.dropped is not None:
        from .match_records import game_end
        return game_end(record)
    return str(record.result or unfinished)


def equity_chart(review: GameReview) -> Figure:
    """White's equity after every reviewed ply, with doubtful plays, errors and blunders marked."""
    f = review.frame
    fig = Figure(figsize=(9.0, 4.6), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(f["ply"], f["equity_white"], color="#1565c0", linewidth=1.4, marker=".", markersize=3,
            label="equity for White after the play")
    ax.axhline(0, color="#444444", linewidth=0.8)
    for mark, (colour, marker, size) in MARK_STYLE.items():
        m = f[f["mark"] == mark]
        if len(m):
            ax.scatter(m["ply"], m["equity_white"], color=colour, marker=marker, s=size ** 2, zorder=3,
                       label=f"{mark} ({len(m)})", edgecolors="black", linewidths=0.5)
    for _, row in review.worst(3).iterrows():
        ax.annotate(f"{row['turn']} {row['dice']}", (row["ply"], row["equity_white"]), textcoords="offset points",
                    xytext=(0, 11), ha="center", fontsize=8, zorder=4,
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
    r = review.record
    ax.set_xlabel("ply (White's and Black's turns counted separately)")
    ax.set_ylabel("equity for White (points per game)")
    ax.set_title(f"{r.white} (White) vs {r.black} (Black): {_end(r, 'game not finished')}\n"
                 f"evaluator {review.params['evaluator']}", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)
    return fig


def _pixels(fig: Figure, dpi: float = 60) -> np.ndarray:
    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())


def _position(text: str) -> Position:
    """A position from the review's text, including a drawn game's end (`W:- B:- w`), which input refuses."""
    try:
        return parse_position(text, check_blocks=False)
    except NardyError:
        white, black, turn = text.split()[:3]
        return Position.unchecked(parse_checkers(white[2:], "w"), parse_checkers(black[2:], "b"), turn)


def decision_figure(row) -> Figure:
    """The board before a decision, the played result and the best result, side by side."""
    from .study.board_figure import draw_board
    before = _position(row["position"])
    mover = before.turn
    panels = [
        (before, f"{row['turn']} {row['side'].capitalize()} to play {row['dice']}"),
        (_position(row["played_result"]), f"played {row['played']}  ({row['equity_played']:+.3f})"),
        (_position(row["best_result"]), f"best {row['best']}  ({row['equity_best']:+.3f})"),
    ]
    fig = Figure(figsize=(15.0, 5.6), layout="constrained")
    for k, (pos, title) in enumerate(panels):
        ax = fig.add_subplot(1, 3, k + 1)
        ax.imshow(_pixels(draw_board(pos, numbering=mover, title=title)))
        ax.axis("off")
    fig.suptitle(f"{row['mark'] or 'inaccuracy'}: equity lost {row['lost']:.3f} ({row['level']}), "
                 f"boards in {row['side'].capitalize()}'s numbering", fontsize=13)
    return fig


def _save(fig: Figure, path: Path) -> None:
    fig.savefig(path, dpi=100, metadata={"Software": None})


def _md_table(frame, digits: int = 3) -> str:
    def cell(v) -> str:
        if isinstance(v, float):
            return "" if v != v else f"{v:.{digits}f}"
        return str(v).replace("|", "\\|")
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    return "\n".join([head, rule, *("| " + " | ".join(cell(v) for v in row) + " |"
                                    for row in frame.itertuples(index=False))])


def report_markdown(review: GameReview, top: int, boards: list[str]) -> str:
    """report.md: summary per player, the chart, the worst decisions with their boards, every decision."""
    r = review.record
    p = review.params
    t = review.thresholds
    lines = [f"# Game review: {r.white} (White) vs {r.black} (Black)", "",
             f"**{review_headline(review.summary().to_dict(orient='records'))}**", "",
             f"Result: **{_end(r, 'game not finished')}** after {len(r.plies)} plies; "
             f"{r.rules.preset} rules; date {r.date}.", "",
             f"Evaluator: `{p['evaluator']}` (luck at 0-ply with `{p['luck_evaluator']}`"
             + (f"; flagged decisions rolled out, {p['rollout_games']} games per candidate with "
                f"`{p['rollout_policy']}`" if p.get("rollout_games") else "") + "). "
             f"Marks: doubtful from {t.doubtful}, error from {t.error}, blunder from {t.blunder} "
             "points of equity lost; forced plays are listed, not scored.", "",
             *[f"> **Note.** {note}\n" for note in review.notes()],
             "## Summary", "", _md_table(review.summary()), "",
             "Luck: the best result's value for the roll rolled minus its mean over the 21 rolls, summed.", "",
             *cube_markdown(review.cube, "match" in p),
             "## Equity over the game", "",
             "White's equity after every play, each judged from the side that just moved; a static "
             "evaluator's bias for or against the side on roll shows as a zig-zag between White's and "
             "Black's plies.", "", "![equity chart](equity.png)", ""]
    worst = review.worst(top)
    lines += ["## The costliest decision" if len(worst) == 1 else f"## The {len(worst)} costliest decisions", ""]
    for (_, row), file in zip(worst.iterrows(), boards):
        lines += [f"### {row['turn']} {row['player']} ({row['side']}) {row['dice']}: {row['mark'] or 'inaccuracy'}",
                  "", f"Played `{row['played']}` ({row['equity_played']:+.3f}); best `{row['best']}` "
                  f"({row['equity_best']:+.3f}); equity lost {row['lost']:.3f} ({row['level']}).", "",
                  f"Position: `{row['position']}`", "", f"![decision]({file})", ""]
    cols = ["turn", "player", "dice", "played", "best", "plays", "equity_played", "equity_best", "lost", "mark", "luck"]
    lines += ["## Every decision", "", _md_table(review.frame[cols]), ""]
    lines += ["## Run parameters", "", _md_table(params_frame(p, "game review")), "",
              "The exact parameters are in `params.json`.", "", glossary_markdown(), ""]
    return "\n".join(lines)


CUBE_MD_COLUMNS = ["turn", "player", "cube", "action", "best", "no_double", "double_take", "double_pass",
                   "double_lost", "taker", "take_lost", "error"]


def cube_markdown(cube, match: bool, game: bool = False) -> list[str]:
    """The report's section on the cube decisions of a cube game (nothing for a cubeless one)."""
    if cube is None:
        return []
    units = ("match winning chances; losses in normalised equity" if match
             else "equity per cube unit; losses in points (per unit times the cube)")
    cols = (["game"] if game else []) + CUBE_MD_COLUMNS
    errors = int((cube["error"] != "").sum())
    return ["## Cube decisions", "",
            f"The roller's cube decision before every roll it could double at ({units}): a missed or wrong "
            f"double, and the taker's wrong take or pass, with what each lost; {errors} turn"
            f"{'' if errors == 1 else 's'} with an error. Judged by the network through the cube model "
            "(docs/cube.md), exact in the money bear-off database.", "", _md_table(cube[cols]), ""]


def _html(folder: Path, md: str) -> str:
    body = []
    table: list[str] = []

    def flush() -> None:
        if table:
            rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in table if not line.startswith("|---")]
            head = "".join(f"<th>{html_lib.escape(c)}</th>" for c in rows[0])
            cells = "".join("<tr>" + "".join(f"<td>{html_lib.escape(c.replace(chr(92) + '|', '|'))}</td>" for c in r)
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
            body.append(f"<h{level}>{html_lib.escape(line[level:].strip())}</h{level}>")
        elif line:
            text = html_lib.escape(line)
            for mark, tag in (("**", "b"), ("`", "code")):
                parts = text.split(mark)
                text = "".join(p if i % 2 == 0 else f"<{tag}>{p}</{tag}>" for i, p in enumerate(parts))
            body.append(f"<p>{text}</p>")
    flush()
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px}"
             "img{max-width:100%}")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Game review</title>'
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")


def write_review(review: GameReview, output: str | Path, *, top: int = 5, html: bool = False) -> Path:
    """Write the review folder into `output`, replacing an older one; all or nothing.  The review of an
    interrupted run goes to `output`-interrupted, so it never replaces a complete one."""
    tmp, final = prepare_output(output)
    if review.params.get("interrupted"):
        final = interrupted_path(final)
    try:
        (tmp / "review.json").write_text(to_json(review.to_dict()) + "\n")
        review.frame.to_csv(tmp / "review.csv", index=False)
        if review.cube is not None:
            review.cube.to_csv(tmp / "cube.csv", index=False)
        (tmp / "game.txt").write_text(format_game(review.record))
        _save(equity_chart(review), tmp / "equity.png")
        boards = []
        for k, (_, row) in enumerate(review.worst(top).iterrows(), 1):
            name = f"decision-{k}.png"
            _save(decision_figure(row), tmp / name)
            boards.append(name)
        md = report_markdown(review, top, boards)
        if review.params.get("interrupted"):
            title, rest = md.split("\n", 1)
            md = (f"{title}\n\n> **Warning.** This review was **interrupted** during its rollouts: the "
                  "decisions not reached keep their first evaluation (level column).\n" + rest)
        (tmp / "report.md").write_text(md)
        if html:
            from .review_page import game_data, page_data, review_units, write_page
            (tmp / "report.html").write_text(_html(tmp, md))
            units, columns = review_units(review)
            write_page(page_data([game_data(review, columns=columns)], units=units), tmp / "review.html")
        (tmp / "params.json").write_text(json.dumps(review.params, indent=1) + "\n")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return commit_output(tmp, final)


def write_match_review(review, output: str | Path, *, html: bool = False) -> Path:
    """Write a match review's folder: review.json, review.csv (every ply, with its game and score),
    summary.csv (the players' totals), match.txt and report.md; with `html`, review.html (every game,
    a game selector, match-chance losses). All or nothing."""
    from .match_records import format_match
    tmp, final = prepare_output(output)
    if review.interrupted:
        final = interrupted_path(final)
    try:
        (tmp / "review.json").write_text(to_json(review.to_dict()) + "\n")
        review.frame().to_csv(tmp / "review.csv", index=False)
        summary = review.summary()
        summary.to_csv(tmp / "summary.csv", index=False)
        cube = review.cube_frame()
        if cube is not None:
            cube.to_csv(tmp / "cube.csv", index=False)
        (tmp / "match.txt").write_text(format_match(review.match))
        m = review.match
        lines = [f"# Match review: {m.players[0]} vs {m.players[1]}, match to {m.length}", "",
                 f"{len(m.games)} games, final score {'-'.join(f'{s:g}' for s in m.final_score)}"
                 f"{', won by ' + m.winner if m.winner else ''}; evaluator `{review.params['evaluator']}`. "
                 "Every decision is judged at its game's score: equity lost is normalised (a single game won "
                 "+1, lost -1) and `mwc_lost` is the match winning chance lost.", "",
                 "## Totals", "", summary.to_markdown(index=False, floatfmt=".3f"), "",
                 *cube_markdown(cube, bool(m.length), game=True), "## Games", ""]
        for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
            lines += [f"### Game {k} at {score[0]:g}-{score[1]:g} (White-Black): {g.record.white} (White) vs "
                      f"{g.record.black} (Black), {_end(g.record, 'not finished')}", "",
                      g.summary().to_markdown(index=False, floatfmt=".3f"), ""]
        (tmp / "report.md").write_text("\n".join(lines))
        if html:
            from .review_page import game_data, page_data, review_units, write_page
            games = []
            for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
                units, columns = review_units(g)
                games.append(game_data(g, title=f"Game {k}: {g.record.white} (White) vs {g.record.black} (Black)",
                                       score=f"score before the game {score[0]:g}-{score[1]:g} (White-Black), "
                                             f"match to {m.length}", columns=columns))
            write_page(page_data(games, title=f"{m.players[0]} vs {m.players[1]}, match to {m.length}",
                                 units=units), tmp / "review.html")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return commit_output(tmp, final)
