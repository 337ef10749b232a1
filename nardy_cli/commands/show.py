"""`nardy show`: a board diagram of a position."""

from __future__ import annotations

import click

from ..diagram import board_diagram
from .common import POSITION, block_validation_option, flatten, handle_errors


@click.command("show", epilog="""\b
Examples:
  nardy show start
  nardy show "W:1x14,12 B:1x15 b 6-6" --numbering black
  nardy show positions/study.txt
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--numbering", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="Whose numbering runs along the bottom row.")
@handle_errors
def command(positions, numbering: str, no_block_validation: bool) -> None:
    """Draw POSITION as a text board: both numberings, off and pip counts, side to move, dice."""
    items = flatten(positions)
    for i, item in enumerate(items):
        if i:
            click.echo()
        if item.name:
            click.echo(f"{item.name}: {item.position}")
        click.echo(board_diagram(item.position, numbering[0]))
