"""The lazy-loading command group: every command registered once, short help from the table,
and `nardy --help` that imports no heavy library."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from nardy_cli.commands.cli import COMMANDS, cli


def test_table_short_help_is_the_commands_own():
    """Catches a table entry whose short help drifted from the command's docstring,
    or whose "module:attribute" points at the wrong command."""
    for name, (target, short_help) in COMMANDS.items():
        command = cli.get_command(None, name)
        assert command is not None, target
        assert command.name == name, target
        # the first paragraph may wrap over lines in the docstring (click joins them)
        assert " ".join((command.help or "").split("\n\n")[0].split()) == short_help, name


def test_group_help_lists_every_command():
    """Catches a command missing from `nardy --help` (e.g. listed from loaded commands only)."""
    out = CliRunner().invoke(cli, ["--help"])
    listed = out.output.split("Commands:")[1]
    for name in COMMANDS:
        assert f"\n  {name} " in listed, name


def test_help_imports_no_heavy_library():
    """Catches an eager import (numba, pandas, matplotlib) on the path of `nardy --help`."""
    code = ("import sys; from nardy_cli.commands.cli import cli\n"
            "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_short_commands_import_neither_pandas_nor_matplotlib():
    """Catches a module-level pandas or matplotlib import on the path of `nardy show start` or
    `nardy moves start --dice 6-5` (the start-up budgets of issue 8 allow numba only)."""
    code = ("import sys; from nardy_cli.commands.cli import cli\n"
            "for args in (['show', 'start'], ['moves', 'start', '--dice', '6-5']):\n"
            "    try:\n        cli(args)\n    except SystemExit:\n        pass\n"
            "print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_unknown_command_suggests_the_nearest():
    """Catches a mistyped command answered without a hint, or with a traceback."""
    out = CliRunner().invoke(cli, ["rollot", "start"], prog_name="nardy")
    assert out.exit_code == 2
    assert out.output == ("Error: No such command 'rollot'; did you mean 'rollout'? (see "
                          "'nardy --help')\n")


def test_bare_nardy_shows_the_help_not_an_error():
    """Catches `nardy` alone printing its help as `Error: Usage: ...` (Click >= 8.2 raises for
    it)."""
    out = CliRunner().invoke(cli, [])
    assert out.output.startswith("Usage: ") and "Error" not in out.output


def test_command_modules_are_named_alike():
    """Catches a command module named like a helper (`commands/show.py` beside `rollout_cmd.py`):
    every module the command table points at ends in `_cmd`, and no helper module does."""
    import pkgutil

    import nardy_cli.commands as commands
    targets = {target.split(":")[0].rsplit(".", 1)[1] for target, _ in COMMANDS.values()}
    assert all(name.endswith("_cmd") for name in targets), sorted(targets)
    modules = {m.name for m in pkgutil.iter_modules(commands.__path__)}
    assert {m for m in modules if m.endswith("_cmd")} == targets
