"""Compile nardy's kernels once, before the suite, in two processes that share the work.

From a cold cache every kernel compiles on first use. Under `pytest -n 2` both test processes,
and every `nardy` subprocess a test starts, compile the same kernels at once, each for itself
until one of them has written numba's cache: a fresh clone's suite spent most of its 19 minutes
compiling, and a test that waits for a worker's first game timed out while the worker compiled.
`make test` runs this first: two lanes of small real commands that between them reach every
kernel the suite calls (the rules, the game loops of every built-in policy, variance reduction,
the searches, bear-off databases, the cube at money and at a match score, reviews), so the suite
finds the machine code on disk. The bear-off databases land in the suite's own cache folder
(`NARDY_CACHE_DIR`, as tests/conftest.py sets it). A kernel this misses still compiles where it
is first called, as before: only slower.

    python tests/warm_kernels.py          # both lanes, in parallel
    python tests/warm_kernels.py 1        # one lane, in this process
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POS = "W:1x14,12 B:1x15 b"
CONTACT = "W:1x13,2,16 B:1x12,5,6,15 w"
BEAROFF = "W:19x2,20x2,22 B:19x2,20,21x2 w"
N = ["--workers", "1", "--seed", "1"]

LANES = [
    [  # the game loops: every built-in policy, variance reduction, truncation, the cube
        ["rollout", "start", "--policy", "random", "--games", "72", *N],
        ["rollout", "start", "--policy", "racer", "--games", "72", *N],
        ["rollout", "start", "--policy", "heuristic", "--games", "72", *N],
        ["rollout", POS, "--games", "72", *N],
        ["rollout", CONTACT, "--games", "36", "--vr", "--truncate", "8", *N],
        ["rollout", CONTACT, "--games", "36", "--exact-bearoff", "--stratify", *N],
        ["rollout", POS, "--policy", "lookahead:neural", "--games", "4", *N],
        ["rollout", CONTACT, "--games", "36", "--cube-owner", "centre", *N],
        ["duel", "random", "racer", "--games", "36", *N],
        ["duel", "neural", "heuristic", "--games", "36", "--cube", *N],
        ["batch", "positions/study.txt", "--games", "36", *N],
        ["benchmark", "--policy", "neural", "--db", "yardstick"],
    ],
    [  # analysis: the move generator, evaluators, searches, cube decisions, reviews
        ["moves", "start", "--dice", "3-3"],
        ["eval", CONTACT],
        ["eval", CONTACT, "--evaluator", "lookahead2:neural"],
        ["eval", BEAROFF, "--match", "7", "--score", "4-5", "--cube-owner", "centre"],
        ["eval", CONTACT, "--cube-owner", "centre"],
        ["analyze", CONTACT, "--dice", "6-5", "--games", "72", *N],
        ["analyze", CONTACT, "--dice", "3-1", "--no-staged", "--top", "2", "--games", "36", *N],
        ["openings", "--rolls", "65", "--no-book", "--top", "2", "--games", "36", *N],
        ["review", "games/bot-game.txt", "--evaluator", "lookahead:neural"],
        ["review", "games/cube-match.mat"],
        ["review", "games/bearoff-blunder.txt"],
    ],
]


def run_lane(lane: int) -> None:
    """Run one lane's commands in this process (a command's failure is reported, not fatal)."""
    from nardy_cli.commands.cli import cli
    from nardy_cli.core.compiling import announce_compiling

    announce_compiling(lambda: None)   # the parent says it once for both lanes
    for args in LANES[lane]:
        start = time.monotonic()
        try:
            cli.main(args, prog_name="nardy", standalone_mode=False)
        except BaseException as exc:  # noqa: BLE001  (a warm-up command that fails warms less)
            print(f"warm-up: nardy {' '.join(args)}: {exc!r}", file=sys.stderr)
        print(f"warm-up lane {lane}: {time.monotonic() - start:6.1f} s  nardy {' '.join(args)}",
              file=sys.stderr)


def main() -> int:
    """Both lanes in parallel, in child processes; their output goes nowhere but their timings."""
    os.environ.setdefault("NARDY_CACHE_DIR", str(ROOT / ".pytest_cache" / "nardy"))
    if len(sys.argv) > 1:
        sys.stdout = open(os.devnull, "w")
        run_lane(int(sys.argv[1]))
        return 0
    print("warm-up: compiling nardy's kernels in two processes before the suite", file=sys.stderr)
    start = time.monotonic()
    procs = [subprocess.Popen([sys.executable, __file__, str(lane)], cwd=ROOT)
             for lane in range(len(LANES))]
    codes = [p.wait() for p in procs]
    print(f"warm-up: kernels compiled in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return max(codes)


if __name__ == "__main__":
    sys.exit(main())
