"""`nardy book`: build the opening book, show its entries, write the study guide."""

from __future__ import annotations

import sys

import click

from ..core.i18n import _
from ..core.limits import MAX_KEPT_GAMES
from .common import (INTERRUPTED, SEED, format_option, handle_errors, rules_options, show)
from .policy_names import check_policy

EPILOG = """\b
Examples:
  nardy book build --book my-book.jsonl.gz --depth white-1 --depth exchange
  nardy book build --book my-book.jsonl.gz --limit 21 --workers 2
  nardy book build --book my-book.jsonl.gz --executor dask --scheduler ADDRESS
  nardy book show
  nardy book show --depth white-2 --format csv
  nardy book guide --output docs
"""


@click.group("book", epilog=EPILOG)
def command() -> None:
    """The opening book: build it, show its entries, write the study guide from it.

    The book holds every decision of the opening's first turns, judged, with provenance.
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
@click.option("--games", type=click.IntRange(2, MAX_KEPT_GAMES), default=324, show_default=True,
              help="Rollout games per play left close after 2-ply.")
@click.option("--truncate", type=click.IntRange(min=0), default=8, show_default=True,
              help="Rollouts stop after this many plies (scored by the network, with VR).")
@click.option("--exchange-games", type=click.IntRange(2, MAX_KEPT_GAMES), default=648,
              show_default=True,
              help="Rollout games for each position after the first exchange.")
@click.option("--seed", type=SEED, default=20261205, show_default=True,
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


@command.command("show", epilog="""\b
Examples:
  nardy book show                                  # how far the shipped book is built
  nardy book show --depth white-2 --format csv     # every judged play of White's second turn
  nardy book show --book my-book.jsonl.gz --depth exchange
""")
@book_option(None)
@click.option("--depth", default=None,
              type=click.Choice(["white-1", "exchange", "white-2", "black-2"]),
              help="Every judged play of this depth (one row each) instead of the summary.")
@format_option
@handle_errors
def show_command(book, depth, fmt) -> None:
    """How far the book is built (entries per depth, CPU time, provenance), or every judged play
    of one depth as a table (the library's `Book.frame()`)."""
    from ..book.read import load_book
    from ..reports.render import Views, table_text
    loaded = load_book(book)
    if depth is not None:
        frame = loaded.frame()
        frame = frame[frame["depth"] == depth] if not frame.empty else frame
        show(fmt, Views(table=lambda: table_text(frame), frame=lambda: frame,
                        data=lambda: {"rows": frame.to_dict("records")}))
        return
    frame = _summary(loaded)
    prov = loaded.provenance()
    show(fmt, Views(table=lambda: "\n".join([_("{path}: {n:,} entries").format(
        path=loaded.path, n=len(loaded.entries)), table_text(frame)]),
        frame=lambda: frame, data=lambda: {"path": str(loaded.path),
                                           "depths": frame.to_dict("records"),
                                           "provenance": prov}))


def _summary(book):
    """Entries, plays and CPU seconds per depth."""
    import pandas as pd
    rows: dict[str, dict] = {}
    for entry in book.entries.values():
        row = rows.setdefault(entry["depth"], {"depth": entry["depth"], "entries": 0,
                                               "rolled_out": 0, "cpu_seconds": 0.0})
        row["entries"] += 1
        row["rolled_out"] += entry["method"].startswith("rollout")
        row["cpu_seconds"] = round(row["cpu_seconds"] + entry.get("cpu_seconds", 0.0), 1)
    return pd.DataFrame(list(rows.values()))


@command.command("guide", epilog="""\b
Examples:
  nardy book guide --output docs                     # docs/openings.md, .html, openings/*.png
  nardy book guide --book my-book.jsonl.gz --output my-guide
""")
@book_option(None)
@click.option("--output", default="docs", show_default=True, metavar="DIR",
              help="Folder for openings.md, openings.html and the images (openings/).")
@rules_options
@handle_errors
def guide_command(book, output, rules) -> None:
    """Write the study guide from the book: docs/openings.md with its charts and boards, and a
    printable, self-contained HTML page; lessons in English and Russian."""
    from pathlib import Path

    from ..book.read import load_book
    from ..reports.book_guide import write_guide
    Path(output).mkdir(parents=True, exist_ok=True)
    paths = write_guide(load_book(book), rules, output)
    click.echo(_("Wrote {md} and {page} (images in {images})").format(
        md=paths["markdown"], page=paths["html"], images=paths["images"]))
