"""`nardy moves`: the legal plays of one roll or of all 21 rolls."""

from __future__ import annotations

import click

from ..core.engine import roll_plays
from ..core.i18n import N_, _, translate
from ..reports.render import frame_text, to_json
from .common import (DICE, POSITION, block_validation_option, flatten, format_option, handle_errors,
                     rules_options)


@click.command("moves", epilog="""\b
Examples:
  nardy moves start --dice 6-5
  nardy moves "W:1x14,21 B:1x15 b" --dice 4-4 --head-rule doubles-643
  nardy moves "W:1x14,12 B:1x15 b 6-6" --format json
  nardy moves positions/openings.txt:r65 --format csv
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--dice", type=DICE, default=None,
              help="The roll, e.g. 6-5; default: the position's dice, else all 21.")
@rules_options
@format_option
@handle_errors
def command(positions, dice, rules, fmt: str, no_block_validation: bool) -> None:
    """List every distinct legal play of POSITION with the position it leads to."""
    items = flatten(positions)
    rows = []
    for item in items:
        rolls = roll_plays(item.position, dice, rules)
        if fmt == "json":
            record = {"position": str(item.position), "rules": rules.to_dict(),
                      "rolls": [{"dice": str(d), "plays": [{"play": str(p), "result": str(p.result)}
                                                           for p in plays]}
                                for d, plays in rolls]}
            if item.name is not None:
                record = {"name": item.name, **record}
            click.echo(to_json(record))
        elif fmt == "csv":
            rows += [{"name": item.name or "", "position": str(item.position), "dice": str(d),
                      "n": i + 1, "play": str(p), "result": str(p.result)}
                     for d, plays in rolls for i, p in enumerate(plays)]
        else:
            if len(items) > 1 or item.name:
                click.echo(f"{item.name + ': ' if item.name else ''}{item.position}")
            for d, plays in rolls:
                word = N_("play") if len(plays) == 1 else N_("plays")
                click.echo(f"{d}: " + _("{n} {word}").format(n=len(plays), word=translate(word),
                                                             words=_("plays")))
                width = max(len(str(p)) for p in plays)
                for i, p in enumerate(plays, 1):
                    click.echo(f"  {i:>3}  {str(p):<{width}}  {p.result}")
    if fmt == "csv":
        import pandas as pd  # only the CSV output needs it
        frame = pd.DataFrame(rows, columns=["name", "position", "dice", "n", "play", "result"])
        click.echo(frame_text(frame, "csv"))
