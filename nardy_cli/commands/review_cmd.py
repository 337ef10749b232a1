"""`nardy review`: every decision of a game or match record scored, with its report."""

from __future__ import annotations


import click

from ..core.errors import NardyError
from ..core.i18n import _, result_text, side_words, translate
from ..reports.render import Views, table_text
from ..core.limits import MAX_KEPT_GAMES
from .common import (SEED, BadInput, exit_if_interrupted, refuse_without, format_option,
                     handle_errors, mat_numbering_option, read_stdin, report_interrupted, show)
from .match_options import match_options


@click.command("review", epilog="""\b
Examples:
  nardy review games/bearoff-blunder.txt
  nardy review games/bot-game.txt --side black --evaluator lookahead:heuristic --top 3
  nardy review games/bot-game.txt --evaluator lookahead2:neural      # 2-ply: about a minute a game
  nardy review games/bot-game.txt --rollout 1296 --output reports/review --html
  nardy review games/bot-game.txt --thresholds 0.03,0.06,0.12 --format csv
  nardy play heuristic racer | nardy review -
  nardy review games/bot-game.txt --match 7 --score 4-6      # every decision judged at 4-6 to 7
  nardy review games/bot-match.mat --game 3
  nardy review games/bot-match.txt --output reports/match-review --html   # every game at its score
  nardy review games/cube-match.mat --game 1                # the plays and every cube action
  nardy review games/bot-game.txt --cube                    # a cubeless record as a cube game
""")
@click.argument("game", metavar="GAME")
@click.option("--game", "number", type=click.IntRange(1, None), default=None, metavar="K",
              help="With a match (a .mat transcript or a match record): the game to review.")
@mat_numbering_option
@click.option("--side", type=click.Choice(["white", "black", "both"]), default="both",
              show_default=True, help="Whose decisions to score.")
@click.option("--evaluator", default=None, metavar="NAME",
              help="Evaluator of results: heuristic (valued by its logistic estimate), neural, "
                   "lookahead:NAME, lookahead2:NAME (2-ply), module:attribute [default: neural, "
                   "the trained network].")
@click.option("--width", type=click.IntRange(1, None), default=5, show_default=True,
              help="With lookahead: at most this many of the results the kernel's lookahead "
                   "searches; with lookahead2: the best at 0-ply; plus the played one.")
@click.option("--rollout", "rollout_games", type=click.IntRange(0, MAX_KEPT_GAMES), default=0,
              show_default=True, metavar="N",
              help="Re-score flagged decisions by N rollout games per candidate (0: off).")
@click.option("--rollout-policy", default="neural", show_default=True, metavar="NAME",
              help="Policy of both sides in those rollouts.")
@click.option("--thresholds", default="0.04,0.08,0.16", show_default=True, metavar="D,E,B",
              help="Equity lost from which a play is doubtful, an error, a blunder.")
@click.option("--top", type=click.IntRange(0, None), default=5, show_default=True,
              help="Worst decisions drawn in the report.")
@click.option("--seed", type=SEED, default=None,
              help="Rollout seed (default: the rollouts' fixed seed).")
@click.option("--workers", type=click.IntRange(1, None), default=1, show_default=True,
              help="Rollout workers.")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write report.md, the equity chart, boards of the worst decisions, "
                   "review.csv/json.")
@click.option("--html", is_flag=True,
              help="With --output: also a self-contained report.html and review.html, "
                   "an interactive page to "
                   "step through the game (arrow keys, the equity graph, the mistakes linked).")
@click.option("--cube", "cube_game", is_flag=True,
              help="Rate the cube decisions of a record without cube actions too (a cube game "
                   "where nobody doubled); a record with cube actions has them rated anyway.")
@match_options
@format_option
@handle_errors
def review_command(game, number, mat_numbering, side, evaluator, width, rollout_games,
                   rollout_policy, thresholds, top, seed, workers, output, html, cube_game, stakes,
                   fmt) -> None:
    """Review GAME (a game record file, - for stdin): equity lost by every decision,
    marks, luck, totals.

    GAME may be a nardy record or a .mat transcript; a match's game is chosen with --game.
    """
    from ..records.files import parse_games, read_games
    from ..records.match_record import select_game
    from ..reports.folder import ensure_writable
    from ..review.game_review import DEFAULT_EVALUATOR, parse_thresholds, review_game
    from ..games import DEFAULT_SEED, RunConfig
    evaluator = evaluator or DEFAULT_EVALUATOR
    refuse_without(rollout_games > 0, "--rollout N", "rollout_policy", "seed", "workers")
    refuse_without(output is not None, "--output DIR", "html", "top")
    try:
        marks = parse_thresholds(thresholds)
    except NardyError as exc:
        raise BadInput(f"--thresholds: {exc}") from None
    try:
        from ..policies.judges import get_evaluator
        get_evaluator(evaluator)
    except NardyError as exc:
        raise BadInput(f"--evaluator: {exc}") from None
    ensure_writable(output)
    loaded = (parse_games(read_stdin(), numbering=mat_numbering) if game == "-"
              else read_games(game, numbering=mat_numbering))
    sides = ("w", "b") if side == "both" else (side[0],)
    rollout = None
    if rollout_games:
        rollout = RunConfig(games=rollout_games, seed=DEFAULT_SEED if seed is None else seed,
                            workers=workers)
    from ..match.cube import Cube
    from ..records.match_record import MatchRecord
    in_match = isinstance(loaded, MatchRecord) and loaded.length > 0
    match = stakes.match
    if in_match and match is not None and match.score != (0, 0):
        raise BadInput(f"--score: the record is a match to {loaded.length}, "
                       "whose games carry their scores")
    if in_match and number is None and len(loaded.games) > 1:
        _review_match(loaded, evaluator, sides, marks, width, rollout, rollout_policy, output, html,
                      match, fmt, cube_game)
        return
    record = select_game(loaded, number)
    if not record.plies and not record.end_actions:
        where = "standard input" if game == "-" else repr(game)
        raise BadInput(f"the game record in {where} is empty (no plies): nothing to review")
    if in_match:           # one game of a match: judged at its own stakes (score, Crawford game)
        index = loaded.games.index(record)
        cube_game = cube_game or any(g.is_cube_game for g in loaded.games)
        rule = (match.next_white, match.draw_points) if match is not None else ()
        stakes = loaded.stakes(*rule)[index]
        match = stakes.match
    if cube_game and stakes.cube is None:
        stakes = stakes.with_cube(Cube())
    from .progress import StepBar
    bar = StepBar("review rollouts", rollout_games > 0, unit="decisions")
    try:
        review = review_game(record, evaluator, sides=sides, thresholds=marks, width=width,
                             rollout=rollout and rollout.with_progress(bar),
                             rollout_policy=rollout_policy, stakes=stakes)
    finally:
        bar.close()
    interrupted = bool(review.params.get("interrupted"))
    written = None
    if output is not None:
        from ..reports.review_report import write_review
        written = write_review(review, output, top=top, html=html)
        if interrupted:
            click.echo(_("Warning: the run was interrupted, "
                         "so its report went to {written}").format(written=written),
                       err=True)
    what = _("the rollout figures (decisions not reached keep their first evaluation)")
    show(fmt, Views(table=lambda: _game_text(review, match, rollout_games),
                    frame=lambda: review.frame, data=review.to_dict))
    _finish_review(interrupted, fmt, what, written)


def _game_text(review, match, rollout_games: int) -> str:
    """A game's review for people: the players and the end, every decision, the cube's decisions,
    the players' totals."""
    cols = ["turn", "player", "dice", "played", "best", "plays", "equity_played", "equity_best",
            "lost", "mark",
            "luck"] + (["level", "equity_se"] if rollout_games else []) + (["mwc_lost"] if match
                                                                           else [])
    r = review.record
    if r.result is None and r.dropped is not None:
        from ..core.position import other_side
        end = _("{end} ({side} wins)").format(end=end_text(r),
                                              **side_words(other_side(r.dropped.side)))
    else:
        end = result_text(r.result) if r.result else _("game not finished")
    lines = [_("{white} (White) vs {black} (Black): {result}, {plies} plies; "
               "evaluator {evaluator}").format(
        white=r.white, black=r.black, result=end, plies=len(r.plies),
        evaluator=review.params['evaluator'])]
    if match is not None:
        lines.append(_("judged at {match}: equity columns are normalised (a single game won +1, "
                       "lost -1), mwc_lost is "
                       "the cubeless match winning chance lost").format(match=match.label()))
    lines += [_("Note: {note}").format(note=note) for note in review.notes()]
    lines.append("")
    shown = review.frame[cols].copy()
    forced = review.frame["forced"].to_numpy(dtype=bool)
    shown["lost"] = [f"{v:+.3f}" if not f else _("forced") for v, f in zip(shown["lost"], forced)]
    if "mwc_lost" in shown:
        shown["mwc_lost"] = [f"{v:+.2%}" if not f else _("forced")
                             for v, f in zip(shown["mwc_lost"], forced)]
    shown.loc[forced, "mark"] = ""
    shown["mark"] = shown["mark"].map(lambda v: translate(v) if isinstance(v, str) else v)
    lines.append(table_text(shown.rename(columns={"best": "best play"}), "{:+.3f}",
                            left=("played", "best play")))
    if review.cube is not None:
        from .cube_review_view import cube_heading, cube_table
        at_score = match is not None
        lines += [f"\n{cube_heading(at_score)}", cube_table(review.cube, at_score)]
    return "\n".join(lines + [_summary_text(review.summary())])


def _review_match(loaded, evaluator, sides, marks, width, rollout, rollout_policy, output, html,
                  match, fmt, cube_game=False) -> None:
    """`nardy review MATCH`: every game of a match record judged at its score, and the players'
    totals."""
    from ..review.match_review import review_match
    from .progress import StepBar
    options = {"next_white": match.next_white, "draw_points": match.draw_points} if match else {}
    bar = StepBar("review (games)", True, unit="games")
    try:
        review = review_match(loaded, evaluator, thresholds=marks, sides=sides, width=width,
                              rollout=rollout, rollout_policy=rollout_policy, progress=bar,
                              cube=cube_game, **options)
    finally:
        bar.close()
    interrupted = review.interrupted
    what = _("the rollout figures (decisions not reached keep their first evaluation; "
             "games not reached are left out)")
    written = None
    if output is not None:
        from ..reports.match_report import write_match_review
        written = write_match_review(review, output, html=html)
    show(fmt, Views(table=lambda: _match_text(loaded, review), frame=review.frame,
                    data=review.to_dict))
    _finish_review(interrupted, fmt, what, written)


def _match_text(m, review) -> str:
    """A match's review for people: the match, a line a game, the players' totals."""
    from ..reports.match_report import match_standing
    a, b = m.players
    lines = [_("match to {length}: {a} vs {b}, {games} games, {standing}; "
               "evaluator {evaluator}").format(
        length=m.length, a=a, b=b, games=len(m.games), standing=match_standing(m),
        evaluator=review.params['evaluator']),
        _("each game judged at its score: equity lost is normalised (a single game won "
          "+1, lost -1), mwc_lost is the cubeless match winning chance lost")]
    for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
        r = g.record
        s = g.summary()
        lost = ", ".join(f"{row['player']} {row['equity_lost']:.3f}" for _, row in s.iterrows())
        if g.cube is not None:
            lost += _("; on the cube: ") + ", ".join(f"{row['player']} {row['cube_lost']:.3f}"
                                                    for _, row in s.iterrows())
        lines.append(_("  game {k} at {w:g}-{b:g} (White-Black): {white} (White) vs {black} "
                       "(Black), {result}; equity "
                       "lost: {lost}").format(k=k, w=score[0], b=score[1], white=r.white,
                                              black=r.black, result=end_text(r), lost=lost))
    return "\n".join(lines + [_summary_text(review.summary())])


def end_text(record) -> str:
    """How a game ended (`game_points.game_end`) in the language in use."""
    from ..records.points import resignation
    from ..reports.review_page import end_text as ended
    gave_up = resignation(record)
    return ended(record,
                 _("resigned: {what}").format(what=gave_up) if gave_up else _("not finished"))


def _summary_text(summary) -> str:
    """The players' totals under a review for people, after a blank line."""
    if "side" in summary:
        summary = summary.assign(side=summary["side"].map(translate))
    return "\n" + table_text(summary, "{:.3f}")


def _finish_review(interrupted: bool, fmt: str, what: str, written) -> None:
    """The end of a review's output: the interrupt's note, where the report went (for people), the
    exit code of an interrupted run."""
    report_interrupted(interrupted, fmt, what)
    if written is not None:
        show(fmt, Views(table=lambda: "\n" + _("report written to {written}").format(
            written=written)))
    exit_if_interrupted(interrupted)
