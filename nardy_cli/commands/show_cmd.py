"""`nardy show`: a board diagram of a position, as text or as a PNG, SVG or PDF image."""

from __future__ import annotations

from pathlib import Path

import click

from ..core.diagram import board_diagram
from ..core.errors import WriteError
from ..core.i18n import _
from ..reports.figures import IMAGE_SUFFIXES
from .common import POSITION, BadInput, block_validation_option, flatten, given, handle_errors


@click.command("show", epilog="""\b
Examples:
  nardy show start
  nardy show "W:1x14,12 B:1x15 b 6-6" --numbering black
  nardy show "W:1x13,7,12 B:1x14,7 w 4-2" -o board.png
  nardy show positions/study.txt:race -o race.svg
  nardy show positions/study.txt
  nardy show start --id
  nardy show H__AAAA__4AAAA
  nardy show positions/study.txt:race positions/study.txt:bear-off --output boards/endgames
""")
@block_validation_option
@click.argument("positions", type=POSITION, nargs=-1, required=True, metavar="POSITION...")
@click.option("--numbering", type=click.Choice(["white", "black"]), default="white",
              show_default=True, help="Whose numbering runs along the bottom row.")
@click.option("--format", "fmt", type=click.Choice(["text", "png", "svg", "pdf"]), default=None,
              help="text (default), or an image drawn for print; with -o it is taken from the "
                   "file's suffix.")
@click.option("-o", "--out", type=click.Path(dir_okay=False), default=None,
              help="Write to FILE: .png, .svg or .pdf for an image, .txt for the text diagram.")
@click.option("--id", "show_id", is_flag=True,
              help="Print the position ID instead (14 characters; any POSITION argument "
                   "accepts it).")
@click.option("--output", "output", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Draw every position (e.g. of a positions file) into DIR: "
                   "one PNG each (SVG with --svg) and index.md listing them.")
@click.option("--svg", is_flag=True, help="With --output, draw the boards as SVG.")
@handle_errors
def command(positions, numbering: str, fmt: str | None, out: str | None, show_id: bool,
            output: str | None, svg: bool, no_block_validation: bool) -> None:
    """Draw POSITION: both numberings, off and pip counts, side to move and dice."""
    items = flatten(positions)
    if show_id:
        if out is not None or fmt is not None or output is not None or given("numbering"):
            raise BadInput("--id prints the position ID: it takes no -o, --output, --format or "
                           "--numbering")
        from ..core.position_id import format_position_id
        for item in items:
            click.echo(f"{item.name}: {format_position_id(item.position)}" if item.name
                       else format_position_id(item.position))
        return
    if output is not None:
        _write_folder(items, numbering, output, svg, fmt, out)
        return
    if svg:
        raise BadInput("--svg needs --output DIR (the folder of boards)")
    fmt = _output_format(fmt, out)
    if fmt != "text":
        if len(items) != 1:
            raise BadInput("an image shows one position: name one with FILE:NAME")
        from ..reports.board_figure import draw_board
        from ..reports.figures import save_figure
        path = Path(out)
        try:
            save_figure(draw_board(items[0].position, numbering[0], name=items[0].name), path)
        except OSError as exc:
            raise WriteError(f"cannot write {str(path)!r}: {exc.strerror}") from None
        click.echo(_("Board written to {path}").format(path=path), err=True)
        return
    blocks = []
    for item in items:
        head = f"{item.name}: {item.position}\n" if item.name else ""
        blocks.append(head + board_diagram(item.position, numbering[0]))
    text = "\n\n".join(blocks)
    if out is None:
        click.echo(text)
        return
    try:
        Path(out).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise WriteError(f"cannot write {out!r}: {exc.strerror}") from None
    click.echo(_("Board written to {path}").format(path=out), err=True)


def _write_folder(items, numbering: str, output: str, svg: bool, fmt, out) -> None:
    """`--output DIR`: every position drawn into DIR, with index.md."""
    if fmt is not None or out is not None:
        raise BadInput("--output DIR draws every position into a folder: leave out -o and --format")
    from ..reports.folder import ensure_writable
    from ..reports.board_folder import write_boards
    ensure_writable(output)
    path = write_boards(items, output, numbering=numbering[0], svg=svg)
    count = _("1 board") if len(items) == 1 else _("{n} boards").format(n=len(items))
    click.echo(_("{count} and index.md written to {path}").format(count=count, path=path), err=True)


SUFFIX_FORMATS = {".txt": "text"} | {s: s[1:] for s in IMAGE_SUFFIXES}


def _output_format(fmt: str | None, out: str | None) -> str:
    """The format --format names or -o's suffix implies; a mismatch or an image without a file is an
    error."""
    if out is None:
        if fmt not in (None, "text"):
            raise BadInput(f"--format {fmt} needs -o FILE.{fmt}")
        return "text"
    suffix = Path(out).suffix.lower()
    implied = SUFFIX_FORMATS.get(suffix)
    if implied is None:
        raise BadInput(f"cannot tell the format of {out!r}: name a .png, .svg, .pdf or .txt file")
    if fmt is not None and fmt != implied:
        raise BadInput(f"--format {fmt} does not match the file {out!r}: "
                       f"use a .{'txt' if fmt == 'text' else fmt} name")
    return implied
