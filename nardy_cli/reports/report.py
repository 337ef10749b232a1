"""Report folders rendered from results data: results.json/csv, boards, charts, report.md/html.

Everything in a folder is drawn from the data that goes into its results.json,
so `regenerate(folder)` rebuilds the same report from the saved JSON alone.
The data's `kind` picks its report in `REPORT_KINDS` (one class per kind:
its table, charts, sections, title and first line); report.md and report.html
come from one set of Jinja2 templates (`reports/templates/`), fed the same
sections: one per position (or per table), each with its title, the positions
file's comment, the board, the tables and the captioned charts.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Callable

from ..core.errors import ReportKindError
from ..core.i18n import N_, _, translate
from .analysis_report import AnalysisReport
from .figures import run_line
from .openings_report import OpeningsReport
from .parts import Chart, ReportKind, ReportWriter
from .rollout_report import BatchReport, RolloutReport

TEMPLATES = Path(__file__).parent / "templates"
RANDOM_WARNING = N_("These numbers come from **random play** (policy `random`): both sides pick "
                    "any legal play at random, which no player does. Use them to study the rules, "
                    "not strategy; for realistic odds re-run with `--policy heuristic` or a "
                    "stronger bot.")

REPORT_KINDS: dict[str, ReportKind] = {k.kind: k for k in (RolloutReport(), BatchReport(),
                                                           AnalysisReport(), OpeningsReport())}

__all__ = ["REPORT_KINDS", "chart_kinds", "folder_renderer", "regenerate", "render_folder",
           "report_for"]


def report_for(kind: str) -> ReportKind:
    """The report of results of `kind`; raises ReportKindError for a kind no report renders."""
    try:
        return REPORT_KINDS[kind]
    except (KeyError, TypeError):
        raise ReportKindError(f"no report renders {kind!r} results (known kinds: "
                              f"{', '.join(sorted(REPORT_KINDS))})") from None


def chart_kinds(data: dict) -> dict[str, Chart]:
    """The charts a results file can draw: name -> function(data, index) -> Figure."""
    return report_for(data["kind"]).charts(data)


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
        warnings.append(_("This run was **interrupted**: the figures cover only the games finished "
                          "before it stopped."))
    return params, warnings


def _interrupted(data: dict) -> bool:
    return bool(data.get("interrupted")) or any(r.get("interrupted") for r in data["results"])


def _games_done(data: dict) -> int:
    """The most games any position, play or opening got: what the run really played (per position
    or play)."""
    counts = [0]
    for r in data["results"]:
        counts.append(r.get("games", 0))
        counts += [p["games"] for p in r.get("plays", [])]
        counts += [row["games"] for row in r.get("rows", [])]
    return max(counts)


def build_report(folder: Path, data: dict, ext: str = "png") -> dict:
    """Draw every figure into `folder` and return the report's sections for the templates."""
    report = report_for(data["kind"])
    w = ReportWriter(folder, ext)
    params, warnings = _run_facts(data)
    sections, overview = report.sections(data, w)
    games = report.games_unit()
    n_games = params.get("games_requested") or params.get("games_per_play")
    from . import glossary, summary as report_summary
    if _interrupted(data):      # the games really played, not the games asked for
        games = _("{games} (interrupted; {asked:,} asked for)").format(games=games, asked=n_games)
        n_games = _games_done(data)
    elif params.get("until_se"):
        games += _(" (at most)")
    return {"title": report.title(data), "run": run_line(params, n_games, games),
            "seed": params.get("seed"), "warnings": warnings, "overview": overview,
            "sections": sections, "headline": report.headline(data),
            "params": w.table(report_summary.params_frame(params, data["kind"]),
                              _("Run parameters")),
            "glossary_md": glossary.glossary_markdown(), "glossary_html": glossary.glossary_html()}


def render_folder(folder: Path, data: dict, *, html: bool = False, svg: bool = False) -> None:
    """Write every file of a report folder from `data` into `folder`, by the report of its kind."""
    report = report_for(data["kind"])
    data = {**data, "format": {"html": html, "svg": svg}}
    (folder / "results.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
    report.table(data).to_csv(folder / "results.csv", index=False)
    for name, frame in report.extra_tables(data).items():
        frame.to_csv(folder / name, index=False)
    built = build_report(folder, data, "svg" if svg else "png")
    env = _environment()
    (folder / "report.md").write_text(env.get_template("report.md.j2").render(report=built),
                                      encoding="utf-8")
    if html:
        report_html = env.get_template("report.html.j2").render(
            report=built, image=lambda f: _data_uri(folder / f))
        (folder / "report.html").write_text(report_html, encoding="utf-8")


def folder_renderer(data: dict, *, html: bool = False, svg: bool = False) -> Callable[[Path], None]:
    """The function that writes `data`'s report into the folder it is given (for
    `report_folder.write_report`)."""
    return lambda folder: render_folder(folder, data, html=html, svg=svg)


def _environment():
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html.j2"]), trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
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
