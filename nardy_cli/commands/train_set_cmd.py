"""`nardy train rollout-set` and `nardy train supervised`: a training set of rolled-out positions,
and supervised training of the network on it."""

from __future__ import annotations

import sys

import click

from ..core.errors import ArgumentError
from .common import INTERRUPTED, format_option, handle_errors, show


def _shares(text: str, what: str) -> tuple[tuple[str, float], ...]:
    """`a=1,b=0.5` as ((a, 1.0), (b, 0.5)); a bad item is an `ArgumentError` quoting it."""
    out = []
    for item in text.split(","):
        name, _, value = item.partition("=")
        try:
            out.append((name.strip(), float(value)))
        except ValueError:
            raise ArgumentError(f"{what} takes NAME=SHARE items separated by commas, got "
                                f"{item!r}") from None
    return tuple(out)


@click.command("rollout-set", epilog="""\b
Examples:
  nardy train rollout-set --output set.jsonl.gz --positions 20 --games 36 --truncate 4
  nardy train rollout-set --output experiments/rollout-set/set.jsonl.gz --positions 3000 \\
      --workers 2                                 # the same command again resumes it
  nohup nice -n 19 nardy train rollout-set --output experiments/rollout-set/set.jsonl.gz \\
      --positions 3000 --quiet > build.log 2>&1 &
\b
Each position is appended when its rollout finishes: a kill loses only the
positions under way, and the same command goes on. The file's first line holds
the settings; a file made with other settings is refused.
""")
@click.option("--output", required=True, type=click.Path(dir_okay=False),
              help="The set's file (gzip JSON lines); resumed when it exists.")
@click.option("--positions", type=click.IntRange(min=1), required=True,
              help="Positions in the set when the build is done.")
@click.option("--games", type=click.IntRange(min=1), default=216, show_default=True,
              help="Rollout games a position (stratified over the first roll: a multiple of 36).")
@click.option("--truncate", type=click.IntRange(min=0), default=10, show_default=True,
              help="Rollouts stop after this many plies and are scored by the network (with VR).")
@click.option("--seed", type=click.IntRange(0, 2**62), default=52, show_default=True,
              help="Seed of the self-play sample, the book's and benchmark's order and every "
                   "rollout.")
@click.option("--mix", default="selfplay=0.8,book=0.1,benchmark=0.1", show_default=True,
              help="Share of the positions from each source: selfplay, book, benchmark.")
@click.option("--weights", default="contact=2,blocked=3,race=0.5,bearoff=0.25,opening=0.5",
              show_default=True, help="Self-play decisions drawn a game, by phase.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local worker processes (one position each).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True, help="Where positions are rolled out.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler, e.g. tcp://10.0.0.5:8786.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or progress lines.")
@format_option
@handle_errors
def rollout_set_command(output, positions, games, truncate, seed, mix, weights, workers, executor,
                        scheduler, quiet, fmt) -> None:
    """Build (or resume) a training set: positions from self-play (weighted to contact and
    blocked play), the opening book and the benchmark, each rolled out by `neural` with
    variance reduction, truncation and the bear-off databases (docs/training.md)."""
    import pandas as pd

    from ..reports.render import Views
    from ..training.rollout_set import SetSettings, build_set
    from .progress import BookProgress
    settings = SetSettings(seed=seed, games=games, truncate=truncate,
                           mix=_shares(mix, "--mix"), weights=_shares(weights, "--weights"))
    bar = BookProgress("rollout set", not quiet)
    try:
        result = build_set(output, positions, settings, workers=workers, executor=executor,
                           scheduler=scheduler, progress=bar)
    finally:
        bar.close()
    row = {"set": output, "positions": result.total, "of": positions, "added": result.added,
           "seconds": round(result.seconds, 1), "cpu_seconds": round(result.cpu_seconds, 1),
           "interrupted": result.interrupted}
    show(fmt, Views(table=lambda: (f"{output}: {result.total:,} of {positions:,} positions "
                                   f"({result.added:,} added in {result.seconds:.0f} s, "
                                   f"{result.cpu_seconds:.0f} CPU s)"),
                    frame=lambda: pd.DataFrame([row]), data=lambda: row))
    if result.interrupted:
        click.echo("Interrupted: the finished positions are kept; run the same command to go on.",
                   err=True)
        sys.exit(INTERRUPTED)


@click.command("supervised")
def supervised_command() -> None:
    """Train the network on a rolled-out training set (not yet)."""
