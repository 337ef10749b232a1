"""The options of every command that plays games, given to the command as one `RunConfig`."""

from __future__ import annotations

import functools
from typing import Callable

import click

from ..core.errors import NardyError
from ..games import DEFAULT_SEED, EXECUTORS, RunConfig, default_workers
from .common import SEED, BadInput, error_message

RUN_FIELDS = ("games", "until_se", "seed", "workers", "stratify", "executor", "scheduler")


def run_options(func: Callable) -> Callable:
    """--games, --until-se, --seed, --workers, --stratify, --executor, --scheduler and --quiet: the
    command receives `run` (a `RunConfig` without progress; --workers defaults to all cores) and
    `quiet`."""
    return _run_options(func, RUN_FIELDS)


def run_options_without_stop_rule(func: Callable) -> Callable:
    """`run_options` without --until-se, for a command that has no stop rule (`duel`): an option it
    would only refuse is not offered."""
    return _run_options(func, tuple(f for f in RUN_FIELDS if f != "until_se"))


def _run_options(func: Callable, names: tuple[str, ...]) -> Callable:
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        fields = {name: kwargs.pop(name) for name in names}
        fields["workers"] = fields["workers"] or default_workers()
        try:
            run = RunConfig(**fields)
        except NardyError as exc:      # a value the option types let through (--until-se 0): exit 2
            raise BadInput(error_message(exc, click.get_current_context(silent=True))) from None
        return func(*args, run=run, **kwargs)

    options = [
        click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True,
                     help="Games to play (the maximum with --until-se)." if "until_se" in names
                     else "Games to play."),
        click.option("--until-se", type=float, default=None, metavar="X",
                     help="Stop once the equity's standard error is at most X (checked every 1,296 "
                          "games)."),
        click.option("--seed", type=SEED, default=DEFAULT_SEED,
                     show_default=True,
                     help="Random seed; game i's dice depend only on the seed and i."),
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Worker processes [default: all cores]."),
        click.option("--stratify/--no-stratify", default=True, show_default=True,
                     help="Stratify the first two rolls over blocks of 36 and 1,296 games."),
        click.option("--executor", type=click.Choice(EXECUTORS), default="local", show_default=True,
                     help="Where games run: local processes or a Dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Dask scheduler, e.g. tcp://10.0.0.5:8786."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    ]
    for name, opt in reversed(list(zip((*RUN_FIELDS, "quiet"), options))):
        if name in names or name == "quiet":
            wrapper = opt(wrapper)
    return wrapper
