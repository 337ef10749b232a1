"""`nardy openings`: the opening table, every legal White play of each opening roll rolled out
and ranked."""

from __future__ import annotations


import click

from ..core.errors import NardyError

from ..core.dice import parse_rolls
from ..core.i18n import _
from ..core.rules import rules_label
from ..reports.folder import json_data
from ..reports.render import Views, table_text
from .common import (KEPT_GAMES, BadInput, aside, exit_if_interrupted, note, refuse_without,
                     report_interrupted, show)
from .progress import StepBar
from .report_options import check_report_flags, finish_report
from .study_options import study_options


@click.command("openings", epilog="""\b
Examples:
  nardy openings                                   # the first exchange, from the opening book
  nardy openings --rolls 33,65                     # those first rolls' trees, from the book
  nardy openings --position "W:1x13,7x2 B:1x13,7x2 w" --dice 2-1   # a book entry
  nardy openings --rolls 65,64,31 --games 2592     # rolled out afresh
  nardy openings --no-book
  nardy openings --rolls all --output reports/openings --html
  nardy openings --rolls all --replies --reply-games 1296
""")
@click.option("--rolls", default="all", show_default=True,
              help="Opening rolls: 'all' or a list like 65,33.")
@click.option("--book/--no-book", "book", default=True, show_default=True,
              help="Answer from the opening book when it holds the question (no --games, "
                   "--policy, rules or report options); --no-book rolls out afresh.")
@click.option("--position", "position_text", default=None, metavar="POSITION",
              help="From the book: a position after the first exchange (with --dice: its entry).")
@click.option("--dice", default=None, metavar="ROLL", help="With --position: the roll to play.")
@click.option("--replies", is_flag=True,
              help="Also find Black's best reply to each opening for all 21 rolls.")
@click.option("--reply-games", type=KEPT_GAMES, default=1296, show_default=True,
              help="Games per candidate reply.")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Roll out only the K best plays by the evaluator (replies default to 6).")
@study_options
@click.pass_context
def openings_command(ctx, rolls, book, position_text, dice, replies, reply_games, top, policy, run,
                     quiet, rules, stakes, fmt, output, html, svg, force) -> None:
    """The opening table: every legal White play of each opening roll, rolled out and ranked.

    By default it answers from the opening book shipped with nardy, at once: the first exchange
    (each first roll and White's equity after Black's replies), a first roll's tree (--rolls),
    or a position's entry (--position, --dice).  Options that change the figures (--games,
    --policy, --seed, rules, --replies, a report) or --no-book roll out afresh.
    """
    refuse_without(replies, "--replies", "reply_games")
    refuse_without(position_text, "--position", "dice")
    from .book_view import wants_book
    if wants_book(ctx, book):
        _from_book(ctx, rolls, position_text, dice, rules, fmt)
        return
    if position_text is not None:
        from .book_view import figure_options
        changed = figure_options(ctx) if book else ["--no-book"]
        raise BadInput(f"--position answers from the book, whose entries have their own "
                       f"settings: drop {', '.join(changed)}")
    dice = parse_rolls(rolls)
    check_report_flags(output, html, svg, force)
    from ..analysis.openings import opening_table
    bar = StepBar("openings", not quiet, unit="analyses")
    try:
        table = opening_table(dice, policy, run=run.with_progress(bar), rules=rules,
                              replies=replies, reply_games=reply_games, top=top, stakes=stakes)
    finally:
        bar.close()
    from ..analysis.rollout_row import policy_columns
    show(fmt, Views(table=lambda: _openings_text(table, replies, policy, run.seed, rules),
                    frame=lambda: table.frame().assign(**policy_columns(table.params)),
                    data=table.to_dict))
    aside(fmt, _("({seconds:.0f} s, {policy} rollouts, seed {seed}, {rules})").format(
        seconds=table.params['seconds'], policy=policy, seed=run.seed, rules=rules_label(rules)))
    from .tables import until_se_note
    missed = until_se_note(table.params, table.params["games_per_play"],
                           table.params.get("worst_se", 0.0))
    if missed:
        note(fmt, missed)
    report_interrupted(table.interrupted, fmt, _("these figures"))
    finish_report(json_data("openings", table), output, html, svg, force)
    exit_if_interrupted(table.interrupted)


def _openings_text(table, replies: bool, policy: str, seed: int, rules) -> str:
    """The opening table for people: White's plays of each roll, then Black's best replies."""
    lines = [_("White's equity and chances by {policy} rollouts, seed {seed}, {rules} "
               "(mars: home-mars or mars)").format(policy=policy, seed=seed,
                                                   rules=rules_label(rules)),
             table_text(table.frame()[["roll", "rank", "play", "games", "equity", "equity_se",
                                       "diff", "diff_se", "win", "draw", "lose", "mars_for",
                                       "koks_for", "mars_against", "koks_against"]])]
    if replies:
        lines += ["", table_text(table.replies_frame()[["white_roll", "white_play", "black_roll",
                                                        "black_reply", "candidates",
                                                        "black_equity", "black_equity_se"]])]
    return "\n".join(lines)


def _from_book(ctx, rolls, position_text, dice, rules, fmt) -> None:
    """`nardy openings` answered from the opening book."""
    from ..book.read import load_book
    from ..core.dice import parse_dice
    from ..core.position import parse_position, validate
    from .book_view import show_entry, show_first_exchange, show_position, show_tree
    from .common import BadInput
    book = load_book()
    if position_text is not None:
        try:
            # the book holds only valid positions: the R6 check (a kernel) waits for a miss
            position = parse_position(position_text, check_blocks=False)
            roll = parse_dice(dice) if dice else position.dice
        except NardyError as exc:
            raise BadInput(f"--position: {exc}") from None
        entry = book.answers(position, roll, rules) if roll is not None else None
        if entry is None:
            try:
                validate(position)
            except NardyError as exc:
                raise BadInput(f"--position: {exc}") from None
        if roll is None:
            show_position(book, position, fmt)
            return
        if entry is None:
            raise BadInput(f"the opening book has no entry for {position.with_dice(None)} to "
                           f"play {roll} (use 'nardy analyze' to compute it)")
        show_entry(entry, fmt)
        return
    if ctx.get_parameter_source("rolls") == click.core.ParameterSource.DEFAULT:
        show_first_exchange(book, rules, fmt)
    else:
        show_tree(book, parse_rolls(rolls), rules, fmt)
