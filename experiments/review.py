"""Review speed (issue 10 targets): a 100-ply game reviewed by the whole `nardy review` process.

Targets: 0-ply (`neural`, `heuristic`) under 2 s and lookahead under 60 s, after a
warm-up run (numba's compiled cache present); the 2-ply `lookahead2:neural` under 2 minutes
on 2 cores (issue 25).  Prints each run's wall time; run with
`python experiments/review.py [--runs N] [--evaluators lookahead2:neural,...]`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from nardy_cli.records.game_record import format_game
from nardy_cli.games.selfplay import play_game

NARDY = [sys.executable, "-m", "nardy_cli"]


def hundred_ply_game() -> str:
    """The first heuristic-vs-heuristic game (seed 1) that lasts 100 plies, cut there."""
    for game in range(100):
        record = play_game("heuristic", "heuristic", seed=1, game=game, max_plies=100)
        if len(record.plies) == 100:
            return format_game(record)
    raise RuntimeError("no game of 100 plies among the first 100")


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): the CPU time is what a loaded machine cannot
    inflate."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--evaluators", default=None,
                        help="Only these evaluators (comma-separated).")
    args = parser.parse_args()
    only = args.evaluators.split(",") if args.evaluators else None
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game.txt"
        game.write_text(hundred_ply_game())
        slow = max(1, args.runs // 2)
        for evaluator, runs in (("neural", args.runs), ("heuristic", args.runs),
                                ("lookahead:neural", slow), ("lookahead:heuristic", slow),
                                ("lookahead2:neural", slow)):
            if only is not None and evaluator not in only:
                continue
            argv = [*NARDY, "review", str(game), "--evaluator", evaluator]
            timed(argv)   # warm-up: compiled cache, file cache
            runs_ = [timed(argv) for _ in range(runs)]
            wall = [w for w, _ in runs_]
            cpu = [c for _, c in runs_]
            print(f"nardy review, 100 plies, {evaluator:<20} wall median "
                  f"{statistics.median(wall):6.2f} s "
                  f"(runs: {', '.join(f'{t:.2f}' for t in wall)}), "
                  f"CPU median {statistics.median(cpu):.2f} s; "
                  f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
