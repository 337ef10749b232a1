"""`nardy play` and `nardy review`: bot games written as game records, and the review of a record."""

from __future__ import annotations

import json
import shutil
import sys
from datetime import date as date_cls

import click

from ..errors import NardyError
from ..render import frame_text, to_json
from .common import (POSITION, BadInput, exit_if_interrupted, format_option, handle_errors, report_interrupted,
                     rules_options)


@click.command("play", epilog="""\b
Examples:
  nardy play heuristic racer
  nardy play lookahead:heuristic heuristic --games 10 --output games/ladder --seed 7
  nardy play heuristic heuristic --position "W:1x10,12x3,19x2 B:1x9,5x3,10x3 w"
  nardy play nardy_cli.evaluators:estimate_player racer --format json
""")
@click.argument("white", metavar="A")
@click.argument("black", metavar="B")
@click.option("--games", "-n", type=click.IntRange(1, None), default=1, show_default=True, help="Games to play.")
@click.option("--position", type=POSITION, default="start", show_default=True,
              help="Start position (its dice, if any, are the first roll).")
@click.option("--seed", type=int, default=None, help="Dice seed (default: the rollouts' fixed seed).")
@click.option("--date", "date_text", default=None, metavar="YYYY.MM.DD", help="Date tag (default: today).")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write game-001.txt, ... and summary.csv/summary.json into DIR.")
@rules_options
@format_option
@handle_errors
def play_command(white, black, games, position, seed, date_text, output, rules, fmt) -> None:
    """Play games between policies A (White) and B (Black) and write them as game records.

    A and B are any policy names `nardy policies` lists, plugins or module:attribute.
    One game without --output prints its record; otherwise a per-game summary.
    """
    from ..report_folder import commit_output, prepare_output
    from ..rollout import DEFAULT_SEED
    from ..selfplay import play_games
    if len(position) != 1:
        raise BadInput(f"--position: expected one position, got {len(position)} from the file")
    day = date_text or date_cls.today().strftime("%Y.%m.%d")
    played = play_games(white, black, games, position=position[0].position, rules=rules,
                        seed=DEFAULT_SEED if seed is None else seed, date=day)
    from ..records import format_game
    frame = played.frame()
    if output is not None:
        tmp, final = prepare_output(output)
        try:
            for i, record in enumerate(played.records, 1):
                (tmp / f"game-{i:03d}.txt").write_text(format_game(record))
            frame.to_csv(tmp / "summary.csv", index=False)
            (tmp / "summary.json").write_text(json.dumps(played.summary(), indent=1) + "\n")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        commit_output(tmp, final)
    if fmt == "json":
        for record, row in zip(played.records, frame.to_dict(orient="records")):
            click.echo(to_json({**row, "record": format_game(record)}))
    elif fmt == "csv":
        click.echo(frame_text(frame, "csv"))
    elif games == 1 and output is None:
        click.echo(format_game(played.records[0]), nl=False)
    else:
        click.echo(frame_text(frame, "table"))
        s = played.summary()
        click.echo(f"\n{s['games']} games, seed {s['seed']}: White ({s['white']}) {s['white_wins']} wins, "
                   f"Black ({s['black']}) {s['black_wins']} wins, {s['draws']} draws; "
                   f"White {s['white_points_per_game']:+.3f} points per game"
                   + (f"; written to {output}" if output else ""))


@click.command("review", epilog="""\b
Examples:
  nardy review games/blunder-in-the-bear-off.txt
  nardy review game.txt --side black --evaluator lookahead:heuristic --top 3
  nardy review game.txt --rollout 1296 --output reports/review --html
  nardy review game.txt --thresholds 0.03,0.06,0.12 --format csv
  nardy play heuristic racer | nardy review -
""")
@click.argument("game", metavar="GAME")
@click.option("--side", type=click.Choice(["white", "black", "both"]), default="both", show_default=True,
              help="Whose decisions to score.")
@click.option("--evaluator", default=None, metavar="NAME",
              help="Evaluator of results: heuristic (static estimate), neural, lookahead:NAME, module:attribute "
                   "[default: neural, the trained network].")
@click.option("--width", type=click.IntRange(1, None), default=5, show_default=True,
              help="With lookahead: results searched deeper (best at 0-ply, plus the played one).")
@click.option("--rollout", "rollout_games", type=click.IntRange(0, None), default=0, show_default=True,
              metavar="N", help="Re-score flagged decisions by N rollout games per candidate (0: off).")
@click.option("--rollout-policy", default="neural", show_default=True, metavar="NAME",
              help="Policy of both sides in those rollouts.")
@click.option("--thresholds", default="0.04,0.08,0.16", show_default=True, metavar="D,E,B",
              help="Equity lost from which a play is doubtful, an error, a blunder.")
@click.option("--top", type=click.IntRange(0, None), default=5, show_default=True,
              help="Worst decisions drawn in the report.")
@click.option("--seed", type=int, default=None, help="Rollout seed (default: the rollouts' fixed seed).")
@click.option("--workers", type=click.IntRange(1, None), default=1, show_default=True, help="Rollout workers.")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write report.md, the equity chart, boards of the worst decisions, review.csv/json.")
@click.option("--html", is_flag=True, help="With --output: also a self-contained report.html.")
@format_option
@handle_errors
def review_command(game, side, evaluator, width, rollout_games, rollout_policy, thresholds, top, seed, workers,
                   output, html, fmt) -> None:
    """Review GAME (a game record file, - for stdin): equity lost by every decision, marks, luck, totals."""
    from ..records import parse_game, read_game
    from ..report_folder import ensure_writable
    from ..review import DEFAULT_EVALUATOR, parse_thresholds, review_game
    evaluator = evaluator or DEFAULT_EVALUATOR
    try:
        marks = parse_thresholds(thresholds)
    except NardyError as exc:
        raise BadInput(f"--thresholds: {exc}") from None
    try:
        from ..evaluators import get_evaluator
        get_evaluator(evaluator)
    except NardyError as exc:
        raise BadInput(f"--evaluator: {exc}") from None
    ensure_writable(output)
    record = parse_game(sys.stdin.read()) if game == "-" else read_game(game)
    sides = ("w", "b") if side == "both" else (side[0],)
    from .progress import StepBar
    bar = StepBar("review rollouts", rollout_games > 0, unit="decisions")
    try:
        review = review_game(record, evaluator, sides=sides, thresholds=marks, width=width,
                             rollout_games=rollout_games, rollout_policy=rollout_policy, seed=seed, workers=workers,
                             progress=bar)
    finally:
        bar.close()
    interrupted = bool(review.params.get("interrupted"))
    written = None
    if output is not None:
        from ..review_report import write_review
        written = write_review(review, output, top=top, html=html)
        if interrupted:
            click.echo(f"Warning: the run was interrupted, so its report went to {written}", err=True)
    what = "the rollout figures (decisions not reached keep their first evaluation)"
    if fmt == "json":
        click.echo(to_json(review.to_dict()))
        report_interrupted(interrupted, fmt, what)
        exit_if_interrupted(interrupted)
        return
    cols = ["turn", "player", "dice", "played", "best", "plays", "equity_played", "equity_best", "lost", "mark",
            "luck"] + (["level", "equity_se"] if rollout_games else [])
    if fmt == "csv":
        click.echo(frame_text(review.frame, "csv"))
        report_interrupted(interrupted, fmt, what)
        exit_if_interrupted(interrupted)
        return
    r = review.record
    click.echo(f"{r.white} (White) vs {r.black} (Black): {r.result or 'game not finished'}, {len(r.plies)} plies; "
               f"evaluator {review.params['evaluator']}")
    click.echo("")
    click.echo(frame_text(review.frame[cols], "table", "{:+.3f}"))
    click.echo("")
    click.echo(frame_text(review.summary(), "table", "{:.3f}"))
    report_interrupted(interrupted, fmt, what)
    if output is not None:
        click.echo(f"\nreport written to {written}")
    exit_if_interrupted(interrupted)
