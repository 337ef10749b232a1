"""Games per second of two checkouts of nardy, run alternately: does a change slow the game loop?

`python experiments/ab_trees.py BEFORE AFTER [--rounds 3]` plays, in a fresh
process per checkout and round (its `nardy_cli` first on the path), whole games
from the start with `random`, `heuristic`, `neural` and `lookahead:neural` on
one worker, and prints each policy's games per second of CPU time. Alternating
the two checkouts round by round spreads the machine's drift over both. Make a
checkout of an older commit with `git worktree add --detach DIR COMMIT`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

RUNS = (("random", 20000), ("heuristic", 10000), ("neural", 4000), ("lookahead:neural", 150))

CHILD = """
import sys, time
from nardy_cli import START
from nardy_cli.analysis.rollout import rollout
runs = [(p, int(g)) for p, g in (a.split("=") for a in sys.argv[1:])]
for policy, _ in runs:       # compile and load first
    rollout(START, policy, games=40, seed=1, workers=1)
out = []
for policy, games in runs:
    start = time.process_time()
    rollout(START, policy, games=games, seed=3, workers=1)
    out.append(f"{policy} {games / (time.process_time() - start):.1f}")
import nardy_cli
out.append("from " + nardy_cli.__file__.rsplit("/", 2)[0])
print(" | ".join(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for r in range(args.rounds):
        for tree in (args.before, args.after):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            # `python -c` puts its working folder first on the path: run it in the checkout, or
            # both rounds import the folder this script was started from
            line = subprocess.run([sys.executable, "-c", CHILD, *(f"{p}={g}" for p, g in RUNS)],
                                  env=env, cwd=os.path.abspath(tree), capture_output=True,
                                  text=True, check=True).stdout
            print(f"round {r + 1} {tree}: {line.strip()}", flush=True)
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
