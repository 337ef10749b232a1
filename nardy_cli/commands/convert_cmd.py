"""`nardy convert`: game records between .mat match transcripts and nardy's own record format."""

from __future__ import annotations

import sys

import click

from ..records.files import read_games, write_text
from ..records.formats import (RECORD_FORMATS, RecordOptions, counterpart, format_of_path,
                               format_of_text, record_format)
from .common import handle_errors, mat_numbering_option


@click.command("convert", epilog="""\b
Examples:
  nardy convert games/bot-match.mat reports/bot-match.txt
  nardy convert games/bot-game.txt bot-game.mat
  nardy convert games/bot-match.mat - --to nardy
  nardy play heuristic racer -n 5 --format mat | nardy convert - session.txt
  nardy convert games/bot-match.txt reports/bot-match-head1.mat --mat-numbering head-1
""")
@click.argument("source", metavar="IN")
@click.argument("target", metavar="OUT")
@click.option("--to", "to", type=click.Choice(list(RECORD_FORMATS)), default=None,
              help="Format of OUT [default: mat for a .mat name, nardy's records for any other; "
                   "for - the other format than IN's].")
@mat_numbering_option
@handle_errors
def command(source: str, target: str, to: str | None, mat_numbering: str) -> None:
    """Convert game records between .mat match transcripts and nardy's record format (either way).

    IN is a .mat transcript or a nardy record (one game or a match), - for stdin; its
    kind is read from its content. OUT is written whole or not at all (- for stdout).
    Every play is replayed and checked on the way.
    """
    options = RecordOptions(mat_numbering)
    if source == "-":
        text = sys.stdin.read()
        kind = format_of_text(text)
        record = kind.read(text, options)
    else:
        record, kind = read_games(source, numbering=mat_numbering), format_of_path(source)
    fmt = (record_format(to) if to else counterpart(kind) if target == "-"
           else format_of_path(target))
    text = fmt.write(record, options)
    if target == "-":
        click.echo(text, nl=False)
        return
    write_text(target, text)
    click.echo(f"{target}: {_describe(record)}, written as {fmt.title}", err=True)


def _describe(record) -> str:
    """`1 game`, `a match to 7 points of 5 games`, `a money session of 200 games`."""
    games = getattr(record, "games", None)
    if games is None:
        return "1 game"
    if record.length == 0:
        return f"a money session of {len(games)} game{'s' if len(games) != 1 else ''}"
    return f"a match to {record.length} points of {len(games)} game{'s' if len(games) != 1 else ''}"
