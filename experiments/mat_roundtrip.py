"""A 200-game bot match through .mat (issue 24 target): lossless, and read as fast as nardy's own
records.

Plays 200 games (heuristic against racer, colours alternating, a money session so no
game ends the match), writes them as one .mat transcript and as one nardy match
record, reads both back (every play replayed and matched) and checks that both give
the same `MatchRecord`.  Prints the time of each step and the time to review the
first `--review-games` games (the same `GameRecord`s, so the same work whichever
file they came from; each is timed twice, interleaved, as the machine's load drifts).  Run with
`python experiments/mat_roundtrip.py [--games 200]`.
"""

from __future__ import annotations

import argparse
import time

from nardy_cli.records.mat_read import parse_mat
from nardy_cli.records.mat_write import format_mat
from nardy_cli.records.match_record import MatchRecord, format_match, parse_match
from nardy_cli.review.game_review import review_game
from nardy_cli.games.selfplay import play_game


def timed(label: str, func, *args, **kwargs):
    """Run `func`, print its wall time under `label`, return its result."""
    start = time.perf_counter()
    result = func(*args, **kwargs)
    print(f"{label:<44} {time.perf_counter() - start:8.3f} s")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--review-games", type=int, default=5)
    parser.add_argument("--evaluator", default="heuristic")
    args = parser.parse_args()
    pairs = (("heuristic", "racer"), ("racer", "heuristic"))
    games = timed(f"play {args.games} games",
                  lambda: tuple(play_game(*pairs[g % 2], seed=2026, game=g)
                                for g in range(args.games)))
    match = timed("score them as a match (MatchRecord)", MatchRecord, 0, games)
    plies = sum(len(g.plies) for g in match.games)
    print(f"{len(match.games)} games, {plies} plies, final score {match.players[0]} "
          f"{match.final_score[0]:g}, {match.players[1]} {match.final_score[1]:g}")
    mat = timed("format_mat", format_mat, match)
    record = timed("format_match (nardy record)", format_match, match)
    print(f".mat {len(mat.encode()):,} bytes, nardy record {len(record.encode()):,} bytes")
    from_mat = timed("parse_mat (replay every play)", parse_mat, mat)
    from_record = timed("parse_match (replay every play)", parse_match, record)
    assert from_mat == match == from_record, "the round trip lost something"
    assert format_mat(from_mat) == mat
    print("round trip: identical MatchRecord from both files, .mat text stable")
    # warm-up: the evaluator's kernels compiled or loaded
    review_game(match.games[0], args.evaluator)
    # interleaved: load drifts
    for name, source in ((".mat", from_mat), ("nardy record", from_record)) * 2:
        timed(f"review {args.review_games} games from the {name} ({args.evaluator})",
              lambda s=source: [review_game(g, args.evaluator)
                                for g in s.games[:args.review_games]])


if __name__ == "__main__":
    main()
