"""`make ladder`: every built-in policy against every other, written to docs/strength.md.

Usage: python experiments/ladder.py [--games 4000] [--neural-games 10000] [--lookahead-games 4000]
                                  [--neural-lookahead-games 2000] [--only A,B] [--seed 2027]

A duel's games: --neural-lookahead-games when lookahead:neural plays, else
--lookahead-games when a lookahead policy plays, else --neural-games when
neural plays, else --games.  --only keeps the duels between the named policies.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from pathlib import Path

from nardy_cli.games.duel import duel
from nardy_cli.games import default_workers
from nardy_cli.policies.network import default_network, games_in_all

POLICIES = ("random", "racer", "heuristic", "lookahead:heuristic", "neural", "lookahead:neural")
OUT = Path(__file__).resolve().parent.parent / "docs" / "strength.md"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--lookahead-games", type=int, default=4000)
    ap.add_argument("--neural-games", type=int, default=10000)
    ap.add_argument("--neural-lookahead-games", type=int, default=2000)
    ap.add_argument("--only", default=None,
                    help="comma-separated policies: only duels between these")
    ap.add_argument("--seed", type=int, default=2027)
    args = ap.parse_args()
    rows = []
    started = time.time()
    chosen = args.only.split(",") if args.only else POLICIES
    for a, b in itertools.combinations([p for p in reversed(POLICIES) if p in chosen], 2):
        if "lookahead:neural" in (a, b):
            games = args.neural_lookahead_games
        elif "lookahead" in a + b:
            games = args.lookahead_games
        elif "neural" in (a, b):
            games = args.neural_games
        else:
            games = args.games
        t = time.time()
        r = duel(a, b, games=games, seed=args.seed, workers=default_workers())
        rows.append((r, time.time() - t))
        print(f"{a:>20} vs {b:<20} {r.points_per_game:+.3f} [{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}] "
              f"wins {r.win_share:.1%} ({time.time() - t:.0f} s)", flush=True)
    trained = games_in_all(default_network().meta)
    lines = [
        "# Strength ladder of the built-in policies",
        "",
        "Made by `make ladder` (`experiments/ladder.py`): every built-in policy against every",
        "other from the start, federation rules, duplicate dice (each dice sequence played",
        f"with A as White and as Black), seed {args.seed}, {default_workers()} workers, "
        f"{time.time() - started:.0f} s in all.",
        "Points per game are A's; the interval is 95%.",
        f"The neural policies play the shipped network ({trained:,} games of self-play "
        "training in all, docs/training.md).",
        "",
        "| A | B | games | A's points per game | 95% CI | A wins | draws | mars for / against | "
        "koks for / against |",
        "|---|---|---:|---:|---|---:|---:|---|---|",
    ]
    for r, _ in rows:
        lines.append(f"| {r.a} | {r.b} | {r.games:,} | {r.points_per_game:+.3f} | "
                     f"[{r.ci95[0]:+.3f}, {r.ci95[1]:+.3f}] | {r.win_share:.1%} | "
                     f"{r.draw_share:.1%} | {r.mars_share_for:.1%} / {r.mars_share_against:.1%} | "
                     f"{r.koks_share_for:.1%} / {r.koks_share_against:.1%} |")
    lines += ["",
              f"Machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end.",
              ""]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
