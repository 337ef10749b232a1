"""Cube analysis speed (issue 23 target: it adds under 10% to `nardy eval`'s time).

Times `nardy eval positions/study.txt` with and without `--cube-owner centre`,
money and at a match score: the command run in this process (CPU seconds, the
median of N interleaved runs after a warm-up, so the loaded network and databases
are shared as a long session would share them; a fresh cubeful match table each
run), then the whole process (start-up included, noisier on a loaded machine).  Run with
`python experiments/cube.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

NARDY = [sys.executable, "-m", "nardy_cli"]
STUDY = "positions/study.txt"


def cpu(argv: list[str]) -> float:
    """CPU seconds of one child process (a loaded machine does not inflate it)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_process() -> tuple[int, float, float]:
    """(positions, seconds for their estimates, seconds for their cube decisions from those
    estimates)."""
    from nardy_cli.match.cube import Cube
    from nardy_cli.match.cube_decision import cube_decision
    from nardy_cli.match.stakes import Stakes
    from nardy_cli.policies.estimate import neural_estimate
    from nardy_cli.match.state import match_state
    from nardy_cli.core.positions_file import read_positions
    items = [i.position for i in read_positions(STUDY) if i.position.dice is None]
    t0 = time.perf_counter()
    ests = [neural_estimate(p) for p in items]
    t1 = time.perf_counter()
    for p, e in zip(items, ests):
        cube_decision(p, Stakes(cube=Cube()), probabilities=e.probabilities)
        cube_decision(p, Stakes(match_state(7, "3-4"), Cube()), probabilities=e.probabilities)
    t2 = time.perf_counter()
    return len(items), t1 - t0, t2 - t1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cases = {"money": [], "money --cube-owner centre": ["--cube-owner", "centre"],
             "match 7 at 3-4": ["--match", "7", "--score", "3-4"],
             "match 7 at 3-4 --cube-owner centre": ["--match", "7", "--score", "3-4",
                                                    "--cube-owner", "centre"]}
    from click.testing import CliRunner

    from nardy_cli.commands.cli import cli
    from nardy_cli.match.cube_decision import cubeful_table
    runner = CliRunner()
    times: dict[str, list[float]] = {name: [] for name in cases}
    for extra in cases.values():
        cpu(NARDY + ["eval", STUDY, *extra])            # warm-up: caches on disk built
        runner.invoke(cli, ["eval", STUDY, *extra])
    for _ in range(args.runs * 4):
        for name, extra in cases.items():
            cubeful_table.cache_clear()
            t = time.process_time()
            assert runner.invoke(cli, ["eval", STUDY, *extra]).exit_code == 0
            times[name].append(time.process_time() - t)
    for name in cases:
        print(f"in process: nardy eval {STUDY} ({name}): "
              f"median CPU {statistics.median(times[name]) * 1000:.1f} ms "
              f"over {len(times[name])} runs")
    runs: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, extra in cases.items():
            runs[name].append(cpu(NARDY + ["eval", STUDY, *extra]))
    for name in cases:
        print(f"process: nardy eval {STUDY} ({name}): "
              f"median CPU {statistics.median(runs[name]):.3f} s over {args.runs} interleaved runs")
    n, est, cube = in_process()
    print(f"in process: {n} positions, estimates {est * 1000:.1f} ms, "
          "cube decisions (money + match) "
          f"{cube * 1000:.1f} ms")


if __name__ == "__main__":
    main()
