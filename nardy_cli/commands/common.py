"""Options, parameter types and error handling shared by every command."""

from __future__ import annotations

import functools
import sys
from typing import Any, Callable

import click

from ..core.dice import Dice, parse_dice
from ..core.errors import ArgumentError, NardyError, NoGamesError, RunError
from ..core.i18n import N_, _, translate
from ..core.interrupts import received
from ..core.limits import MAX_GAMES, MAX_KEPT_GAMES, MAX_SEED
from ..core.positions_file import NamedPosition, resolve_positions
from ..core.rules import BLOCK_CHECKS, HEAD_RULES, PRESETS, make_rules
from ..reports.render import FORMATS, Views, output_format, render


class BadInput(click.ClickException):
    """A one-line `Error: ...` with exit code 2 (bad input), never a traceback."""

    exit_code = 2


COMPILING = N_("Compiling nardy's kernels for this command, once (the rules and the game loop of "
               "its policies): 10 s to 2 min on 2 cores, by the policy and how busy they are; "
               "later runs skip it...")


def announce_compiling() -> None:
    """Say on stderr, once, when nardy's kernels start compiling (a cold or stale numba cache);
    nothing when they all come from the cache (`core.compiling`). Also installs the compile lock
    (`core.compile_lock`): a kernel another process is compiling is waited for and loaded."""
    from ..core.compile_lock import install as lock_compiles
    from ..core.compiling import announce_compiling as announce
    lock_compiles()     # here, not at start-up: `nardy --help` imports no numba
    announce(lambda: click.echo(translate(COMPILING), err=True))


class PositionType(click.ParamType):
    """POSITION: a notation string, `start`, a positions file or FILE:NAME."""

    name = "POSITION"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> list[NamedPosition]:
        if isinstance(value, list):
            return value
        announce_compiling()        # checking a position's blocks may compile the first kernel
        check = not (ctx is not None and ctx.params.get("no_block_validation"))
        try:
            return resolve_positions(value, check_blocks=check)
        except NardyError as exc:
            self.fail(str(exc), param, ctx)


class DiceType(click.ParamType):
    """DICE: `6-5`, `5-6` or `65`."""

    name = "DICE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Dice:
        if isinstance(value, Dice):
            return value
        try:
            return parse_dice(value)
        except NardyError as exc:
            self.fail(str(exc), param, ctx)


class ImageFileType(click.Path):
    """FILE for a chart or a board: a .png, .svg or .pdf name (`reports.figures.image_path`),
    checked when the command line is read, before any work."""

    name = "FILE"

    def __init__(self) -> None:
        super().__init__(dir_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..reports.figures import image_path
        value = super().convert(value, param, ctx)
        try:
            image_path(value)
        except NardyError as exc:
            self.fail(str(exc), param, ctx)
        return value


POSITION = PositionType()
DICE = DiceType()
IMAGE_FILE = ImageFileType()
# counts and seeds, in the ranges the library takes (`core.limits`): a count above them is one
# `Error:` line before any work, never a run that fills the memory
GAMES = click.IntRange(1, MAX_GAMES)            # games, pairs or matches whose results are counted
KEPT_GAMES = click.IntRange(1, MAX_KEPT_GAMES)  # games a play or matches whose results are kept
SEED = click.IntRange(0, MAX_SEED)


def option_names(ctx: click.Context | None) -> dict[str, str]:
    """Each parameter's keyword -> the name a user types: `until_se` -> `--until-se`, `file` ->
    `FILE`."""
    names: dict[str, str] = {}
    for param in ctx.command.params if ctx is not None else ():
        if param.name is None:
            continue
        if isinstance(param, click.Option):
            longs = [o for o in param.opts if o.startswith("--")]
            names[param.name] = (longs or param.opts)[0]
        else:
            names[param.name] = param.human_readable_name
    return names


def error_message(exc: NardyError, ctx: click.Context | None = None) -> str:
    """The library's message, with the command's own option names for the arguments it names."""
    if isinstance(exc, ArgumentError):
        return exc.message(option_names(ctx))
    return str(exc)


def given(*names: str) -> list[str]:
    """The flags of the parameters `names` that the user gave (on the command line or through
    the environment), not left at their defaults: `["--reply-games"]`."""
    from click.core import ParameterSource
    ctx = click.get_current_context()
    flags = option_names(ctx)
    return [flags[name] for name in names
            if ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE,
                                                  ParameterSource.ENVIRONMENT)]


def refuse_without(present: bool, needs: str, *names: str) -> None:
    """Unless `present`, refuse the first option of `names` the user gave: it means something only
    with another option (`--reply-games needs --replies`), and would be silently ignored."""
    if not present:
        for flag in given(*names)[:1]:
            raise BadInput(f"{flag} needs {needs}")


NOTHING_FINISHED = N_("Interrupted before any game finished: nothing to report, nothing written.")
STOPPED = N_("Interrupted before the command finished: nothing more to report.")
FINISHED_ANYWAY = N_("Interrupted as the command finished: what it wrote is complete.")
INTERRUPTED = 130


def handle_errors(func: Callable) -> Callable:
    """Turn library errors into `Error: ...` with exit code 2, naming this command's options; a run
    interrupted before any game finished (`NoGamesError`), or where it keeps nothing, is one line
    and exit code 130, and so is one that ran to its end though a signal came (a library swallowed
    its KeyboardInterrupt); a runtime
    failure (`RunError`: a dead worker, a disk that cannot be written; or an OSError) is one
    `Error: ...` line with exit code 1."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        announce_compiling()
        try:
            result = func(*args, **kwargs)
        except NoGamesError:
            click.echo(translate(NOTHING_FINISHED), err=True)
            sys.exit(INTERRUPTED)
        # Ctrl-C where the command keeps nothing (loading, compiling): say so, never a bare
        # `Aborted.`
        except KeyboardInterrupt:
            click.echo(translate(STOPPED), err=True)
            sys.exit(INTERRUPTED)
        # a runtime failure (a dead worker, a disk that cannot be written): exit 1
        except RunError as exc:
            raise click.ClickException(str(exc)) from None
        except NardyError as exc:
            raise BadInput(error_message(exc, click.get_current_context(silent=True))) from None
        except BrokenPipeError:  # the reader of our output left (`| head`): nothing to say
            raise
        # a runtime failure (disk full, read-only file system): one line, exit 1
        except OSError as exc:
            where = f"{str(exc.filename)!r}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None
        # a failure after Ctrl-C: a library that swallowed the interrupt and then broke (numba's
        # compiler cut in a callback: `RuntimeError: no compiled object yet`) is an interrupt
        except Exception:
            if not received():
                raise
            click.echo(translate(STOPPED), err=True)
            sys.exit(INTERRUPTED)
        # a signal a library swallowed (matplotlib drawing a board) let the command run to its end:
        # what it wrote is whole, but it was asked to stop (exit 130, as a `kill` expects)
        if received():
            click.echo(translate(FINISHED_ANYWAY), err=True)
            sys.exit(INTERRUPTED)
        return result
    return wrapper


def read_stdin() -> str:
    """Standard input as text; bytes that are not UTF-8 are bad input (one line, exit 2)."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInput(f"standard input is not UTF-8 text (byte {exc.start + 1})") from None


def show(fmt: str, views: Views) -> None:
    """Print a result's `views` in output format `fmt` (nothing when the format has no view of
    them)."""
    text = render(views, fmt)
    if text is not None:
        click.echo(text)


def note(fmt: str, line: str, gap: bool = False) -> None:
    """A note about the figures (an interrupted run, a standard error not reached): a line of the
    output for people (after a blank line with `gap`), a `Warning: ` line on stderr beside data."""
    if output_format(fmt).for_people:
        click.echo(f"\n{line}" if gap else line)
    else:
        click.echo(f"Warning: {line}", err=True)


def aside(fmt: str, line: str) -> None:
    """A line on stderr for people reading the output (e.g. how long the run took); none beside
    data."""
    if output_format(fmt).for_people:
        click.echo(line, err=True)


class Shown:
    """Results shown one after another (a position each): a format that streams prints each as it
    comes; the others gather their rows and print them once, at `close` (CSV: one header, one
    frame, with `columns` when given)."""

    def __init__(self, fmt: str, columns: list[str] | None = None) -> None:
        self.fmt, self.columns = fmt, columns
        self.rows: list[dict] = []

    def add(self, views: Views) -> None:
        """Show one result (or keep its rows)."""
        if output_format(self.fmt).streams:
            show(self.fmt, views)
        elif views.rows is not None:
            self.rows += views.rows()

    def close(self) -> None:
        """Show the gathered rows, for a format that does not stream."""
        if output_format(self.fmt).streams:
            return
        import pandas as pd
        show(self.fmt, Views(frame=lambda: pd.DataFrame(self.rows, columns=self.columns)))


def report_interrupted(interrupted: bool, fmt: str, what: str) -> None:
    """For an interrupted run: say so (a line under a table, a warning on stderr otherwise)."""
    if interrupted:
        note(fmt, _("INTERRUPTED: {what} cover only the games finished before the run "
                    "was stopped.").format(what=what))


def exit_if_interrupted(interrupted: bool) -> None:
    """Exit with status 130 after an interrupted run's output (and report folder) is written."""
    if interrupted:
        sys.exit(INTERRUPTED)


def rules_options(func: Callable) -> Callable:
    """--rules and its overrides; the command receives `rules: Rules`."""
    @click.option("--rules", "preset", type=click.Choice(list(PRESETS)), default="federation",
                  show_default=True, help="Rules preset (docs/rules.md §7).")
    @click.option("--head-rule", type=click.Choice(HEAD_RULES), default=None,
                  help="Override the first-turn head exception (R5).")
    @click.option("--block-check", type=click.Choice(BLOCK_CHECKS), default=None,
                  help="Override when the six-point block rule (R6) is checked.")
    @click.option("--last-roll/--no-last-roll", default=None,
                  help="Override Black's last roll (R8).")
    @click.option("--points", default=None, metavar="TABLE",
                  help="Override the points table, e.g. 'oin=1,home-mars=3,mars=2,koks=4'.")
    @functools.wraps(func)
    def wrapper(*args: Any, preset: str, head_rule: str | None, block_check: str | None,
                last_roll: bool | None, points: str | None, **kwargs: Any) -> Any:
        try:
            rules = make_rules(preset, head_rule=head_rule, block_check=block_check,
                               last_roll=last_roll, points=points)
        except NardyError as exc:
            raise BadInput(str(exc)) from None
        return func(*args, rules=rules, **kwargs)
    return wrapper


def format_option(func: Callable) -> Callable:
    """--format table|csv|json."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                        show_default=True, help="Output format; json is one object per line.")(func)


def block_validation_option(func: Callable) -> Callable:
    """--no-block-validation: accept positions holding an unreachable R6 block."""
    return click.option("--no-block-validation", is_flag=True, is_eager=True,
                        help="Accept positions with a forbidden block (R6), e.g. "
                             "foreign test data.")(func)


def flatten(groups: tuple[list[NamedPosition], ...]) -> list[NamedPosition]:
    """Positions of several POSITION arguments, in order."""
    return [p for group in groups for p in group]


# mat.NUMBERINGS, default first; kept here so no command loads the engine
MAT_NUMBERINGS = ("head-24", "head-1")


def mat_numbering_option(func: Callable) -> Callable:
    """--mat-numbering head-24|head-1: how .mat transcripts number the mover's points."""
    return click.option("--mat-numbering", type=click.Choice(MAT_NUMBERINGS),
                        default=MAT_NUMBERINGS[0], show_default=True,
                        help=".mat point numbering: head-24 counts from the mover's head "
                             "(24) down to 1, "
                             "0 for off; head-1 as nardy does (docs/game-records.md).")(func)
