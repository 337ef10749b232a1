"""Calibration of the network: 0-ply `nardy eval` win chance against a long `neural` rollout, per
study position.

Usage: python experiments/neural_calibration.py [--games 20000] [--file positions/study.txt]

Prints a Markdown table (position, eval win, rollout win ± 95%, difference) and
how many positions agree within 0.05.  The rollouts use exact bear-offs (the
default) and no variance reduction (its estimate would lean on the network too).  Positions given
with dice are judged without them (the chances before the roll), since a rollout of a position with
dice plays that roll first.
"""

from __future__ import annotations

import argparse
import time

from nardy_cli.policies.estimate import neural_estimate
from nardy_cli.games import default_workers
from nardy_cli.core.positions_file import read_positions
from nardy_cli.analysis.rollout import rollout
from nardy_cli.games.scoring import Scoring


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--file", default="positions/study.txt")
    ap.add_argument("--seed", type=int, default=4242)
    args = ap.parse_args()
    started = time.time()
    print("| position | to move | eval win | rollout win (95%) | difference |")
    print("|---|---|---:|---:|---:|")
    close = total = 0
    for item in read_positions(args.file):
        pos = item.position.with_dice(None)
        est = neural_estimate(pos)
        r = rollout(pos, "neural", games=args.games, seed=args.seed, workers=default_workers(),
                    scoring=Scoring(vr=False))
        win, se = r.probabilities["win"], r.se["win"]
        diff = est.probabilities["win"] - win
        close += abs(diff) <= 0.05
        total += 1
        side = "White" if pos.turn == "w" else "Black"
        print(f"| {item.name} | {side} | {est.probabilities['win']:.3f} | {win:.3f} ± "
              f"{1.96 * se:.3f} | {diff:+.3f} |", flush=True)
    print(f"\n{close} of {total} positions within 0.05; {args.games:,} games each, "
          f"{time.time() - started:.0f} s on {default_workers()} workers.")


if __name__ == "__main__":
    main()
