"""`nardy chart`: a chart redrawn from a saved results.json."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..core.errors import ReportKindError, ResultsError, WriteError
from ..core.i18n import _
from .common import IMAGE_FILE, BadInput, handle_errors


@click.command("chart", epilog="""\b
Examples:
  nardy rollout start --policy heuristic --games 2592 --output reports/demo
  nardy chart reports/demo/results.json --list
  nardy chart reports/demo/results.json --kind convergence -o conv.svg
  nardy openings --rolls 65,31 --games 1296 --policy heuristic --output reports/openings
  nardy chart reports/openings/results.json --kind opening-heatmap -o heatmap.png
""")
@click.argument("results", type=click.Path(exists=True, dir_okay=False), metavar="RESULTS.json")
@click.option("--kind", default=None, help="Which chart to draw (see --list).")
@click.option("--index", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which result of the file (batch and multi-position rollouts).")
@click.option("--list", "list_kinds", is_flag=True, help="List the chart kinds this file can draw.")
@click.option("-o", "--out", type=IMAGE_FILE, default=None,
              help="Image file (.png, .svg or .pdf).")
@handle_errors
def chart_command(results, kind, index, list_kinds, out) -> None:
    """Re-draw a chart from a saved results.json without re-running anything."""
    from ..reports.figures import save_figure
    from ..reports.saved import chart_of
    data, kinds = _read(results)
    if list_kinds or kind is None:
        if kind is None and not list_kinds:
            raise BadInput(f"choose --kind: {', '.join(kinds)}")
        click.echo("\n".join(kinds))
        return
    if kind not in kinds:
        raise BadInput(f"unknown chart kind {kind!r} for {data['kind']} results: "
                       f"choose one of {', '.join(kinds)}")
    if not out:
        raise BadInput("give the image file with -o FILE.png, FILE.svg or FILE.pdf")
    if index > len(data["results"]):
        raise BadInput(f"--index {index}: the file holds {len(data['results'])} results")
    try:
        fig = chart_of(data, kind, index - 1)
    except ResultsError as exc:
        raise ResultsError(f"{results!r}: {exc}") from None
    try:
        save_figure(fig, Path(out))
    except OSError as exc:
        raise WriteError(f"cannot write {out!r}: {exc.strerror}") from None
    click.echo(_("Chart written to {out}").format(out=out), err=True)


def _read(results: str) -> tuple[dict, list[str]]:
    """The saved results and the names of the charts they can draw; a file that is not a nardy
    results.json, or lacks what every chart needs, is a `ResultsError` naming it."""
    from ..reports.report import chart_kinds, report_for
    from ..reports.saved import MissingField, traced
    try:
        data = json.loads(Path(results).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise ResultsError(f"{results!r} is not a nardy results.json (not JSON text)") from None
    if not isinstance(data, dict) or "kind" not in data:
        raise ResultsError(f"{results!r} is not a nardy results.json (no 'kind' of results)")
    try:
        report_for(data["kind"])
    except ReportKindError:
        raise ResultsError(f"{results!r} holds {data['kind']!r} results, of which nardy chart "
                           "draws no chart (it draws rollout, batch, analyze and openings "
                           "results)") from None
    if not (isinstance(data.get("results"), list) and data["results"]
            and all(isinstance(r, dict) for r in data["results"])):
        raise ResultsError(f"{results!r} holds no results to draw: 'results' must be a list of "
                           "objects")
    try:
        return data, list(chart_kinds(traced(data)))
    except MissingField as exc:
        raise ResultsError(f"{results!r} lacks {exc.path}, which its charts need") from None
