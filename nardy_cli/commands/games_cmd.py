"""`nardy play` and `nardy review`: bot games written as game records, and the review of a
record."""

from __future__ import annotations

import json
from datetime import date as date_cls

import click

from ..core.errors import NardyError
from ..core.i18n import _, result_text, side_words, translate
from ..reports.render import frame_text, to_json
from .common import (POSITION, BadInput, exit_if_interrupted, format_option, handle_errors,
                     mat_numbering_option, read_stdin, report_interrupted, rules_options)
from .cube_play import duel_cube_options
from .match_options import match_options


@click.command("play", epilog="""\b
Examples:
  nardy play heuristic racer
  nardy play lookahead:heuristic heuristic --games 10 --output games/ladder --seed 7
  nardy play heuristic heuristic --position "W:1x10,12x3,19x2 B:1x9,5x3,10x3 w"
  nardy play nardy_cli.policies.judges:estimate_player racer --format json
  nardy play heuristic racer --games 20 --output games/session --format mat
  nardy play neural heuristic --match 7                # one match to 7, printed as a match record
  nardy play neural lookahead:neural --match 5 --games 3 --output games/matches --format mat
  nardy play neural neural --cube --games 10 --output games/cube-session  # Doubles => 2, Takes
  nardy play neural heuristic --match 5 --cube --format mat   # with the cube and the Crawford rule
""")
@click.argument("white", metavar="A")
@click.argument("black", metavar="B")
@click.option("--games", "-n", type=click.IntRange(1, None), default=1, show_default=True,
              help="Games to play.")
@click.option("--position", type=POSITION, default="start", show_default=True,
              help="Start position (its dice, if any, are the first roll).")
@click.option("--seed", type=int, default=None,
              help="Dice seed (default: the rollouts' fixed seed).")
@click.option("--date", "date_text", default=None, metavar="YYYY.MM.DD",
              help="Date tag (default: today).")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write game-001.txt, ... (with --format mat: games.mat) "
                   "and summary.csv/summary.json into DIR.")
@rules_options
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "mat"]),
              default="table", show_default=True,
              help="Output format; json is one object per line; mat writes the games as one "
                   ".mat transcript (a money session).")
@mat_numbering_option
@match_options
@duel_cube_options
@handle_errors
def play_command(white, black, games, position, seed, date_text, output, rules, fmt, mat_numbering,
                 match, cube) -> None:
    """Play games between policies A (White) and B (Black) and write them as game records.

    A and B are any policy names `nardy policies` lists, plugins or module:attribute.
    One game without --output prints its record; otherwise a per-game summary.
    With --format mat the games are one .mat transcript: printed, or games.mat in DIR.
    With --match N, --games whole matches to N (from 0-0, colours by lot, then --next-white), each a
    match record (or .mat): one printed, or match-001.txt (.mat), ... in DIR.
    """
    from ..reports.folder import ensure_writable, write_folder
    from ..games import DEFAULT_SEED
    from ..games.selfplay import play_games
    if len(position) != 1:
        raise BadInput(f"--position: expected one position, got {len(position)} from the file")
    from ..records.game_record import parse_date_tag
    try:
        day = parse_date_tag(date_text) if date_text else date_cls.today().strftime("%Y.%m.%d")
    except NardyError as exc:
        raise BadInput(f"--date: {exc}") from None
    ensure_writable(output)
    if match is not None:
        _play_matches(white, black, games, position[0].position,
                      DEFAULT_SEED if seed is None else seed, day, output, rules, fmt,
                      mat_numbering, match, cube)
        return
    played = play_games(white, black, games, position=position[0].position, rules=rules,
                        seed=DEFAULT_SEED if seed is None else seed, date=day, cube=cube)
    from ..records.game_record import format_game
    frame = played.frame()
    transcript = None
    if fmt == "mat":
        from ..records.mat_write import format_mat
        from ..records.match_record import MatchRecord
        transcript = format_mat(MatchRecord(0, played.records), numbering=mat_numbering)
    if output is not None:
        def render(folder) -> None:
            if transcript is not None:
                (folder / "games.mat").write_text(transcript)
            for i, record in enumerate(played.records if transcript is None else (), 1):
                (folder / f"game-{i:03d}.txt").write_text(format_game(record))
            frame.to_csv(folder / "summary.csv", index=False)
            (folder / "summary.json").write_text(json.dumps(played.summary(), indent=1) + "\n")
        write_folder(output, render)
    if fmt == "json":
        for record, row in zip(played.records, frame.to_dict(orient="records")):
            click.echo(to_json({**row, "record": format_game(record)}))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    elif transcript is not None and output is None:
        click.echo(transcript, nl=False)
    elif games == 1 and output is None:
        click.echo(format_game(played.records[0]), nl=False)
    else:
        click.echo(frame_text(frame.assign(result=frame["result"].map(result_text)), "table"))
        s = played.summary()
        click.echo("\n"
                   + _("{games} games, seed {seed}: White ({white}) {white_wins} wins, "
                       "Black ({black}) {black_wins} wins, {draws} draws; White {ppg:+.3f} "
                       "points per game").format(
            games=s['games'], seed=s['seed'], white=s['white'], white_wins=s['white_wins'],
            black=s['black'], black_wins=s['black_wins'], draws=s['draws'],
            ppg=s['white_points_per_game'])
                   + (_("; written to {output}").format(output=output) if output else ""))


def _play_matches(white, black, matches, position, seed, day, output, rules, fmt, mat_numbering,
                  match, cube=None) -> None:
    """`nardy play A B --match N [--cube]`: whole matches written as match records or .mat
    transcripts."""
    from ..records.mat_write import format_mat
    from ..games.match_play import MatchSettings, match_record
    from ..records.match_record import format_match
    from ..policies import as_policy
    from ..core.position import START
    from ..reports.folder import write_folder
    if position != START:
        raise BadInput("--match plays whole matches from the start of each game: drop --position")
    if match.score != (0, 0):
        raise BadInput("--match plays whole matches from 0-0: drop --score")
    settings = MatchSettings(match.length, rules, seed, match.next_white, match.draw_points)
    a, b = as_policy(white), as_policy(black)
    texts, rows = [], []
    for m in range(matches):
        if cube is None:
            record = match_record(a, b, settings, m, day)
        else:
            from ..games.match_cube_play import cube_match_record
            record = cube_match_record(a, b, settings, cube, m, day)
        texts.append(format_mat(record, numbering=mat_numbering) if fmt == "mat"
                     else format_match(record))
        rows.append({"match": m + 1, "games": len(record.games), "a": record.players[0],
                     "b": record.players[1],
                     "score": "-".join(f"{s:g}" for s in record.final_score),
                     "winner": record.winner})
    import pandas as pd
    frame = pd.DataFrame(rows)
    if output is not None:
        def render(folder) -> None:
            for m, text in enumerate(texts, 1):
                (folder / f"match-{m:03d}.{'mat' if fmt == 'mat' else 'txt'}").write_text(text)
            frame.to_csv(folder / "summary.csv", index=False)
        write_folder(output, render)
    if fmt == "json":
        for row, text in zip(rows, texts):
            click.echo(to_json({**row, "record": text}))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    elif output is None and matches == 1:
        click.echo(texts[0], nl=False)
    else:
        click.echo(frame_text(frame, "table"))
        wins = sum(1 for r in rows if r["winner"] == rows[0]["a"])
        click.echo("\n"
                   + _("{matches} matches to {length}, seed {seed}: "
                       "{a} won {wins}, {b} {other}").format(
            matches=matches, length=match.length, seed=seed, a=rows[0]['a'], wins=wins,
            b=rows[0]['b'], other=matches - wins)
                   + (_("; written to {output}").format(output=output) if output else ""))


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
@click.option("--rollout", "rollout_games", type=click.IntRange(0, None), default=0,
              show_default=True, metavar="N",
              help="Re-score flagged decisions by N rollout games per candidate (0: off).")
@click.option("--rollout-policy", default="neural", show_default=True, metavar="NAME",
              help="Policy of both sides in those rollouts.")
@click.option("--thresholds", default="0.04,0.08,0.16", show_default=True, metavar="D,E,B",
              help="Equity lost from which a play is doubtful, an error, a blunder.")
@click.option("--top", type=click.IntRange(0, None), default=5, show_default=True,
              help="Worst decisions drawn in the report.")
@click.option("--seed", type=int, default=None,
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
                   rollout_policy, thresholds, top, seed, workers, output, html, cube_game, match,
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
    from ..records.match_record import MatchRecord
    in_match = isinstance(loaded, MatchRecord) and loaded.length > 0
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
    crawford = False
    if in_match:           # one game of a match: judged at its own score
        from ..match.state import state_before
        index = loaded.games.index(record)
        crawford = loaded.crawford_games()[index]
        cube_game = cube_game or any(g.is_cube_game for g in loaded.games)
        rule = (match.next_white, match.draw_points) if match is not None else ()
        match = state_before(loaded.length, *loaded.scores()[index], *rule)
    if match is not None:
        from ..match.state import match_state
        match = match_state(match.length, match.score, record.rules, next_white=match.next_white,
                            draw_points=match.draw_points)
    from .progress import StepBar
    bar = StepBar("review rollouts", rollout_games > 0, unit="decisions")
    try:
        review = review_game(record, evaluator, sides=sides, thresholds=marks, width=width,
                             rollout=rollout and rollout.with_progress(bar),
                             rollout_policy=rollout_policy, match=match, cube=cube_game,
                             crawford=crawford)
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
    if fmt == "json":
        click.echo(to_json(review.to_dict()))
        report_interrupted(interrupted, fmt, what)
        exit_if_interrupted(interrupted)
        return
    cols = ["turn", "player", "dice", "played", "best", "plays", "equity_played", "equity_best",
            "lost", "mark",
            "luck"] + (["level", "equity_se"] if rollout_games else []) + (["mwc_lost"] if match
                                                                           else [])
    if fmt == "csv":
        click.echo(frame_text(review.frame, "csv"))
        report_interrupted(interrupted, fmt, what)
        exit_if_interrupted(interrupted)
        return
    r = review.record
    if r.result is None and r.dropped is not None:
        from ..core.position import other_side
        end = _("{end} ({side} wins)").format(end=end_text(r),
                                              **side_words(other_side(r.dropped.side)))
    else:
        end = result_text(r.result) if r.result else _("game not finished")
    click.echo(_("{white} (White) vs {black} (Black): {result}, {plies} plies; "
                 "evaluator {evaluator}").format(
        white=r.white, black=r.black, result=end, plies=len(r.plies),
        evaluator=review.params['evaluator']))
    if match is not None:
        click.echo(_("judged at {match}: equity columns are normalised (a single game won +1, "
                     "lost -1), mwc_lost is "
                     "the match winning chance lost").format(match=match.label()))
    for note in review.notes():
        click.echo(_("Note: {note}").format(note=note))
    click.echo("")
    shown = review.frame[cols].copy()
    forced = review.frame["forced"].to_numpy(dtype=bool)
    shown["lost"] = [f"{v:+.3f}" if not f else _("forced") for v, f in zip(shown["lost"], forced)]
    shown.loc[forced, "mark"] = ""
    shown["mark"] = shown["mark"].map(lambda v: translate(v) if isinstance(v, str) else v)
    click.echo(frame_text(shown.rename(columns={"best": "best play"}), "table", "{:+.3f}",
                          left=("played", "best play")))
    if review.cube is not None:
        from .cube_review_view import cube_heading, cube_table
        click.echo(f"\n{cube_heading(match is not None)}")
        click.echo(cube_table(review.cube, match is not None))
    _finish_review(review.summary(), interrupted, fmt, what, written)


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
        from ..reports.review_report import write_match_review
        written = write_match_review(review, output, html=html)
    if fmt in ("json", "csv"):
        click.echo(to_json(review.to_dict()) if fmt == "json"
                   else frame_text(review.frame(), "csv"))
        report_interrupted(interrupted, fmt, what)
        exit_if_interrupted(interrupted)
        return
    m = loaded
    a, b = m.players
    final = "-".join(f"{s:g}" for s in m.final_score)
    click.echo(_("match to {length}: {a} vs {b}, {games} games, final score {final}{won}; "
                 "evaluator {evaluator}").format(
        length=m.length, a=a, b=b, games=len(m.games), final=final,
        won=_(", won by {winner}").format(winner=m.winner) if m.winner else '',
        evaluator=review.params['evaluator']))
    click.echo(_("each game judged at its score: equity lost is normalised (a single game won "
                 "+1, lost -1), mwc_lost is the match winning chance lost"))
    for k, (g, score) in enumerate(zip(review.games, m.scores()), 1):
        r = g.record
        s = g.summary()
        lost = ", ".join(f"{row['player']} {row['equity_lost']:.3f}" for _, row in s.iterrows())
        if g.cube is not None:
            lost += _("; on the cube: ") + ", ".join(f"{row['player']} {row['cube_lost']:.3f}"
                                                    for _, row in s.iterrows())
        click.echo(_("  game {k} at {w:g}-{b:g} (White-Black): {white} (White) vs {black} (Black), "
                     "{result}; equity "
                     "lost: {lost}").format(k=k, w=score[0], b=score[1], white=r.white,
                                            black=r.black, result=end_text(r), lost=lost))
    _finish_review(review.summary(), interrupted, fmt, what, written)


def end_text(record) -> str:
    """How a game ended (`game_points.game_end`) in the language in use."""
    from ..records.points import resignation
    from ..reports.review_page import end_text as ended
    gave_up = resignation(record)
    return ended(record,
                 _("resigned: {what}").format(what=gave_up) if gave_up else _("not finished"))


def _finish_review(summary, interrupted: bool, fmt: str, what: str, written) -> None:
    """The end of a review's table output: the players' totals, the interrupt mark, where the report
    went."""
    click.echo("")
    if "side" in summary:
        summary = summary.assign(side=summary["side"].map(translate))
    click.echo(frame_text(summary, "table", "{:.3f}"))
    report_interrupted(interrupted, fmt, what)
    if written is not None:
        click.echo("\n" + _("report written to {written}").format(written=written))
    exit_if_interrupted(interrupted)
