"""`nardy play`: bot games (or whole matches) written as game records."""

from __future__ import annotations

import json
from datetime import date as date_cls

import click

from ..core.errors import NardyError
from ..core.i18n import _, result_text
from ..reports.render import frame_text, to_json
from .common import (POSITION, BadInput, handle_errors, mat_numbering_option, refuse_without,
                     rules_options)
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
    refuse_without(fmt == "mat", "--format mat", "mat_numbering")
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


