"""The `nardy` command line: a thin shell over the library."""

from __future__ import annotations

import sys

import click

from . import __version__
from .commands import deficit_cmd, moves, policies_cmd, rollout_cmd, show, study_cmd

EPILOG = """\b
Examples:
  nardy show start
  nardy moves "W:1x14,12 B:1x15 b" --dice 6-6
  nardy moves start --format json
"""


class NardyGroup(click.Group):
    """A group whose every error is one `Error: ...` line on stderr (exit 2 for bad input)."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=NardyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="nardy")
def cli() -> None:
    """nardy: analysis tool for Long Nardy (длинные нарды).

    Positions are written as `W:<checkers> B:<checkers> <w|b> [<dice>]`, each side in
    its own numbering (RULES.md §9); `start` is the opening position, and any
    POSITION may also be a positions file or FILE:NAME.
    """


for module in (show, moves, rollout_cmd, deficit_cmd):
    cli.add_command(module.command)
for command in (policies_cmd.policies_command, policies_cmd.eval_command, policies_cmd.duel_command,
                study_cmd.analyze_command, study_cmd.openings_command, study_cmd.batch_command,
                study_cmd.chart_command):
    cli.add_command(command)


def main() -> None:
    """Console-script entry point."""
    cli()
