"""`nardy play`: bot games (or whole matches) written as game records."""

from __future__ import annotations

import json
from datetime import date as date_cls

import click

from ..core.errors import NardyError
from ..core.i18n import _, result_text
from ..records.formats import DEFAULT_FORMAT, RECORD_FORMATS, RecordOptions
from ..reports.folder import write_folder
from ..reports.render import FORMATS, Views, table_text
from .common import (KEPT_GAMES, POSITION, SEED, BadInput, handle_errors, mat_numbering_option,
                     refuse_without, rules_options, show)
from .cube_play import duel_cube_options
from .match_options import match_options

# the record formats --format writes the games in (nardy's own records are what it writes anyway)
PLAY_RECORDS = tuple(name for name in RECORD_FORMATS if name != DEFAULT_FORMAT.name)


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
@click.option("--games", "-n", type=KEPT_GAMES, default=1, show_default=True,
              help="Games to play.")
@click.option("--position", type=POSITION, default="start", show_default=True,
              help="Start position (its dice, if any, are the first roll).")
@click.option("--seed", type=SEED, default=None,
              help="Dice seed (default: the rollouts' fixed seed).")
@click.option("--date", "date_text", default=None, metavar="YYYY.MM.DD",
              help="Date tag (default: today).")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write game-001.txt, ... (with --format mat: games.mat) "
                   "and summary.csv/summary.json into DIR.")
@rules_options
@click.option("--format", "fmt", type=click.Choice([*FORMATS, *PLAY_RECORDS]),
              default="table", show_default=True,
              help="Output format; json is one object per line; mat writes the games as one "
                   ".mat transcript (a money session).")
@mat_numbering_option
@match_options
@duel_cube_options
@handle_errors
def play_command(white, black, games, position, seed, date_text, output, rules, fmt, mat_numbering,
                 stakes, cube_bots) -> None:
    """Play games between policies A (White) and B (Black) and write them as game records.

    A and B are any policy names `nardy policies` lists, plugins or module:attribute.
    One game without --output prints its record; otherwise a per-game summary.
    With --format mat the games are one .mat transcript: printed, or games.mat in DIR.
    With --match N, --games whole matches to N (from 0-0, colours by lot, then --next-white), each a
    match record (or .mat): one printed, or match-001.txt (.mat), ... in DIR.
    """
    from ..reports.folder import ensure_writable
    from ..games import DEFAULT_SEED
    from ..games.selfplay import play_games
    refuse_without(fmt in PLAY_RECORDS, "--format mat", "mat_numbering")
    if len(position) != 1:
        raise BadInput(f"--position: expected one position, got {len(position)} from the file")
    from ..records.game_record import parse_date_tag
    try:
        day = parse_date_tag(date_text) if date_text else date_cls.today().strftime("%Y.%m.%d")
    except NardyError as exc:
        raise BadInput(f"--date: {exc}") from None
    ensure_writable(output)
    # --format names an output format, or a record format the games are written in
    records = RECORD_FORMATS.get(fmt)
    fmt = "table" if records is not None else fmt
    if stakes.match is not None:
        _play_matches(white, black, games, position[0].position,
                      DEFAULT_SEED if seed is None else seed, day, output, rules, fmt,
                      records or DEFAULT_FORMAT, RecordOptions(mat_numbering), stakes, cube_bots)
        return
    played = play_games(white, black, games, position=position[0].position, rules=rules,
                        seed=DEFAULT_SEED if seed is None else seed, date=day, stakes=stakes,
                        cube_bots=cube_bots)
    from ..records.game_record import format_game
    frame = played.frame()
    session = None       # the games as one session in the record format asked
    if records is not None:
        from ..records.match_record import MatchRecord
        session = records.write(MatchRecord(0, played.records), RecordOptions(mat_numbering))
    if output is not None:
        def render(folder) -> None:
            if session is not None:
                (folder / f"games{records.suffix}").write_text(session)
            for i, record in enumerate(played.records if session is None else (), 1):
                (folder / f"game-{i:03d}.txt").write_text(format_game(record))
            frame.to_csv(folder / "summary.csv", index=False)
            (folder / "summary.json").write_text(json.dumps(played.summary(), indent=1) + "\n")
        write_folder(output, render)
    if session is not None and output is None:
        table = session.removesuffix("\n")
    elif games == 1 and output is None:
        table = format_game(played.records[0]).removesuffix("\n")
    else:
        table = _games_text(frame, played.summary(), output)
    show(fmt, Views(table=lambda: table, frame=lambda: frame, lines=True,
                    data=lambda: [{**row, "record": format_game(record)} for record, row
                                  in zip(played.records, frame.to_dict(orient="records"))]))


def _games_text(frame, s, output) -> str:
    """Games played, for people: a row a game and the totals."""
    return (table_text(frame.assign(result=frame["result"].map(result_text)))
            + "\n\n"
            + _("{games} games, seed {seed}: White ({white}) {white_wins} wins, "
                "Black ({black}) {black_wins} wins, {draws} draws; White {ppg:+.3f} "
                "points per game").format(
                games=s['games'], seed=s['seed'], white=s['white'], white_wins=s['white_wins'],
                black=s['black'], black_wins=s['black_wins'], draws=s['draws'],
                ppg=s['white_points_per_game'])
            + (_("; written to {output}").format(output=output) if output else ""))


def _play_matches(white, black, matches, position, seed, day, output, rules, fmt, records,
                  options, stakes, cube_bots) -> None:
    """`nardy play A B --match N [--cube]`: whole matches written as records of format `records`
    (nardy's match records, .mat transcripts, ...)."""
    from ..games.match_play import MatchSettings, match_record
    from ..policies import as_policy
    from ..core.position import START
    if position != START:
        raise BadInput("--match plays whole matches from the start of each game: drop --position")
    match = stakes.match
    if match.score != (0, 0):
        raise BadInput("--match plays whole matches from 0-0: drop --score")
    settings = MatchSettings(match.length, rules, seed, match.next_white, match.draw_points)
    a, b = as_policy(white), as_policy(black)
    texts, rows = [], []
    for m in range(matches):
        if stakes.cube is None:
            record = match_record(a, b, settings, m, day)
        else:
            from ..games.match_cube_play import cube_match_record
            record = cube_match_record(a, b, settings, cube_bots, m, day)
        texts.append(records.write(record, options))
        rows.append({"match": m + 1, "games": len(record.games), "a": record.players[0],
                     "b": record.players[1],
                     "score": "-".join(f"{s:g}" for s in record.final_score),
                     "winner": record.winner})
    import pandas as pd
    frame = pd.DataFrame(rows)
    if output is not None:
        def render(folder) -> None:
            for m, text in enumerate(texts, 1):
                (folder / f"match-{m:03d}{records.suffix}").write_text(text)
            frame.to_csv(folder / "summary.csv", index=False)
        write_folder(output, render)
    if output is None and matches == 1:
        table = texts[0].removesuffix("\n")
    else:
        wins = sum(1 for r in rows if r["winner"] == rows[0]["a"])
        table = (table_text(frame) + "\n\n"
                 + _("{matches} matches to {length}, seed {seed}: "
                     "{a} won {wins}, {b} {other}").format(
                     matches=matches, length=match.length, seed=seed, a=rows[0]['a'], wins=wins,
                     b=rows[0]['b'], other=matches - wins)
                 + (_("; written to {output}").format(output=output) if output else ""))
    show(fmt, Views(table=lambda: table, frame=lambda: frame, lines=True,
                    data=lambda: [{**row, "record": text} for row, text in zip(rows, texts)]))
