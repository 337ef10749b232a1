"""Report folders rendered from results data: results.json/csv, boards, charts, report.md/html.

Everything in a folder is drawn from the data that goes into its results.json,
so `regenerate(folder)` rebuilds the same report from the saved JSON alone.
report.md and report.html come from one set of Jinja2 templates
(`study/templates/`), fed the same sections: one per position (or per table),
each with its title, the positions file's comment, the board, the tables and the
captioned charts.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Callable

from .figures import policy_text, position_label, run_line, save_figure, side_to_move
from ..i18n import N_, _, side_words, translate

TEMPLATES = Path(__file__).parent / "templates"
RANDOM_WARNING = N_("These numbers come from **random play** (policy `random`): both sides pick any legal play "
                    "at random, which no player does. Use them to study the rules, not strategy; for realistic "
                    "odds re-run with `--policy heuristic` or a stronger bot.")

__all__ = ["chart_kinds", "regenerate", "render_folder", "results_table", "save_figure"]


def _rt():
    from . import report_tables
    return report_tables


def _charts():
    from . import charts
    return charts


def chart_kinds(data: dict) -> dict[str, Callable[[dict, int], Any]]:
    """The charts a results file can draw: name -> function(data, index) -> Figure."""
    c = _charts()
    kind = data["kind"]
    out: dict[str, Callable[[dict, int], Any]] = {}
    if kind in ("rollout", "batch"):
        out["outcomes"] = lambda d, i: c.outcome_chart(d["results"][i])
        out["deficit"] = lambda d, i: c.rollout_deficit_chart(d["results"][i])
        out["convergence"] = lambda d, i: c.rollout_convergence_chart(d["results"][i], d["traces"][i])
        out["static-deficit"] = lambda d, i: c.deficit_heatmap(_named_static(d, i))
        out["static-face-deficit"] = lambda d, i: c.static_face_chart(_named_static(d, i))
    if kind == "analyze":
        out["ranking"] = lambda d, i: c.ranking_chart({**d["results"][i], "name": _names(d)[i]})
        out["outcomes"] = lambda d, i: c.outcome_chart(
            {**d["results"][i]["plays"][0], "position": d["results"][i]["position"],
             "params": d["results"][i]["params"]},
            _("Outcomes for {side} after the best play {play}").format(
                play=d['results'][i]['plays'][0]['play'], **side_words(side_to_move(d['results'][i]['position']))))
    if kind == "openings":
        out["opening-heatmap"] = lambda d, i: c.opening_heatmap(d["results"][i])
        out["opening-bars"] = lambda d, i: c.opening_bars(d["results"][i])
        if data["results"][0].get("replies"):
            out["replies-heatmap"] = lambda d, i: c.replies_heatmap(d["results"][i])
    return out


def _names(data: dict) -> list[str | None]:
    return data.get("names") or [r.get("name") for r in data["results"]]


def _comments(data: dict) -> list[str]:
    return data.get("comments") or [""] * len(data["results"])


def _named_static(data: dict, i: int) -> dict:
    return {**data["static_deficit"][i], "name": _names(data)[i]}


def results_table(data: dict):
    """The CSV table of a results file: one row per analysed play or position."""
    import pandas as pd
    kind = data["kind"]
    if kind in ("rollout", "batch"):
        rows = []
        for r in data["results"]:
            row = {"name": r.get("name", ""), "position": r["position"], "games": r["games"],
                   "equity": r["equity"], "equity_se": r["equity_se"]}
            row.update(r["probabilities"])
            row["mean_plies"] = r["mean_plies"]
            for side in ("white", "black"):
                row[f"{side}_lost_pips_per_game"] = r["deficit"][side]["lost_pips_per_game"]
                row[f"{side}_pass_share"] = r["deficit"][side]["pass_share"]
            row["interrupted"] = r["interrupted"]
            rows.append(row)
        return pd.DataFrame(rows)
    if kind == "analyze":
        rows = []
        for rk in data["results"]:
            for p in rk["plays"]:
                row = {"position": rk["position"], "dice": rk["dice"], "rank": p["rank"], "play": p["play"],
                       "result": p["result"], "games": p["games"], "equity": p["equity"],
                       "equity_se": p["equity_se"], "diff": p["diff"], "diff_se": p["diff_se"]}
                row.update(p["probabilities"])
                row["dropped_after"] = p["dropped_after"]
                rows.append(row)
        return pd.DataFrame(rows)
    return pd.DataFrame(data["results"][0]["rows"])


class _Writer:
    """Draws figures into the folder under unique names and keeps their captions."""

    def __init__(self, folder: Path, ext: str) -> None:
        self.folder, self.ext, self.used = folder, ext, set()

    def figure(self, stem: str, fig, caption: str) -> dict:
        name = f"{stem}.{self.ext}"
        assert name not in self.used, name
        self.used.add(name)
        save_figure(fig, self.folder / name)
        return {"file": name, "caption": caption}


def _table(frame, caption: str, counter: list[int]) -> dict:
    counter[0] += 1
    return {"caption": caption, "md": _rt().to_markdown(frame), "html": _rt().to_html(frame, f"t{counter[0]}")}


def _policies(params: dict) -> list[str]:
    pols = params.get("policies")
    return list(pols.values()) if isinstance(pols, dict) else [pols] if pols else []


def _run_facts(data: dict) -> tuple[dict, list[str]]:
    """The run's parameters (of the first result) and the warnings a reader must see."""
    first = data["results"][0]
    params = first.get("params", {})
    warnings = []
    if "random" in _policies(params):
        warnings.append(translate(RANDOM_WARNING))
    if _interrupted(data):
        warnings.append(_("This run was **interrupted**: the figures cover only the games finished before it "
                          "stopped."))
    return params, warnings


def _interrupted(data: dict) -> bool:
    return bool(data.get("interrupted")) or any(r.get("interrupted") for r in data["results"])


def _games_unit(kind: str) -> str:
    return {"rollout": _("games"), "batch": _("games per position")}.get(kind, _("games per play"))


def _games_done(data: dict) -> int:
    """The most games any position, play or opening got: what the run really played (per position or play)."""
    counts = [0]
    for r in data["results"]:
        counts.append(r.get("games", 0))
        counts += [p["games"] for p in r.get("plays", [])] + [row["games"] for row in r.get("rows", [])]
    return max(counts)


def _rollout_section(data: dict, i: int, w: _Writer, counter: list[int], slug: str, full: bool) -> dict:
    from .board_figure import draw_board
    from ..position import parse_position
    c = _charts()
    r, name, comment = data["results"][i], _names(data)[i], _comments(data)[i]
    side = side_to_move(r["position"])
    words = side_words(side)
    label = name or r["position"]
    figures = [w.figure(f"board{slug}", draw_board(parse_position(r["position"]), name=name),
                        _("The position{name}: {side} to move.").format(name=' ' + repr(name) if name else '',
                                                                         **words))]
    figures.append(w.figure(f"outcomes{slug}", c.outcome_chart(r),
                            _("Chance of each outcome for {side}, with 95% confidence intervals ({games:,} games, "
                              "{policies}).").format(games=r['games'], policies=policy_text(r['params']['policies']),
                                                     **words)))
    if full:
        figures.append(w.figure(f"deficit{slug}", c.rollout_deficit_chart(r),
                                _("Share of each die face that White and Black could not play in these games.")))
        trace = (data.get("traces") or [[]] * (i + 1))[i]
        if trace:
            figures.append(w.figure(f"convergence{slug}", c.rollout_convergence_chart(r, trace),
                                    _("{sides} equity as the games accumulate, with a ±2 SE band.").format(**words)))
    static = data.get("static_deficit")
    if static:
        figures.append(w.figure(f"static-deficit{slug}", c.deficit_heatmap(_named_static(data, i)),
                                _("How many of the roll's steps {side} can play now, for each of the 36 "
                                  "rolls.").format(**words)))
        if full:
            figures.append(w.figure(f"static-face-deficit{slug}", c.static_face_chart(_named_static(data, i)),
                                    _("Share of the steps of each face {side} cannot play now, over the 36 "
                                      "rolls.").format(**words)))
    summary = _("{sides} equity **{equity}** (95%) in {games:,} games{interrupted}; win {win}, lose {lose}, draw "
                "{draw}; games last {plies:.0f} plies on average.").format(
        equity=_rt().eq(r['equity'], r['equity_se']), games=r['games'],
        interrupted=_(' (interrupted)') if r['interrupted'] else '', win=_rt().pct(r['probabilities']['win']),
        lose=_rt().pct(r['probabilities']['lose']), draw=_rt().pct(r['probabilities']['draw']),
        plies=r['mean_plies'], **words)
    tables = [_table(_rt().outcome_table(r), _("Outcomes for {side} (to move), chance with 95% interval").format(
        **words), counter),
              _table(_rt().rollout_deficit_table(r), _("Move deficit of each side in these games"), counter)]
    if static:
        s = static[i]
        tables.append(_table(_rt().static_deficit_table(s),
                             _("Static deficit of {side} now: full turn {full}, partial {partial}, pass {passes} of "
                               "the 36 rolls; {lost:.2f} pips lost per roll on average").format(
                                 full=_rt().pct(s['p_full']), partial=_rt().pct(s['p_partial']),
                                 passes=_rt().pct(s['p_pass']), lost=s['expected_lost_pips'], **words), counter))
    return {"title": label, "notation": r["position"] if name else "", "comment": comment,
            "summary": summary, "board": figures[0], "tables": tables, "figures": figures[1:]}


def _analyze_sections(data: dict, w: _Writer, counter: list[int]) -> list[dict]:
    from .board_figure import draw_board
    from ..position import parse_position
    kinds = chart_kinds(data)
    rk, name, comment = data["results"][0], _names(data)[0], _comments(data)[0]
    side = side_to_move(rk["position"])
    words = side_words(side)
    best = rk["plays"][0]
    board = w.figure("board", draw_board(parse_position(f"{rk['position']} {rk['dice']}"), name=name),
                     _("{side} to play {dice}.").format(dice=rk['dice'], **words))
    figures = [w.figure("ranking", kinds["ranking"](data, 0),
                        _("Each play's equity minus the best play's, measured on the same dice (paired games); "
                          "bars are 95% intervals of the difference.")),
               w.figure("outcomes", kinds["outcomes"](data, 0),
                        _("Chance of each outcome for {side} after the best play {play}.").format(
                            play=best['play'], **words))]
    figures += _play_boards(rk, w, side)
    summary = _("Best play: **{play}**, {sides} equity {equity} (95%). Every play was rolled out on the same dice "
                "(common random numbers); the difference to the best play is measured on those paired games.").format(
        play=best['play'], equity=_rt().eq(best['equity'], best['equity_se']), **words)
    if rk["prefiltered"]:
        summary += _(" Left out before the rollout (`--top`): ") + ", ".join(f"`{p}`" for p in rk["prefiltered"]) + "."
    tables = [_table(_rt().ranking_table(rk), _("The plays of {dice}, best first").format(dice=rk['dice']), counter)]
    from .staged import stage_tables
    tables += [_table(frame, caption, counter) for frame, caption in stage_tables(rk)]
    return [{"title": _("{side} to play {dice} in {position}").format(dice=rk['dice'],
                                                                      position=name or rk['position'], **words),
             "notation": rk["position"] if name else "", "comment": comment, "summary": summary,
             "board": board, "tables": tables, "figures": figures}]


TOP_BOARDS = 3      # boards of the best plays in an analysis report


def _legal_play(notation: str, dice: str, text: str, rules: dict | None):
    """The `Play` written `text` among the legal plays of `dice` in `notation`."""
    from ..engine import legal_plays
    from ..position import parse_position
    from ..rules import PRESETS, rules_from_dict
    position = parse_position(f"{notation} {dice}")
    plays = legal_plays(position, None, rules_from_dict(rules) if rules else PRESETS["federation"])
    return position, next(p for p in plays if str(p) == text)


def _play_boards(rk: dict, w: _Writer, side: str, stem: str = "play") -> list[dict]:
    """Boards of the best plays of an analysis (up to TOP_BOARDS), each with its moves as arrows."""
    from .board_figure import draw_play
    out = []
    for p in rk["plays"][:TOP_BOARDS]:
        position, play = _legal_play(rk["position"], rk["dice"], p["play"], rk.get("params", {}).get("rules"))
        words = side_words(side)
        rank = _("rank {rank}").format(rank=p['rank']) if "rank" in p else _("best")
        diff = _(", {diff:+.3f} against the best").format(diff=p['diff']) if p.get("diff") else ""
        out.append(w.figure(f"{stem}-{p['rank'] if 'rank' in p else 1}", draw_play(
            position, play, title=_("{rank}: {side} plays {play}").format(rank=rank, play=play, **words),
            caption=_("equity {equity:+.3f} ± {ci:.3f} (95%){diff}").format(
                equity=p['equity'], ci=1.96 * p['equity_se'], diff=diff)),
            _("{rank}: {side} plays {play}, the checkers that moved drawn as arrows; equity {equity:+.3f}{diff}.").format(
                rank=rank[:1].upper() + rank[1:], play=play, equity=p['equity'], diff=diff, **words)))
    return out


def _opening_boards(table: dict, w: _Writer) -> list[dict]:
    """A board of the best play of each opening roll, its moves as arrows."""
    from ..position import START
    from .board_figure import draw_play
    out = []
    for row in table["rows"]:
        if row["rank"] != 1:
            continue
        position, play = _legal_play(str(START), row["roll"], row["play"], table.get("params", {}).get("rules"))
        out.append(w.figure(f"opening-{row['roll']}", draw_play(
            position, play, title=_("{roll}: White plays {play}").format(roll=row['roll'], play=play),
            caption=_("equity {equity:+.3f} ± {ci:.3f} (95%), {games:,} games").format(
                equity=row['equity'], ci=1.96 * row['equity_se'], games=row['games'])),
            _("{roll}: White's best play {play} (equity {equity:+.3f}).").format(
                roll=row['roll'], play=play, equity=row['equity'])))
    return out


def _openings_sections(data: dict, w: _Writer, counter: list[int]) -> list[dict]:
    kinds = chart_kinds(data)
    t = data["results"][0]
    sections = [{"title": _("White's opening rolls"), "notation": "", "comment": "", "board": None,
                 "summary": _("Every legal White play of each opening roll, rolled out from the start and ranked "
                              "within its roll."),
                 "tables": [_table(_rt().opening_rows_table(t), _("Every White play of each roll"), counter)],
                 "figures": [w.figure("opening-heatmap", kinds["opening-heatmap"](data, 0),
                                      _("White's equity after its best play, roll by roll (larger die down).")),
                             w.figure("opening-bars", kinds["opening-bars"](data, 0),
                                      _("The opening rolls ranked by White's best play, with 95% intervals."))]}]
    sections.append({"title": _("The best play of each roll"), "notation": "", "comment": "", "board": None,
                     "summary": _("White's best play of each opening roll on the board, the checkers that moved "
                                  "drawn as arrows."), "tables": [], "figures": _opening_boards(t, w)})
    if t.get("replies"):
        sections.append({"title": _("Black's best replies"), "notation": "", "comment": "", "board": None,
                         "summary": _("For each White opening (its best play) and each of Black's 21 rolls, the "
                                      "reply with the best equity for Black."),
                         "tables": [_table(_rt().replies_table(t), _("Black's best reply to each opening"), counter)],
                         "figures": [w.figure("replies-heatmap", kinds["replies-heatmap"](data, 0),
                                              _("Black's equity after its best reply: rows are White's openings, "
                                                "columns Black's rolls."))]})
    return sections


def _title(data: dict) -> str:
    kind, first = data["kind"], data["results"][0]
    if kind == "analyze":
        return _("Plays of {dice} in {position}").format(dice=first['dice'], position=_names(data)[0] or first['position'])
    if kind == "openings":
        return _("Opening table")
    if kind == "batch":
        return _("Rollouts of {n} positions").format(n=len(data['results']))
    if len(data["results"]) == 1:
        return _("Rollout of {position}").format(position=position_label({**first, 'name': _names(data)[0]}))
    return _("Rollouts of {n} positions").format(n=len(data['results']))


def build_report(folder: Path, data: dict, ext: str = "png") -> dict:
    """Draw every figure into `folder` and return the report's sections for the templates."""
    w, counter = _Writer(folder, ext), [0]
    params, warnings = _run_facts(data)
    kind, n = data["kind"], len(data["results"])
    sections: list[dict] = []
    overview = None
    if kind in ("rollout", "batch"):
        full = kind == "rollout" and n <= 3
        for i in range(n):
            slug = "" if n == 1 else f"-{i + 1}"
            sections.append(_rollout_section(data, i, w, counter, slug, full))
        if n > 1:
            results = [{**r, "name": _names(data)[i]} for i, r in enumerate(data["results"])]
            overview = _table(_rt().batch_summary_table(results),
                              _("Every position at a glance; equity is for the side to move"), counter)
    elif kind == "analyze":
        sections = _analyze_sections(data, w, counter)
    else:
        sections = _openings_sections(data, w, counter)
    games = _games_unit(kind)
    n_games = params.get("games_requested") or params.get("games_per_play")
    from . import glossary, report_summary
    if _interrupted(data):      # the games really played, not the games asked for
        games = _("{games} (interrupted; {asked:,} asked for)").format(games=games, asked=n_games)
        n_games = _games_done(data)
    elif params.get("until_se"):
        games += _(" (at most)")
    return {"title": _title(data), "run": run_line(params, n_games, games),
            "seed": params.get("seed"), "warnings": warnings, "overview": overview, "sections": sections,
            "headline": _headline(data), "params": _table(report_summary.params_frame(params, kind),
                                                          _("Run parameters"), counter),
            "glossary_md": glossary.glossary_markdown(), "glossary_html": glossary.glossary_html()}


def _headline(data: dict) -> str:
    """The report's first line in plain words (`study/report_summary.py`)."""
    from . import report_summary as rs
    kind, results = data["kind"], data["results"]
    if kind == "analyze":
        return rs.analyze_headline(results[0])
    if kind == "openings":
        return rs.openings_headline(results[0])
    return rs.rollout_headline(results, _names(data))


def render_folder(folder: Path, data: dict, *, html: bool = False, svg: bool = False) -> None:
    """Write every file of a report folder from `data`."""
    import pandas as pd
    data = {**data, "format": {"html": html, "svg": svg}}
    (folder / "results.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    results_table(data).to_csv(folder / "results.csv", index=False)
    if data["kind"] == "openings" and data["results"][0]["replies"]:
        pd.DataFrame(data["results"][0]["replies"]).to_csv(folder / "replies.csv", index=False)
    report = build_report(folder, data, "svg" if svg else "png")
    env = _environment()
    (folder / "report.md").write_text(env.get_template("report.md.j2").render(report=report), encoding="utf-8")
    if html:
        report_html = env.get_template("report.html.j2").render(report=report,
                                                                 image=lambda f: _data_uri(folder / f))
        (folder / "report.html").write_text(report_html, encoding="utf-8")


def _environment():
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html.j2"]), trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.filters["inline_md"] = _inline_md
    env.globals["_"] = _
    return env


def _inline_md(text: str):
    """HTML for the little Markdown the summaries use: **bold** and `code`."""
    import re

    import markupsafe
    escaped = str(markupsafe.escape(text))
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
    escaped = re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)
    return markupsafe.Markup(escaped)


def _data_uri(path: Path) -> str:
    mime = "image/svg+xml" if path.suffix == ".svg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode()}"


def regenerate(folder: str | Path) -> None:
    """Re-render a report folder from its results.json alone."""
    folder = Path(folder)
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    fmt = data.pop("format", {})
    render_folder(folder, data, html=fmt.get("html", False), svg=fmt.get("svg", False))
