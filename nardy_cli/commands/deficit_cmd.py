"""`nardy deficit`: the static move deficit of the side to move."""

from __future__ import annotations

import click
import pandas as pd

from ..deficit import static_deficit
from ..position import SIDE_NAMES
from ..render import frame_text, to_json
from .common import POSITION, block_validation_option, flatten, format_option, handle_errors, rules_options


@click.command("deficit", epilog="""\b
Examples:
  nardy deficit "W:22,23,24x13 B:7,22x7,23,24x6 b"
  nardy deficit positions/study.txt --format csv
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@rules_options
@format_option
@handle_errors
def command(positions, rules, fmt, no_block_validation) -> None:
    """Static deficit of POSITION over the 36 rolls: full/partial/pass, lost pips, per face, 6x6 table."""
    items = flatten(positions)
    rows = []
    for n, item in enumerate(items):
        d = static_deficit(item.position, rules)
        if fmt == "json":
            record = d.to_dict()
            click.echo(to_json({"name": item.name, **record} if item.name else record))
            continue
        if fmt == "csv":
            row = {"name": item.name or "", "position": str(item.position), "p_full": d.p_full,
                   "p_partial": d.p_partial, "p_pass": d.p_pass, "expected_lost_pips": d.expected_lost_pips}
            row.update({f"deficit_{f + 1}": v for f, v in enumerate(d.face_deficit)})
            row.update({f"mobility_{f + 1}": v for f, v in enumerate(d.mobility)})
            rows.append(row)
            continue
        if n:
            click.echo()
        click.echo(f"{item.name + ': ' if item.name else ''}{item.position}   "
                   f"{SIDE_NAMES[item.position.turn]} to move")
        click.echo(f"full {d.p_full:.4f}   partial {d.p_partial:.4f}   pass {d.p_pass:.4f}   "
                   f"expected lost pips {d.expected_lost_pips:.3f}")
        click.echo()
        click.echo(frame_text(d.faces_frame(), "table"))
        click.echo()
        click.echo("steps played per roll (rows: one die, columns: the other)")
        click.echo(d.table_frame().to_string())
    if fmt == "csv":
        click.echo(frame_text(pd.DataFrame(rows), "csv"))
