"""`nardy moves`: the legal plays of one roll or of all 21 rolls."""

from __future__ import annotations

import click

from ..core.engine import roll_plays
from ..core.i18n import N_, _, translate
from ..reports.render import Views
from .common import (DICE, POSITION, Shown, block_validation_option, flatten, format_option,
                     handle_errors, rules_options)


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
    shown = Shown(fmt, columns=["name", "position", "dice", "n", "play", "result"])
    for item in items:
        rolls = roll_plays(item.position, dice, rules)
        shown.add(Views(table=lambda: _plays_text(item, rolls, len(items) > 1),
                        data=lambda: _plays_data(item, rolls, rules),
                        rows=lambda: [{"name": item.name or "", "position": str(item.position),
                                       "dice": str(d), "n": i + 1, "play": str(p),
                                       "result": str(p.result)}
                                      for d, plays in rolls for i, p in enumerate(plays)]))
    shown.close()


def _plays_data(item, rolls, rules) -> dict:
    """One position's plays as JSON data: each roll's plays and results."""
    record = {"position": str(item.position), "rules": rules.to_dict(),
              "rolls": [{"dice": str(d), "plays": [{"play": str(p), "result": str(p.result)}
                                                   for p in plays]}
                        for d, plays in rolls]}
    return {"name": item.name, **record} if item.name is not None else record


def _plays_text(item, rolls, several: bool) -> str:
    """One position's plays for people: each roll's count, then its plays and results."""
    lines = []
    if several or item.name:
        lines.append(f"{item.name + ': ' if item.name else ''}{item.position}")
    for d, plays in rolls:
        word = N_("play") if len(plays) == 1 else N_("plays")
        lines.append(f"{d}: " + _("{n} {word}").format(n=len(plays), word=translate(word),
                                                      words=_("plays")))
        width = max(len(str(p)) for p in plays)
        lines += [f"  {i:>3}  {str(p):<{width}}  {p.result}" for i, p in enumerate(plays, 1)]
    return "\n".join(lines)
