"""Issue 52's three measures for a candidate network against the shipped `neural`, side by side in
one run.

`python experiments/rollout_net_measure.py CANDIDATE.npz [--duel-games 20000] [--json FILE]`
measures, in this order and in one process (one core):

1. both 0-ply policies on the yardstick and on the first benchmark database, paired by
   decision and phase (`blocks_measure.paired`: gain = `neural`'s loss minus the
   candidate's, millipoints, ± SE, 95% interval);
2. the speed of plain games from the start of `neural`, the candidate, `lookahead:neural`
   and `lookahead:` over the candidate (warm-up games first, then alternated rounds; CPU
   seconds);
3. a duplicate-dice duel, candidate against `neural`, from the start (seed 77, one worker).

The bars (issue 52): a lower yardstick error overall and in the blocked phase (the paired
gain above 0; its interval is reported beside it), the duel at least +0.05 points a game
with its 95% interval above 0, and both speeds at least 80% of today's.  It prints one block
of text with the load average at the start and the end and, with `--json FILE`, writes
every figure there.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from blocks_measure import FED, databases, load, speed

from nardy_cli.games.duel import duel
from nardy_cli.policies.builtin import NEURAL, lookahead_of, network_policy
from nardy_cli.policies.network import load_network, network_hash


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", type=Path, help="the candidate network file")
    ap.add_argument("--duel-games", type=int, default=20_000)
    ap.add_argument("--duel-seed", type=int, default=77)
    ap.add_argument("--speed-games", type=int, default=1_000, help="0-ply games per round")
    ap.add_argument("--lookahead-games", type=int, default=150, help="lookahead games per round")
    ap.add_argument("--speed-rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    net = load_network(args.candidate)
    candidate = network_policy("candidate", net)
    out = {"candidate": str(args.candidate), "candidate_hash": network_hash(net),
           "shipped_hash": network_hash(), "load_start": load(),
           "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    out.update(databases(candidate))
    out["speed"] = speed({"neural": NEURAL, "candidate": candidate}, args.speed_games,
                         args.speed_rounds)
    print(f"0-ply speed (load {load()}): {json.dumps(out['speed'])}", flush=True)
    out["lookahead_speed"] = speed({"lookahead:neural": lookahead_of(NEURAL, "lookahead:neural"),
                                    "lookahead:candidate": lookahead_of(candidate,
                                                                        "lookahead:candidate")},
                                   args.lookahead_games, args.speed_rounds)
    print(f"lookahead speed (load {load()}): {json.dumps(out['lookahead_speed'])}", flush=True)
    t0 = time.perf_counter()
    d = duel(candidate, NEURAL, games=args.duel_games, seed=args.duel_seed, workers=1, rules=FED)
    out["duel"] = {"games": d.games, "points_per_game": d.points_per_game, "se": d.se,
                   "ci95": list(d.ci95), "win_share": d.win_share,
                   "seconds": round(time.perf_counter() - t0, 1)}
    print(f"duel candidate vs neural ({out['duel']['seconds']} s, load {load()}): "
          f"{d.points_per_game:+.4f} [{d.ci95[0]:+.4f}, {d.ci95[1]:+.4f}] over {d.games} games",
          flush=True)
    ys, s, la = out["yardstick"], out["speed"], out["lookahead_speed"]
    out["bars"] = {
        "yardstick_overall": ys["all"]["gain_mp"] > 0,
        "yardstick_blocked": ys["blocked"]["gain_mp"] > 0,
        "duel": d.points_per_game >= 0.05 and d.ci95[0] > 0,
        "speed_0ply": s["candidate"]["games_per_cpu_s"] >= 0.8 * s["neural"]["games_per_cpu_s"],
        "speed_lookahead": (la["lookahead:candidate"]["games_per_cpu_s"]
                            >= 0.8 * la["lookahead:neural"]["games_per_cpu_s"])}
    out["ships"] = all(out["bars"].values())
    out["load_end"] = load()
    out["ended"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(f"bars: {out['bars']}  ships: {out['ships']}  (load at the end {out['load_end']})")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
