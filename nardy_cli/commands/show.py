"""`nardy show`: a board diagram of a position, as text or as a PNG/SVG image."""

from __future__ import annotations

from pathlib import Path

import click

from ..diagram import board_diagram
from ..errors import NardyError
from .common import POSITION, BadInput, block_validation_option, flatten, handle_errors


@click.command("show", epilog="""\b
Examples:
  nardy show start
  nardy show "W:1x14,12 B:1x15 b 6-6" --numbering black
  nardy show "W:1x13,7,12 B:1x14,7 w 4-2" --format png -o board.png
  nardy show positions/study.txt
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--numbering", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="Whose numbering runs along the bottom row.")
@click.option("--format", "fmt", type=click.Choice(["text", "png", "svg"]), default="text", show_default=True,
              help="A text diagram, or an image drawn for print.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), default=None,
              help="Image file for --format png/svg.")
@handle_errors
def command(positions, numbering: str, fmt: str, out: str | None, no_block_validation: bool) -> None:
    """Draw POSITION: both numberings, off and pip counts, side to move and dice."""
    items = flatten(positions)
    if fmt != "text":
        if not out:
            raise BadInput(f"--format {fmt} needs -o FILE.{fmt}")
        if len(items) != 1:
            raise BadInput("an image shows one position: name one with FILE:NAME")
        from ..study.board_figure import draw_board
        from ..study.report import save_figure
        path = Path(out)
        if path.suffix.lower() != f".{fmt}":
            path = path.with_suffix(f".{fmt}")
        try:
            save_figure(draw_board(items[0].position, numbering[0], title=None), path)
        except OSError as exc:
            raise NardyError(f"cannot write {str(path)!r}: {exc.strerror}") from None
        click.echo(f"Board written to {path}", err=True)
        return
    for i, item in enumerate(items):
        if i:
            click.echo()
        if item.name:
            click.echo(f"{item.name}: {item.position}")
        click.echo(board_diagram(item.position, numbering[0]))
