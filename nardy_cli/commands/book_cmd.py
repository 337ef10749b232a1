"""`nardy book`: build the opening book, show its entries, write the study guide."""

from __future__ import annotations

import sys

import click

from ..core.i18n import _
from .common import (INTERRUPTED, format_option, handle_errors, rules_options, show)
from .policy_names import check_policy

EPILOG = """\b
Examples:
  nardy book build --book my-book.jsonl.gz --depth white-1 --depth exchange
  nardy book build --book my-book.jsonl.gz --limit 21 --workers 2
  nardy book build --book my-book.jsonl.gz --executor dask --scheduler tcp://10.0.0.5:8786
  nardy book show
  nardy book show --depth white-2 --format csv
  nardy book guide --output docs
"""


@click.group("book", epilog=EPILOG)
def command() -> None:
    """The opening book: every decision of the opening's first turns, judged, with provenance.

    `build` judges the decisions a book file lacks (resumable: a killed build goes on where it
    stopped), `show` prints the book's entries, `guide` writes the study guide (docs/openings.md
    and a printable HTML page) from it.  `nardy openings` and `nardy analyze` answer from the
    shipped book.
    """


def book_option(default: str | None):
    """--book PATH: the book file."""
    return click.option("--book", "book", default=default, metavar="PATH",
                        help="The book file (.jsonl.gz)" + (
                            f" [default: {default}]." if default else
                            " [default: the book shipped with nardy]."))


@command.command("build", epilog="""\b
Examples:
  nardy book build --book my-book.jsonl.gz                      # White's first two turns
  nardy book build --book my-book.jsonl.gz --depth white-1 --depth exchange --workers 2
  nardy book build --book my-book.jsonl.gz --depth white-2 --limit 42   # the first 42 decisions
  nardy book build --book my-book.jsonl.gz --depth black-2 --games 324 --truncate 6
  nardy book build --book my-book.jsonl.gz --executor dask --scheduler tcp://10.0.0.5:8786
""")
@book_option("opening-book.jsonl.gz")
@click.option("--depth", "depths", multiple=True,
              type=click.Choice(["white-1", "exchange", "white-2", "black-2"]),
              help="Depths to build, in order [default: white-1, exchange, white-2].")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Only the first N decisions of each depth.")
@click.option("--policy", default="neural", show_default=True, metavar="NAME",
              callback=check_policy, help="Policy of the rankings and rollouts.")
@click.option("--filter", "filters", default="0.25,0.08,0.04", show_default=True,
              help="Stage margins: 0-ply to 1-ply, 1-ply to 2-ply, 2-ply to rollouts.")
@click.option("--games", type=click.IntRange(min=2), default=324, show_default=True,
              help="Rollout games per play left close after 2-ply.")
@click.option("--truncate", type=click.IntRange(min=0), default=8, show_default=True,
              help="Rollouts stop after this many plies (scored by the network, with VR).")
@click.option("--exchange-games", type=click.IntRange(min=2), default=648, show_default=True,
              help="Rollout games for each position after the first exchange.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=20261205, show_default=True,
              help="Random seed of every entry's rollouts.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes (one decision each).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Where decisions are judged.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler, e.g. tcp://10.0.0.5:8786.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or progress lines.")
@rules_options
@format_option
@handle_errors
def build_command(book, depths, limit, policy, filters, games, truncate, exchange_games, seed,
                  workers, executor, scheduler, quiet, rules, fmt) -> None:
    """Judge every decision of the chosen depths that the book file lacks.

    Each decision is ranked in stages (0-ply, 1-ply, 2-ply) and the plays the 2-ply stage
    cannot separate from the best are rolled out with variance reduction (truncated, common
    dice); each finished entry is written at once, so Ctrl-C or a kill loses only the entries
    under way and the same command goes on.  A depth keeps one network and one set of rules.
    """
    from ..book.build import DEFAULT_DEPTHS, build_book
    from ..book.entry import BookSettings
    from ..reports.render import Views
    from .progress import BookProgress
    settings = BookSettings(policy=policy, filters=tuple(f.strip() for f in filters.split(",")),
                            games=games, truncate=truncate, exchange_games=exchange_games,
                            seed=seed)
    bar = BookProgress(_("book"), not quiet)
    try:
        result = build_book(book, tuple(depths) or DEFAULT_DEPTHS, settings, rules,
                            workers=workers, executor=executor, scheduler=scheduler, limit=limit,
                            progress=bar)
    finally:
        bar.close()
    row = {"book": book, "entries": result.done, "of": result.total, "added": result.added,
           "seconds": round(result.seconds, 1), "cpu_seconds": round(result.cpu_seconds, 1),
           "bytes": result.size, "interrupted": result.interrupted}
    import pandas as pd
    show(fmt, Views(table=lambda: _("{book}: {done:,} of {total:,} entries ({added:,} added in "
                                    "{seconds:.0f} s, {cpu:.0f} CPU s), {size:,} bytes").format(
        book=book, done=result.done, total=result.total, added=result.added,
        seconds=result.seconds, cpu=result.cpu_seconds, size=result.size),
        frame=lambda: pd.DataFrame([row]), data=lambda: row))
    if result.interrupted:
        click.echo(_("Interrupted: the finished entries are kept; run the same command to go "
                     "on."), err=True)
        sys.exit(INTERRUPTED)
