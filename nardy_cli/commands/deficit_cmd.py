"""`nardy deficit`: the static move deficit of the side to move."""

from __future__ import annotations

import click

from ..analysis.deficit import static_deficit
from ..core.errors import NotAReportError
from ..core.i18n import _, side_words
from ..core.rules import rules_label
from ..reports.render import Views, table_text
from .common import (POSITION, BadInput, Shown, block_validation_option, flatten, format_option,
                     handle_errors, rules_options)


@click.command("deficit", epilog="""\b
Examples:
  nardy deficit "W:22,23,24x13 B:7,22x7,23,24x6 b"
  nardy deficit positions/study.txt --format csv
  nardy deficit positions/study.txt:deficit-heavy --output reports/deficit
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@rules_options
@format_option
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="Also write deficit.csv, faces.csv, steps.csv and the charts of each position "
                   "into this folder.")
@click.option("--svg", is_flag=True, help="With --output, draw the charts as SVG.")
@click.option("--force", is_flag=True,
              help="With --output, replace DIR even when it holds files that are not nardy output.")
@handle_errors
def command(positions, rules, fmt, output, svg, force, no_block_validation) -> None:
    """Static deficit of POSITION over the 36 rolls: full/partial/pass, lost pips,
    per face, 6x6 table."""
    items = flatten(positions)
    for flag, on in (("--svg", svg), ("--force", force)):
        if on and not output:
            raise BadInput(f"{flag} needs --output DIR")
    if output:
        from ..reports.folder import ensure_writable
        try:
            ensure_writable(output, force)
        except NotAReportError as exc:
            raise BadInput(f"{exc} (--force)") from None
    shown = Shown(fmt)
    for n, item in enumerate(items):
        d = static_deficit(item.position, rules)
        shown.add(Views(table=lambda: ("\n" if n else "") + _deficit_text(item, d, rules),
                        data=lambda: ({"name": item.name, **d.to_dict()} if item.name
                                      else d.to_dict()),
                        rows=lambda: [_deficit_row(item, d)]))
    shown.close()
    if output:
        from ..reports.deficit_folder import write_deficit_folder
        path = write_deficit_folder(items, rules, output, svg=svg, force=force)
        click.echo(_("Tables and charts written to {path}").format(path=path), err=True)


def _deficit_row(item, d) -> dict:
    """One position's deficit as a CSV row: the chances, the lost pips, each face's deficit and
    mobility."""
    row = {"name": item.name or "", "position": str(item.position), "p_full": d.p_full,
           "p_partial": d.p_partial, "p_pass": d.p_pass,
           "expected_lost_pips": d.expected_lost_pips}
    row.update({f"deficit_{f + 1}": v for f, v in enumerate(d.face_deficit)})
    row.update({f"mobility_{f + 1}": v for f, v in enumerate(d.mobility)})
    return row


def _deficit_text(item, d, rules) -> str:
    """One position's deficit for people: the chances, the faces' table, the 6x6 steps table."""
    head = (f"{item.name + ': ' if item.name else ''}{item.position}   "
            + _("{side} to move").format(**side_words(item.position.turn))
            + f"   ({rules_label(rules)})")
    chances = _("full {full:.4f}   partial {partial:.4f}   pass {passes:.4f}   expected lost "
                "pips {lost:.3f}").format(full=d.p_full, partial=d.p_partial, passes=d.p_pass,
                                          lost=d.expected_lost_pips)
    return "\n".join([head, chances, "", table_text(d.faces_frame()), "",
                      steps_table_text(d.steps_played)])


def steps_table_text(steps) -> str:
    """The 6x6 table of steps played per roll, with both dice labelled."""
    first = _("first die")
    lines = [_("steps played per roll (of 2, or 4 for a double; fewer, and none lost, "
               "when the last checker goes off)"),
             " " * (len(first) + 4) + _("second die"),
             f"{first}    " + "  ".join(str(b) for b in range(1, 7))]
    for a in range(6):
        lines.append(f"{a + 1:>{len(first)}}    "
                     + "  ".join(str(int(steps[a][b])) for b in range(6)))
    return "\n".join(lines)
