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



@click.command("supervised", epilog="""\b
Examples:
  nardy train supervised --set set.jsonl.gz --output cand.npz
  nardy train supervised --set set.jsonl.gz --output cand.npz --epochs 20 --lr 0.0002 \\
      --anchor 0.01 --curve curve.csv --chart curve.png
  nardy train supervised --set set.jsonl.gz --output fresh.npz --init none --hidden 128 \\
      --lr 0.001
\b
The held-back part (--valid-share of the records, by a hash of each record's
index) is measured after every epoch; the weights of the best validation
epoch are written.
""")
@click.option("--set", "set_file", required=True, type=click.Path(dir_okay=False, exists=True),
              help="A training set (`nardy train rollout-set`).")
@click.option("--output", required=True, type=click.Path(dir_okay=False),
              help="The trained network's file (.npz).")
@click.option("--init", default=None,
              help="A network file to start from, or `none` for fresh weights (--hidden units)  "
                   "[default: the shipped network].")
@click.option("--hidden", type=click.IntRange(8, 512), default=128, show_default=True,
              help="Hidden units of fresh weights (with --init none).")
@click.option("--epochs", type=click.IntRange(min=0), default=30, show_default=True,
              help="Passes over the training part.")
@click.option("--batch", type=click.IntRange(min=1), default=64, show_default=True,
              help="Positions a gradient step.")
@click.option("--lr", type=click.FloatRange(min=0.0, min_open=True), default=1e-4,
              show_default=True, help="Adam's learning rate.")
@click.option("--anchor", type=click.FloatRange(min=0.0), default=0.0, show_default=True,
              help="L2 pull of every weight towards its starting value.")
@click.option("--valid-share", type=click.FloatRange(0.0, 1.0, min_open=True, max_open=True),
              default=0.2, show_default=True, help="Share of the records held back.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Use only the set's positions 0..LIMIT-1.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the batches' order and of fresh weights.")
@click.option("--curve", type=click.Path(dir_okay=False), default=None,
              help="Write the curve (one row an epoch) to this CSV file.")
@click.option("--chart", type=click.Path(dir_okay=False), default=None,
              help="Draw the curve into this PNG file.")
@click.option("--quiet", "-q", is_flag=True, help="No line per epoch.")
@format_option
@handle_errors
def supervised_command(set_file, output, init, hidden, epochs, batch, lr, anchor, valid_share,
                       limit, seed, curve, chart, quiet, fmt) -> None:
    """Train the network on a rolled-out training set: from today's weights (or fresh ones),
    a validation part held back, the best validation epoch's weights written."""
    from ..policies.network import load_network, new_network, save_network
    from ..reports.render import Views
    from ..training.rollout_set import first_records, read_set
    from ..training.supervised import SupervisedConfig, train_supervised
    _, records, _ = read_set(set_file)
    if limit is not None:
        records = first_records(records, limit)
    from ..policies.network import default_network
    if init is None:
        start = default_network()
    else:
        start = new_network(hidden, seed) if init.lower() == "none" else load_network(init)
    config = SupervisedConfig(epochs=epochs, batch=batch, lr=lr, anchor=anchor,
                              valid_share=valid_share, seed=seed)

    def progress(row) -> None:
        if not quiet:
            click.echo(f"epoch {row.epoch}: training {row.train_loss:.5f}, validation "
                       f"{row.valid_loss:.5f} (blocked {row.valid_blocked_loss:.5f}), equity RMSE "
                       f"{row.valid_equity_rmse:.4f}", err=True)

    result = train_supervised(start, records, config, progress)
    result.network.meta["supervised"]["set"] = str(set_file)
    save_network(result.network, output)
    frame = result.frame()
    if curve:
        frame.to_csv(curve, index=False)
    if chart:
        from ..reports.training_curve import supervised_curve_figure
        supervised_curve_figure(frame).savefig(chart, dpi=120)
    best = result.rows[result.best_epoch]
    row = {"network": output, "records": len(records), "train": result.train_size,
           "valid": result.valid_size, "best_epoch": result.best_epoch,
           "valid_loss_start": round(result.rows[0].valid_loss, 6),
           "valid_loss_best": round(best.valid_loss, 6),
           "valid_equity_rmse_start": round(result.rows[0].valid_equity_rmse, 5),
           "valid_equity_rmse_best": round(best.valid_equity_rmse, 5)}
    import pandas as pd
    show(fmt, Views(table=lambda: (
        f"{output}: epoch {result.best_epoch} of {epochs} (best on validation); "
        f"{result.train_size:,} positions trained, {result.valid_size:,} held back; "
        f"validation loss {result.rows[0].valid_loss:.5f} -> {best.valid_loss:.5f}, "
        f"equity RMSE {result.rows[0].valid_equity_rmse:.4f} -> {best.valid_equity_rmse:.4f}"),
        frame=lambda: pd.DataFrame([row]), data=lambda: row))
