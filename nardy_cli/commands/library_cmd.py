"""`nardy library`: a player's reviewed games in a database — add, list, remove, export, stats,
progress, quiz, bands."""

from __future__ import annotations

import functools
import sys
from dataclasses import replace
from typing import Any, Callable

import click

from ..core.errors import NardyError
from ..core.i18n import _, translate
from .common import (INTERRUPTED, SEED, BadInput, format_option, handle_errors,
                     mat_numbering_option, show)

EPILOG = """\b
Examples:
  nardy library add games/bot-match.txt games/cube-match.mat
  nardy library add games/bot-game.txt --evaluator lookahead:neural --db my-library.sqlite
  nardy library list
  nardy library stats --player neural
  nardy library stats --player heuristic --by phase
  nardy library progress --player heuristic --by match --output reports/heuristic-progress
  nardy library quiz --player heuristic --count 20 --output reports/heuristic-quiz
  nardy library export --table decisions --format csv --output decisions.csv
  nardy library remove 3
  nardy library bands
"""


@click.group("library", epilog=EPILOG)
def command() -> None:
    """A player's library: reviewed games in a database, ratings of play, progress, study sheets.

    The library is an SQLite file in your data folder (`--db PATH` for another):
    `add` reviews record files into it, `stats` rates each player's play (error
    rates in millipoints and a PR-style figure with grade bands, docs/library.md),
    `progress` charts a player's rating over time, `quiz` makes study sheets and an
    Anki deck from a player's costliest mistakes.
    """


def db_option(func: Callable) -> Callable:
    """--db PATH: the library file (default: the user's data folder)."""
    return click.option("--db", "db", default=None, metavar="PATH",
                        help="The library file [default: library.sqlite in your data folder, "
                             "e.g. ~/.local/share/nardy on Linux].")(func)


def player_options(required: bool = False) -> Callable:
    """--player NAME and --since DATE."""
    def wrap(func: Callable) -> Callable:
        func = click.option("--since", default=None, metavar="DATE",
                            help="Only games from this day on (YYYY-MM-DD or YYYY-MM; a game "
                                 "without a date counts from the day it was added).")(func)
        return click.option("--player", default=None, required=required, metavar="NAME",
                            help="The player (as named in the records)." if required
                            else "Only this player (as named in the records).")(func)
    return wrap


def _open(db: str | None, create: bool = False):
    from ..library.store import Library
    return Library(db, create=create)


def with_library(create: bool = False) -> Callable:
    """Open the library of --db for the command (`library` argument) and close it after."""
    def wrap(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, db: str | None, **kwargs: Any) -> Any:
            library = _open(db, create)
            try:
                return func(*args, library=library, **kwargs)
            finally:
                library.close()
        return wrapper
    return wrap


@command.command("add", epilog="""\b
Examples:
  nardy library add games/bot-game.txt games/bot-match.txt games/cube-match.mat
  nardy library add games/bot-match.mat            # the same match as bot-match.txt: skipped
  nardy library add games/bot-game.txt --evaluator lookahead:neural --db my-library.sqlite
""")
@click.argument("files", nargs=-1, required=True, metavar="FILES...")
@click.option("--evaluator", default=None, metavar="NAME",
              help="Evaluator of the review (as `nardy review --evaluator`) [default: neural].")
@click.option("--width", type=click.IntRange(1, None), default=5, show_default=True,
              help="With lookahead: at most this many results searched, plus the played one.")
@mat_numbering_option
@db_option
@handle_errors
@with_library(create=True)
def add_command(files, evaluator, width, mat_numbering, library) -> None:
    """Review record files (game records, match records, .mat transcripts) into the library.

    Every file is read before any is reviewed; a file whose games are already in
    the library is skipped with a note. Each file is written in one transaction:
    Ctrl-C leaves the files added so far and nothing of the one under way.
    """
    from ..policies.judges import get_evaluator
    from ..review.game_review import DEFAULT_EVALUATOR
    evaluator = evaluator or DEFAULT_EVALUATOR
    try:
        get_evaluator(evaluator)
    except NardyError as exc:
        raise BadInput(f"--evaluator: {exc}") from None
    done = []

    def said(result) -> None:
        done.append(result)
        click.echo(result.note)
    try:
        library.add(files, evaluator, width=width, numbering=mat_numbering, on_file=said)
    except KeyboardInterrupt:
        added = sum(r.status == "added" for r in done)
        click.echo(f"Interrupted: {added} file{'s' * (added != 1)} added; nothing of the file "
                   f"under way was written ({library.path}).", err=True)
        sys.exit(INTERRUPTED)
    added = [r for r in done if r.status == "added"]
    click.echo(f"{len(added)} of {len(done)} files added "
               f"({sum(r.games for r in added)} games, {sum(r.decisions for r in added)} "
               f"decisions) to {library.path}")


@command.command("list", epilog="""\b
Examples:
  nardy library list
  nardy library list --format csv --db my-library.sqlite
""")
@format_option
@db_option
@handle_errors
@with_library()
def list_command(fmt, library) -> None:
    """List the files in the library: id, name, games, decisions, evaluator, players."""
    from ..reports.render import Views, table_text
    frame = library.sources()
    readable = frame.drop(columns=["path"]).assign(
        match_length=frame["match_length"].map(_length_text), added=frame["added"].str[:10])
    show(fmt, replace(Views.of_frame(frame),
                      table=lambda: table_text(readable, left=("name", "players"))))


def _length_text(length) -> str:
    if length is None or length != length:
        return _("game")
    return _("money") if int(length) == 0 else _("to {n}").format(n=int(length))


@command.command("remove", epilog="""\b
Examples:
  nardy library remove 3
  nardy library remove bot-game.txt bot-match.txt
""")
@click.argument("sources", nargs=-1, required=True, metavar="ID|NAME...")
@db_option
@handle_errors
@with_library()
def remove_command(sources, library) -> None:
    """Remove files from the library by id or name, with their games and decisions."""
    names = library.remove(sources)
    click.echo(f"removed {len(names)} file{'s' * (len(names) != 1)}: {', '.join(names)}")


@command.command("export", epilog="""\b
Examples:
  nardy library export --format csv --output decisions.csv
  nardy library export --table cube --player heuristic --format json
  nardy library export --table games --since 2026-12
""")
@click.option("--table", "table", type=click.Choice(["decisions", "cube", "games", "sources"]),
              default="decisions", show_default=True,
              help="What to export: checker decisions, cube decisions, games or files.")
@player_options()
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default="csv",
              show_default=True, help="CSV, or JSON (one object per line).")
@click.option("--output", "-o", default=None, metavar="FILE",
              help="Write to FILE (whole or not at all) instead of standard output.")
@db_option
@handle_errors
@with_library()
def export_command(table, player, since, fmt, output, library) -> None:
    """Export the library's decisions, cube decisions, games or files as CSV or JSON."""
    from ..reports.render import Views, render
    frame = library.table(table, player, since)
    text = render(Views(frame=lambda: frame, data=lambda: frame.to_dict(orient="records"),
                        lines=True), fmt)
    text = f"{text}\n" if text else ""
    if output is None:
        click.echo(text, nl=False)
        return
    from ..records.files import write_text
    write_text(output, text)
    click.echo(f"{len(frame)} rows written to {output}", err=True)


def _notes(library, frame) -> list[str]:
    """The evaluators behind the figures, and players reviewed by themselves."""
    sources = library.sources()
    evaluators = sorted(set(sources["evaluator"]))
    notes = [_("reviewed by {evaluators}").format(evaluators=", ".join(evaluators))
             + (_(" (figures mixing evaluators compare less well)") if len(evaluators) > 1
                else "")]
    if "player" in frame:
        for name in sorted(set(frame["player"]) & set(evaluators)):
            notes.append(_("{name} was reviewed by itself: its plays are its evaluator's own "
                           "choices, so they lose nothing by construction").format(name=name))
    return notes


@command.command("stats", epilog="""\b
Examples:
  nardy library stats
  nardy library stats --player heuristic --since 2026-12-01
  nardy library stats --player heuristic --by phase --format csv
  nardy library stats --by month --format json
""")
@player_options()
@click.option("--by", type=click.Choice(["player", "phase", "month", "match"]), default="player",
              show_default=True, help="One row per player, or per player and phase, month or "
                                      "match (file).")
@click.option("--seed", type=SEED, default=None, help="Seed of the bootstrap intervals "
                                                       "[default: 39].")
@format_option
@db_option
@handle_errors
@with_library()
def stats_command(player, since, by, seed, fmt, library) -> None:
    """Rate each player's play: error rates (mp), a PR-style figure with its grade band.

    PR = 500 x equity lost per non-forced decision (checker plays and counted cube
    decisions); checker and cube rates in millipoints (mp) per decision; errors and
    blunders per game; 95% intervals by a seeded bootstrap over games
    (docs/library.md gives the definitions and the grade bands).
    """
    from ..reports.library_tables import stats_view
    from ..reports.render import Views, table_text
    frame = library.stats(player, since, by=by, seed=seed)

    def table() -> str:
        if frame.empty:
            return _("(no decisions)")
        view = stats_view(frame, by)
        if "band" in view:
            view["band"] = view["band"].map(translate)
        left = tuple(c for c in ("player", by, "band") if c in view)
        return "\n".join([table_text(view, "{:.2f}", left),
                          *(_("Note: {note}.").format(note=note)
                            for note in _notes(library, frame))])
    show(fmt, replace(Views.of_frame(frame), table=table))


@command.command("bands", epilog="""\b
Examples:
  nardy library bands
  nardy library bands --format json
""")
@format_option
@handle_errors
def bands_command(fmt) -> None:
    """The grade bands of the PR-style rating, with the reference bots that set them."""
    from ..library.bands import band_table
    from ..reports.render import Views, table_text
    frame = band_table()
    left = ("band", "reference")
    shown = frame.assign(band=frame["band"].map(translate))       # the table's words only
    show(fmt, replace(Views.of_frame(frame, "{:g}", left),
                      table=lambda: table_text(shown, "{:g}", left)))


@command.command("progress", epilog="""\b
Examples:
  nardy library progress --player heuristic --output reports/heuristic-progress
  nardy library progress --player heuristic --by match --output reports/heuristic-matches
""")
@player_options(required=True)
@click.option("--by", type=click.Choice(["month", "match"]), default="month", show_default=True,
              help="A point per month, or per match (file).")
@click.option("--output", "-o", required=True, metavar="DIR",
              help="Write progress.png, progress.svg, progress.html and progress.json into DIR.")
@click.option("--seed", type=SEED, default=None, help="Seed of the bootstrap intervals "
                                                       "[default: 39].")
@format_option
@db_option
@handle_errors
@with_library()
def progress_command(player, since, by, output, seed, fmt, library) -> None:
    """Chart a player's rating by month or by match, with the phase profile beside the bots'."""
    from ..reports.folder import ensure_writable
    from ..reports.library_chart import write_progress
    from ..reports.library_tables import stats_view
    from ..reports.render import Views, table_text
    ensure_writable(output)
    periods = library.stats(player, since, by=by, seed=seed)
    phases = library.stats(player, since, by="phase", seed=seed)
    overall = library.stats(player, since, by="player", seed=seed)
    subtitle = "; ".join(_notes(library, overall))
    evaluators = set(library.decisions(player, since)["evaluator"])
    written = write_progress(periods, phases, overall, output, player=player, by=by,
                             subtitle=subtitle,
                             evaluator=evaluators.pop() if len(evaluators) == 1 else None)
    show(fmt, replace(Views.of_frame(periods), table=lambda: (
        f"{table_text(stats_view(periods, by), left=('player', by))}\n\n"
        + _("chart and page written to {path}").format(path=written))))


@command.command("quiz", epilog="""\b
Examples:
  nardy library quiz --player heuristic --output reports/heuristic-quiz
  nardy library quiz --player heuristic --count 40 --since 2026-12 --output reports/quiz
""")
@player_options(required=True)
@click.option("--count", type=click.IntRange(1, None), default=20, show_default=True,
              help="Positions on the sheet (the costliest distinct mistakes).")
@click.option("--output", "-o", required=True, metavar="DIR",
              help="Write quiz.html, answers.html, quiz.apkg (Anki) and quiz.json into DIR.")
@db_option
@handle_errors
@with_library()
def quiz_command(player, since, count, output, library) -> None:
    """Study sheets from a player's costliest distinct mistakes: quiz, answers and an Anki deck."""
    from ..reports.folder import ensure_writable
    from ..reports.quiz_page import write_quiz
    ensure_writable(output)
    cards = library.quiz(player, count, since)
    evaluators = ", ".join(sorted(set(library.sources()["evaluator"])))
    subtitle = (_("The costliest distinct mistakes of {player} in {file}, reviewed by "
                  "{evaluators}").format(player=player, file=library.path.name,
                                         evaluators=evaluators)
                + (_(", games from {since} on").format(since=since) if since else ""))
    written = write_quiz(cards, output, player=player, subtitle=subtitle)
    click.echo(_("{n} positions written to {path}: quiz.html, answers.html, quiz.apkg "
                 "(Anki)").format(n=len(cards), path=written))
