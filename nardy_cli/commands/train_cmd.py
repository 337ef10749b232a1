"""`nardy train`: TD(lambda) self-play training of the neural evaluator, resumable."""

from __future__ import annotations

import signal
import sys

import click

from ..core.interrupts import SIGNALS
from .common import GAMES, SEED, handle_errors, refuse_without


@click.group("train", invoke_without_command=True, epilog="""\b
Examples:
  nardy train --games 200000 --output reports/training/run1
  nardy train --games 400000 --output reports/training/run1        # resumes at 200,000
  nardy train --games 2000 --output /tmp/t --hidden 32 --bench-every 1000 --chunk 500
  nardy train --games 200000 --output reports/training/more --init nardy_cli/data/neural.npz \\
      --starts positions/lopsided.txt
  nardy train --games 300000 --output reports/training/wide --init nardy_cli/data/neural.npz \\
      --hidden 192 --lr 0.00025
  nardy train --games 200000 --output reports/training/values --init nardy_cli/data/neural.npz \\
      --player nardy_cli/data/neural.npz --lam 0.9 --lr 0.0005 --lr-floor 0.0005
  nardy train --games 300000 --output reports/training/blocks --init nardy_cli/data/neural.npz \\
      --input-version 2 --lr 0.0005 --lr-floor 0.00025
\b
Training runs for hours on 2 cores: start it in the background, e.g.
  nohup nardy train --games 2000000 --output reports/training/run1 > train.log 2>&1 &
The folder holds checkpoint.npz (resume point), best.npz (the best so far by
benchmark duels), log.csv (the learning curve) and learning-curve.png.
\b
Two more modes (docs/training.md), each with its own --help:
  nardy train rollout-set --output set.jsonl.gz --positions 2000   # positions rolled out
  nardy train supervised --set set.jsonl.gz --output cand.npz      # trained on them
""")
@click.option("--games", type=GAMES, default=None,
              help="Total games to train (counting earlier runs).")
@click.option("--output", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Training folder: checkpoint, best network, log and chart.")
@click.option("--hidden", type=click.IntRange(8, 512), default=None,
              help="Hidden units (a new run only)  [default: 128, or the --init network's]. "
                   "More than the --init "
                   "network's widens it: the new units start with zero output weights, "
                   "so its values are unchanged.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Seed of weights and self-play dice (a new run only).")
@click.option("--lr", type=click.FloatRange(min=0.0, min_open=True), default=0.005,
              show_default=True, help="Starting learning rate (a new run only).")
@click.option("--lr-floor", type=click.FloatRange(min=0.0, min_open=True), default=0.002,
              show_default=True,
              help="The learning rate halves every 400,000 games down to this floor, "
                   "or stays at --lr if that is lower (a new run only).")
@click.option("--lam", type=click.FloatRange(0.0, 1.0), default=0.7, show_default=True,
              help="TD lambda (a new run only).")
@click.option("--chunk", type=click.IntRange(1), default=2000, show_default=True,
              help="Games between progress updates (a new run only).")
@click.option("--checkpoint-every", type=click.IntRange(1), default=10000, show_default=True,
              help="Games between checkpoints; a multiple of --chunk (a new run only).")
@click.option("--bench-every", type=click.IntRange(1), default=50000, show_default=True,
              help="Games between benchmark duels against heuristic and the best so far (a "
                   "new run only).")
@click.option("--bench-pairs", type=GAMES, default=1000, show_default=True,
              help="Duplicate-dice pairs per benchmark duel (a new run only).")
@click.option("--init", "init", type=click.Path(dir_okay=False), default=None,
              help="Start from this network file's weights instead of random ones (a "
                   "new run only).")
@click.option("--starts", "starts_file", type=click.Path(dir_okay=False), default=None,
              help="A positions file: training games also start from these positions (a "
                   "new run only).")
@click.option("--start-share", type=click.FloatRange(0.0, 1.0), default=None,
              help="With --starts: the share of games still played from the start  [default: 0.5].")
@click.option("--player", type=click.Path(dir_okay=False), default=None,
              help="A network file that plays every training game; the trained network only "
                   "learns the values "
                   "of its play (policy evaluation)  [default: the trained network plays itself] "
                   "(a new run only).")
@click.option("--input-version", type=click.IntRange(1, 2), default=None,
              help="The inputs the network reads: 1, or 2 with blocks and timing "
                   "(docs/training.md); 2 from a version-1 --init starts with zero rows for the "
                   "new inputs, so its values are unchanged  [default: 1, or the --init "
                   "network's] (a new run only).")
@click.option("--quiet", is_flag=True, help="No progress line.")
@handle_errors
def command(games, out_dir, hidden, seed, lr, lr_floor, lam, chunk, checkpoint_every, bench_every,
            bench_pairs, init, starts_file, start_share, player, input_version, quiet) -> None:
    """Train the neural evaluator by TD(lambda) self-play, with checkpoints and benchmark duels.

    --games and --output are required unless a mode (rollout-set, supervised) follows.
    """
    if click.get_current_context().invoked_subcommand is not None:
        return
    for value, name in ((games, "--games"), (out_dir, "--output")):
        if value is None:
            raise click.UsageError(f"Missing option '{name}'.")
    from pathlib import Path

    from ..core.positions_file import read_positions
    from ..core.position import format_position
    from ..reports.training_curve import learning_curve_figure
    from ..training.trainer import LOG, TrainConfig, read_log, train
    from ..reports.folder import ensure_folder
    refuse_without(starts_file is not None, "--starts FILE", "start_share")
    ensure_folder(out_dir)  # before any work: bad input, exit 2
    starts = (tuple(format_position(e.position) for e in read_positions(starts_file)) if starts_file
              else ())
    share = start_share if start_share is not None else (0.5 if starts else 1.0)
    config = TrainConfig(hidden=hidden, seed=seed, lr=lr, lr_floor=lr_floor, lam=lam, chunk=chunk,
                         checkpoint_every=checkpoint_every, bench_every=bench_every,
                         bench_pairs=bench_pairs, init=init, starts=starts, start_share=share,
                         player=player, input_version=input_version)
    stopping = []

    def stop_after_chunk(signum, frame) -> None:
        """The first Ctrl-C (or SIGTERM, SIGHUP) stops after the chunk in play; a second one at
        once."""
        if stopping:
            raise KeyboardInterrupt
        stopping.append(signum)
        click.echo("\nStopping after the games in play (Ctrl-C again to stop at once, "
                   "losing them)...", err=True)

    for sig in SIGNALS:
        signal.signal(sig, stop_after_chunk)
    show = not quiet and sys.stderr.isatty()

    def progress(p) -> None:
        if show:
            bench = "" if p.last_bench is None else f", vs heuristic {p.last_bench:+.3f} ppg"
            click.echo(f"\r{p.games:,}/{p.target:,} games, {p.games_per_second:.0f} games/s, "
                       f"loss {p.loss:.4f}{bench}   ", err=True, nl=False)

    try:
        net = train(out_dir, games, config, progress=progress, stop=lambda: bool(stopping))
    except KeyboardInterrupt:
        click.echo("\nInterrupted: the last checkpoint is kept; run the same command to resume.",
                   err=True)
        sys.exit(130)
    if show:
        click.echo("", err=True)
    log = Path(out_dir) / LOG
    if log.exists():
        learning_curve_figure(read_log(log)).savefig(Path(out_dir) / "learning-curve.png", dpi=120)
    if stopping and net.meta["games_trained"] < games:
        click.echo(f"INTERRUPTED: trained {net.meta['games_trained']:,} of {games:,} "
                   "games; weights in "
                   f"{Path(out_dir) / 'checkpoint.npz'}; run the same command to resume")
        sys.exit(130)
    click.echo(f"trained {net.meta['games_trained']:,} games; "
               f"weights in {Path(out_dir) / 'checkpoint.npz'}")


def _modes() -> None:
    from .train_modes import rollout_set_command, supervised_command
    command.add_command(rollout_set_command)
    command.add_command(supervised_command)


_modes()
