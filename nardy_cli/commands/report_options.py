"""The report-folder options shared by rollout, analyze, openings and batch: --output, --html,
--svg, --force."""

from __future__ import annotations

import click

from ..core.i18n import _
from .common import BadInput


def report_options(func):
    """--output DIR, --html, --svg and --force."""
    func = click.option("--force", is_flag=True,
                        help="With --output, replace DIR even when it holds files that are not a "
                             "nardy report.")(func)
    func = click.option("--svg", is_flag=True,
                        help="With --output, draw charts and boards as SVG.")(func)
    func = click.option("--html", is_flag=True,
                        help="With --output, also write a self-contained report.html.")(func)
    return click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
                        help="Write results.json, results.csv, boards, charts and report.md into "
                             "this folder "
                             "(an interrupted run writes DIR-interrupted instead).")(func)


def check_report_flags(output, html: bool, svg: bool, force: bool) -> None:
    """--html, --svg and --force shape a report folder, so they need --output; check DIR before any
    work."""
    from ..core.errors import NotAReportError
    from ..reports.folder import ensure_writable
    for flag, on in (("--html", html), ("--svg", svg), ("--force", force)):
        if on and not output:
            raise BadInput(f"{flag} needs --output DIR (the report folder to write)")
    try:
        ensure_writable(output, force)
    except NotAReportError as exc:
        raise BadInput(f"{exc} (--force)") from None


def finish_report(data: dict, output, html: bool, svg: bool, force: bool) -> None:
    """Write the report folder, saying where it went."""
    if not output:
        return
    from pathlib import Path

    from ..reports.folder import write_report
    from ..reports.report import folder_renderer
    existed = Path(output).exists()
    path = write_report(data, output, folder_renderer(data, html=html, svg=svg), force=force)
    if str(path) != str(output):
        kept = _("; {output} was left as it was").format(output=output) if existed else ""
        click.echo(_("Warning: the run was interrupted, "
                     "so its report went to {written}").format(written=path) + kept,
                   err=True)
    click.echo(_("Report written to {path}").format(path=path), err=True)
