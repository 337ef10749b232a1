"""The opening book's study guide: docs/openings.md, its images, and one printable, self-contained
HTML page, all generated from the book (never edited by hand).

The guide holds the book's provenance and how far it is built, the first-exchange table and a
21×21 chart of its equities, the lessons in English and Russian (each with the entries behind
it), the instructive decisions with their boards, and for each first roll the second-turn grid
(Black's reply × White's roll: the best play and what the runner-up gives up).
"""

from __future__ import annotations

import base64
import html
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..book.build import black_positions
from ..book.lessons import instructive, lessons, second_turn_grid
from ..book.read import Book
from ..core.dice import ALL_ROLLS, parse_dice
from ..core.engine import parse_play
from ..core.i18n import _, using_language
from ..core.interrupts import held_interrupts
from ..core.position import Position
from ..core.rules import Rules, rules_label
from .board_figure import draw_play
from .book_settings import margins, setting_text, truncation
from .figures import save_figure
from .tables import to_markdown

IMAGES = "openings"      # the images' folder beside openings.md


def exchange_chart(book: Book, rules: Rules) -> Figure:
    """White's equity after the first exchange (White to roll): one row per White first roll,
    one column per Black reply, annotated."""
    ex = book.exchange_frame(rules)
    rolls = [str(r) for r in ALL_ROLLS]
    grid = np.full((21, 21), np.nan)
    for _i, r in ex.iterrows():
        grid[rolls.index(r["white_roll"]), rolls.index(r["black_roll"])] = r["equity"]
    fig = Figure(figsize=(12.5, 11.0))
    ax = fig.add_axes((0.16, 0.08, 0.76, 0.82))
    lim = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    im = ax.imshow(grid, cmap="RdYlGn", vmin=-lim, vmax=lim)
    for i in range(21):
        for j in range(21):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:+.2f}".replace("0.", "."), ha="center",
                        va="center", fontsize=7)
    plays = book.first_plays()
    ax.set_yticks(range(21), [f"{r}  {plays.get(r, '')}" for r in rolls], fontsize=8,
                  family="monospace")
    ax.set_xticks(range(21), rolls, fontsize=8, rotation=90)
    ax.set_xlabel(_("Black's reply roll"))
    ax.set_ylabel(_("White's first roll and play"))
    fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02,
                 label=_("White's equity, White to roll after the reply"))
    prov = book.provenance(("white-1", "exchange"))
    ax.set_title(_("The first exchange: White's equity after each first roll and reply") + "\n"
                 + _("{policy} rollouts of {games} games each, {trunc}, VR; "
                     "{rules}").format(policy=setting_text(prov, "policy"),
                                       games=setting_text(prov, "exchange_games"),
                                       trunc=setting_text(prov, "truncate", truncation),
                                       rules=rules_label(rules)),
                 fontsize=11)
    return fig


def _board(decision: pd.Series) -> Figure:
    """The board after a decision's best play, with its roll and what the runner-up gives up."""
    position = Position.parse(decision["position"]).with_dice(parse_dice(decision["dice"]))
    play = parse_play(position, decision["best"])
    caption = _("{dice}: best {best}; {runner} {verdict}").format(
        dice=decision["dice"], best=decision["best"], runner=decision["runner_up"],
        verdict=(_("too close to call") if decision["verdict"] == "close"
                 else _("loses {loss:.3f}").format(loss=decision["loss"])))
    return draw_play(position, play, title=str(position.with_dice(None)), caption=caption)


def _status(book: Book) -> pd.DataFrame:
    counts = book.depth_counts()
    planned = {"white-1": 21, "exchange": 165, "white-2": 3465, "black-2": 87633}
    cpu = {}
    for e in book.entries.values():
        cpu[e["depth"]] = cpu.get(e["depth"], 0.0) + e.get("cpu_seconds", 0.0)
    return pd.DataFrame([{_("depth"): d, _("entries"): f"{counts.get(d, 0):,}",
                          _("of"): f"{n:,}", _("CPU hours"): f"{cpu.get(d, 0.0) / 3600:.2f}"}
                         for d, n in planned.items()])


def guide_parts(book: Book, rules: Rules, image_dir: Path) -> dict:
    """Everything the guide shows, its images saved under `image_dir` (PNG): a dict of sections for
    the Markdown and HTML writers."""
    image_dir.mkdir(parents=True, exist_ok=True)
    images = {"exchange": save_figure(exchange_chart(book, rules), image_dir / "exchange.png")}
    picks = instructive(book)
    boards = []
    for kind, frame in picks.items():
        for i, row in frame.iterrows():
            path = save_figure(_board(row), image_dir / f"{kind}-{i + 1}.png", dpi=72)
            boards.append((kind, row, path))
    lesson_list = lessons(book, rules)
    texts = {}
    for lang in ("en", "ru"):
        with using_language(lang):
            texts[lang] = [lesson.text() for lesson in lesson_list]
    firsts = book.first_roll_frame(rules)
    grids = {}
    for roll in ALL_ROLLS:
        grid = second_turn_grid(book, roll, rules)
        if not grid.empty and (grid.drop(columns="black") != "?").any().any():
            grids[str(roll)] = grid
    cpu = sum(e.get("cpu_seconds", 0.0) for e in book.entries.values()) / 3600
    return {"provenance": book.provenance(), "status": _status(book), "firsts": firsts,
            "counts": book.depth_counts(), "cpu_hours": cpu,
            "black_first": 21 * len(black_positions(book.entries)),
            "standing": book.standing(rules), "images": images, "boards": boards,
            "lessons": lesson_list, "texts": texts, "grids": grids, "rules": rules}


def _firsts_table(parts: dict) -> pd.DataFrame:
    f = parts["firsts"]
    return pd.DataFrame({_("roll"): f["roll"], _("White's play"): f["play"],
                         _("equity after the reply"): f["equity"].map(_num),
                         _("SE"): f["equity_se"].map(lambda v: _num(v, 3, False)),
                         _("replies valued"): f["replies"]})


def _num(v, digits: int = 3, sign: bool = True) -> str:
    if v is None or v != v:
        return "—"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


def _instructive_table(rows: list) -> pd.DataFrame:
    return pd.DataFrame([{_("position"): r["position"], _("roll"): r["dice"],
                          _("best"): r["best"], _("runner-up"): r["runner_up"],
                          _("loss"): _("too close to call") if r["verdict"] == "close"
                          else f"{r['loss']:.3f}", _("judged by"): r["method"]}
                         for r in rows])


def intro_lines(parts: dict) -> list[str]:
    """The guide's opening paragraphs: what it is and where its numbers come from."""
    prov = parts["provenance"]
    standing = parts["standing"]
    lines = [_("This guide is generated from nardy's opening book by `nardy book guide`; do not "
               "edit it by hand. Every figure is an entry of the book (`nardy openings` shows "
               "it)."),
             _("The book: policy {policy}, network {net}, {rules}, money game; rollouts with "
               "variance reduction, {trunc}, seed {seed}; staged ranking margins (0-ply, 1-ply, "
               "2-ply; a play within the last margin of the best is rolled out, {games} games): "
               "{filters}; nardy {version}, built {date}.").format(
                 policy=setting_text(prov, "policy"), net=setting_text(prov, "network"),
                 rules=rules_label(parts["rules"]),
                 trunc=setting_text(prov, "truncate", truncation),
                 seed=setting_text(prov, "seed"), filters=setting_text(prov, "filters", margins),
                 games=setting_text(prov, "games"), version=setting_text(prov, "version"),
                 date=prov.get("date"))]
    counts = parts["counts"]
    lines.append(_("Built so far: {w2:,} of White's 3,465 second-turn decisions and {b2:,} of "
                   "Black's 87,633; {cpu:.2f} CPU hours in all (each entry's own CPU time where it "
                   "was judged). A build goes on where it stopped: `nardy book build`.").format(
        w2=counts.get("white-2", 0), b2=counts.get("black-2", 0), cpu=parts["cpu_hours"]))
    lines.append(_("Black's second turn is built first where White's second play was judged best "
                   "or too close to call: {first:,} decisions, in the book's key order; {b2:,} of "
                   "them are built.").format(first=parts["black_first"],
                                             b2=counts.get("black-2", 0)))
    if standing["equity"] == standing["equity"]:
        lines.append(_("After the first exchange White stands {sign} by {equity:.3f} ± {ci:.3f} "
                       "(95%) on average.").format(
            sign=_("better") if standing["equity"] >= 0 else _("worse"),
            equity=abs(standing["equity"]), ci=1.96 * standing["equity_se"]))
    return lines


def guide_markdown(parts: dict, image_prefix: str) -> str:
    """docs/openings.md."""
    out = ["# " + _("Long nardy openings: a study guide from the opening book"), ""]
    out += [line + "\n" for line in intro_lines(parts)]
    out += ["## " + _("How far the book is built"), "", to_markdown(parts["status"]), ""]
    out += ["## " + _("The first exchange"), "", to_markdown(_firsts_table(parts)), "",
            f"![{_('The first exchange')}]({image_prefix}/exchange.png)", ""]
    out += ["## " + _("Lessons"), ""]
    for lesson, en, ru in zip(parts["lessons"], parts["texts"]["en"], parts["texts"]["ru"]):
        backing = ", ".join(f"`{k}`" for k in lesson.examples) or _("all the entries counted")
        out += [f"- {en}", f"  *{ru}*", "  " + _("Entries: {keys}").format(keys=backing), ""]
    out += ["## " + _("Instructive decisions"), ""]
    for kind, title in (("errors", _("The biggest errors")), ("close", _("The closest calls"))):
        rows = [row for k, row, _p in parts["boards"] if k == kind]
        if not rows:
            continue
        out += ["### " + title, "", to_markdown(_instructive_table(rows)), ""]
        out += [f"![{r['position']} {r['dice']}]({image_prefix}/{p.name})"
                for k, r, p in parts["boards"] if k == kind] + [""]
    out += ["## " + _("White's second turn, by first roll"), "",
            _("Rows: Black's reply; columns: White's second roll. Each cell: the best play, and "
              "after the bar what the runner-up gives up in thousandths of a point (=: too close "
              "to call; no bar: the play is forced; ?: not built yet)."), ""]
    for roll, grid in parts["grids"].items():
        out += ["### " + _("White's first roll {roll}").format(roll=roll), "",
                to_markdown(grid), ""]
    return "\n".join(out).rstrip() + "\n"


CSS = """body{font-family:sans-serif;max-width:70em;margin:auto;padding:1em;color:#222}
table{border-collapse:collapse;font-size:80%;margin:.5em 0}td,th{border:1px solid #bbb;
padding:2px 4px}th{background:#eee}img{max-width:100%}.ru{color:#444;font-style:italic}
.boards img{width:30%;display:inline-block}h2{page-break-before:always}
@media print{body{max-width:none}.grid{font-size:55%}}"""


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


def _table(frame: pd.DataFrame, cls: str = "") -> str:
    return frame.to_html(index=False, escape=True, classes=cls, border=0, na_rep="—")


def guide_html(parts: dict) -> str:
    """The printable page: the same sections, its images inlined (self-contained)."""
    t = _("Long nardy openings: a study guide from the opening book")
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(t)}</title>"
           f"<style>{CSS}</style></head><body><h1>{html.escape(t)}</h1>"]
    out += [f"<p>{html.escape(line)}</p>" for line in intro_lines(parts)]
    out += [f"<h3>{_('How far the book is built')}</h3>", _table(parts["status"])]
    out += [f"<h2>{_('The first exchange')}</h2>", _table(_firsts_table(parts)),
            _img(parts["images"]["exchange"])]
    out += [f"<h2>{_('Lessons')}</h2><ul>"]
    for lesson, en, ru in zip(parts["lessons"], parts["texts"]["en"], parts["texts"]["ru"]):
        keys = ", ".join(lesson.examples) or _("all the entries counted")
        out.append(f"<li>{html.escape(en)}<br><span class='ru'>{html.escape(ru)}</span><br>"
                   f"<small>{html.escape(_('Entries: {keys}').format(keys=keys))}</small></li>")
    out.append("</ul>")
    out.append(f"<h2>{_('Instructive decisions')}</h2>")
    for kind, title in (("errors", _("The biggest errors")), ("close", _("The closest calls"))):
        rows = [(row, p) for k, row, p in parts["boards"] if k == kind]
        if rows:
            out += [f"<h3>{html.escape(title)}</h3>",
                    _table(_instructive_table([r for r, _p in rows])),
                    "<div class='boards'>" + "".join(_img(p) for _r, p in rows) + "</div>"]
    heading = html.escape(_("White's second turn, by first roll"))
    out.append(f"<h2>{heading}</h2>")
    for roll, grid in parts["grids"].items():
        title = html.escape(_("White's first roll {roll}").format(roll=roll))
        out += [f"<h3>{title}</h3>", _table(grid, "grid")]
    out.append("</body></html>")
    return "\n".join(out)


def write_guide(book: Book, rules: Rules, docs: str | Path) -> dict[str, Path]:
    """Write `openings.md`, its images (`openings/`) and `openings.html` into the folder `docs`,
    all or nothing; returns their paths."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    # written whole into a hidden folder beside, then moved into place: Ctrl-C (or a failure)
    # leaves the guide as it was, never half of a new one
    stage = Path(tempfile.mkdtemp(prefix=".openings-", dir=docs))
    try:
        parts = guide_parts(book, rules, stage / IMAGES)
        (stage / "openings.md").write_text(guide_markdown(parts, IMAGES), encoding="utf-8")
        (stage / "openings.html").write_text(guide_html(parts), encoding="utf-8")
        with held_interrupts():
            images, old = docs / IMAGES, stage / "old"
            if images.exists():
                images.rename(old)
            (stage / IMAGES).rename(images)
            for name in ("openings.md", "openings.html"):
                os.replace(stage / name, docs / name)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return {"markdown": docs / "openings.md", "html": docs / "openings.html",
            "images": docs / IMAGES}
