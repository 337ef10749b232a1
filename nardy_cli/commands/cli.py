"""The `nardy` command line: a thin shell over the library."""

from __future__ import annotations

import importlib
import os
import sys

import click

from .. import __version__

# Every command: name -> ("module:attribute", short help).  A command's module is
# imported only when the command runs (or its own --help is asked for), so
# `nardy --help` loads neither numba nor pandas nor matplotlib.  The short help
# is the first line of the command's docstring; a test checks the two agree.
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("nardy_cli.commands.analyze_cmd:analyze_command",
                "Rank every legal play of a roll by rollouts with common dice (equity ± SE, "
                "difference to the best)."),
    "batch": ("nardy_cli.commands.batch_cmd:batch_command",
              "Roll out every position of a positions FILE into one table."),
    "benchmark": ("nardy_cli.commands.benchmark_cmd:command",
                  "A policy's error rate (equity lost per decision, in millipoints) "
                  "against the benchmark database."),
    "book": ("nardy_cli.commands.book_cmd:command",
             "The opening book: build it, show its entries, write the study guide from it."),
    "chart": ("nardy_cli.commands.chart_cmd:chart_command",
              "Re-draw a chart from a saved results.json without re-running anything."),
    "convert": ("nardy_cli.commands.convert_cmd:command",
                "Convert game records between .mat match transcripts and nardy's record format "
                "(either way)."),
    "deficit": ("nardy_cli.commands.deficit_cmd:command",
                "Static deficit of POSITION over the 36 rolls: full/partial/pass, lost pips, "
                "per face, 6x6 table."),
    "duel": ("nardy_cli.commands.duel_cmd:duel_command",
             "Play policy A against policy B with duplicate dice; report A's points per "
             "game ± 95% CI."),
    "eval": ("nardy_cli.commands.eval_cmd:eval_command",
             "Static (0-ply) estimate of the outcome chances of POSITION, "
             "with pip counts and static deficit."),
    "library": ("nardy_cli.commands.library_cmd:command",
                "A player's library: reviewed games in a database, ratings of play, progress, "
                "study sheets."),
    "met": ("nardy_cli.commands.met_cmd:command",
            "The match equity table: each player's chance to win from every score of a match "
            "(cubeless or cubeful)."),
    "moves": ("nardy_cli.commands.moves_cmd:command",
              "List every distinct legal play of POSITION with the position it leads to."),
    "openings": ("nardy_cli.commands.openings_cmd:openings_command",
                 "The opening table: every legal White play of each opening roll, "
                 "rolled out and ranked."),
    "play": ("nardy_cli.commands.play_cmd:play_command",
             "Play games between policies A (White) and B (Black) and write them as game records."),
    "policies": ("nardy_cli.commands.policies_cmd:policies_command",
                 "List the policies (bots) a rollout or duel can use, with a one-line "
                 "description each."),
    "review": ("nardy_cli.commands.review_cmd:review_command",
               "Review GAME (a game record file, - for stdin): equity lost by every decision, "
               "marks, luck, totals."),
    "rollout": ("nardy_cli.commands.rollout_cmd:command",
                "Roll out POSITION: chances of every outcome for the side to move, equity, "
                "move deficits."),
    "train": ("nardy_cli.commands.train_cmd:command",
              "Train the neural evaluator by TD(lambda) self-play, with checkpoints and "
              "benchmark duels."),
    "serve": ("nardy_cli.commands.serve_cmd:command",
              "Start the web app: a board to set up, analyse and play on, over a JSON API."),
    "show": ("nardy_cli.commands.show_cmd:command",
             "Draw POSITION: both numberings, off and pip counts, side to move and dice."),
}

# Click >= 8.2 raises this for a bare `nardy`; older versions print the help themselves.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())

EPILOG = """\b
Examples:
  nardy show start
  nardy moves "W:1x14,12 B:1x15 b" --dice 6-6
  nardy moves start --format json
  nardy --lang ru eval start                 # in Russian (also NARDY_LANG=ru; docs/russian.md)
"""


class NardyGroup(click.Group):
    """A lazy-loading group (commands come from `COMMANDS` on first use) whose every
    error is one `Error: ...` line on stderr (exit 2 for bad input)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            module_name, attribute = COMMANDS[name][0].split(":")
            self.add_command(getattr(importlib.import_module(module_name), attribute), name)
        return self.commands.get(name)

    def resolve_command(self, ctx: click.Context, args: list[str]):  # type: ignore[override]
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from ..core.suggest import did_you_mean
            ctx.fail("No such command "
                     f"{name!r}{did_you_mean(name, self.list_commands(ctx)) or '.'}")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list, from the table's short help: no command module is imported."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                text = command.get_short_help_str(limit)
            else:
                text = click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except _NO_ARGS_IS_HELP as exc:  # bare `nardy`: the help, as Click shows it
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {printable(exc.format_message())}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {printable(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def printable(text: str) -> str:
    """`text` with its control and format characters escaped (`\\x1b`, `\\u202e`): a bad file's
    bytes quoted in an error must not drive the terminal."""
    import unicodedata
    return "".join(c if unicodedata.category(c)[0] != "C" else ascii(c)[1:-1] for c in text)


@click.group(cls=NardyGroup, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="nardy")
@click.option("--lang", default=None, metavar="en|ru",
              help="Language of the tables, reports and charts of every command: "
                   "en or ru [default: "
                   "$NARDY_LANG, else en]. CSV, JSON and notation stay English (docs/russian.md).")
@click.pass_context
def cli(ctx: click.Context, lang: str | None) -> None:
    """nardy: analysis tool for Long Nardy (длинные нарды).

    Positions are written as `W:<checkers> B:<checkers> <w|b> [<dice>]`, each side in
    its own numbering (docs/rules.md §9); `start` is the opening position, and any
    POSITION may also be a positions file or FILE:NAME.
    """
    from ..core.i18n import ENV_VAR, LanguageError, using_language
    source = "--lang" if lang is not None else ENV_VAR
    lang = lang if lang is not None else os.environ.get(ENV_VAR) or "en"
    try:
        ctx.with_resource(using_language(lang))     # until the command has run
    except LanguageError as exc:
        raise click.UsageError(f"{source}: {exc}") from None


def _quiet_interrupts(unraisable, default=sys.unraisablehook) -> None:
    """Python's hook for exceptions it cannot raise, silent for Ctrl-C: numba's compiler, cut in a
    ctypes callback, printed `Exception ignored ... KeyboardInterrupt` above the run's own line."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        default(unraisable)


def main() -> None:
    """Console-script entry point.

    SIGTERM and SIGHUP interrupt a run as Ctrl-C does (`interrupts.interrupt_on_signals`).
    An interrupted run (exit status 130) leaves as soon as its output is flushed. Its workers have
    been stopped, but one stopped while sending a result can leave the process pool's reader thread
    waiting for the rest of that message for good, and Python waits for every such thread at exit.
    """
    from ..core.interrupts import interrupt_on_signals
    interrupt_on_signals()
    sys.unraisablehook = _quiet_interrupts
    try:
        cli()
    except SystemExit as exc:
        if exc.code != 130:
            raise
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
