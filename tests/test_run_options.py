"""The run configuration (issue 26): one `RunConfig` value built by one shared click decorator,
checked when made, and passed whole to the library."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from nardy_cli.commands.common import handle_errors
from nardy_cli.commands.run_options import run_options
from nardy_cli.core.errors import ArgumentError, RunConfigError
from nardy_cli.games import DEFAULT_SEED, RunConfig, default_workers, run_config

SEEN: list = []
DASK = "tcp://10.0.0.5:8786"


@click.command()
@run_options
@handle_errors
def probe(run, quiet) -> None:
    """A command that only keeps what the decorator gave it."""
    SEEN.append((run, quiet))


def invoke(*args: str):
    SEEN.clear()
    return CliRunner().invoke(probe, list(args))


def test_the_defaults_are_the_commands_defaults():
    """Catches a default lost when the options moved into one value: 10,000 games, no stop rule,
    the fixed seed, every core (not one worker), stratified, this machine, no scheduler, a bar."""
    out = invoke()
    assert out.exit_code == 0, out.output
    expected = RunConfig(10000, None, DEFAULT_SEED, default_workers(), True, "local", None)
    assert SEEN == [(expected, False)]


def test_every_option_reaches_the_value():
    """Catches an option parsed but not carried into the `RunConfig` (say --no-stratify or
    --scheduler dropped, so the library runs its own default)."""
    out = invoke("--games", "72", "--until-se", "0.02", "--seed", "5", "--workers", "3",
                 "--no-stratify", "--executor", "dask", "--scheduler", DASK, "-q")
    assert out.exit_code == 0, out.output
    run, quiet = SEEN[0]
    assert (run.games, run.until_se, run.seed, run.workers, run.stratify) == (72, 0.02, 5, 3, False)
    assert (run.executor, run.scheduler, run.progress, quiet) == ("dask", DASK, None, True)


@pytest.mark.parametrize("args, message", [
    (["--until-se", "0"], "Error: --until-se must be positive, got 0.0\n"),
    (["--scheduler", DASK], "Error: --scheduler needs --executor dask\n"),
    (["--executor", "dask"],
     "Error: --executor dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)\n"),
])
def test_a_bad_value_is_one_error_line_with_exit_code_2(args, message):
    """Catches a value the option types let through (--until-se 0, a scheduler without Dask)
    escaping the decorator as a traceback, or its message naming the keyword `until_se`."""
    out = invoke(*args)
    assert (out.exit_code, out.output) == (2, message)
    assert SEEN == []


@pytest.mark.parametrize("fields, keyword", [
    ({"games": 0}, "games"), ({"seed": -1}, "seed"), ({"until_se": 0.0}, "until_se"),
    ({"workers": 0}, "workers"), ({"executor": "cloud"}, "executor"),
    ({"stratify": "no"}, "stratify"),
])
def test_a_run_configuration_is_checked_when_made(fields, keyword):
    """Catches a `RunConfig` that accepts a value the runs cannot use (no games, a negative seed,
    a zero stop rule, no workers, an unknown executor, a string for a flag) and fails mid-run."""
    with pytest.raises(ArgumentError) as info:
        RunConfig(**fields)
    assert keyword in info.value.arguments


def test_a_run_or_its_fields_not_both():
    """Catches `run_config` silently preferring one of a `run` and loose fields given together (a
    caller's games ignored), or dropping a function's own defaults when neither is given."""
    assert run_config(None, {"seed": 3}, games=2592) == RunConfig(games=2592, seed=3)
    with pytest.raises(RunConfigError, match="not both"):
        run_config(RunConfig(), {"games": 72})
