"""Issue 38's three bars for a candidate network against the shipped `neural`, side by side in one
run.

`python experiments/blocks_measure.py CANDIDATE.npz [--duel-games 20000] [--speed-games 3000]`
measures, in this order and in one process (one core):

1. the error rates of both 0-ply policies on the yardstick (`nardy benchmark --db
   yardstick`) and on the first benchmark database, and the paired difference,
   shipped minus candidate, by phase (millipoints, ± SE, 95% interval); the bars:
   a paired gain of at least 15% of `neural`'s error overall and 25% in blocked
   positions on the yardstick, each interval above 0;
2. the 0-ply speed of both: plain `neural` games from the start (no VR, exact
   bear-offs), after 200 warm-up games each (the first policy's games would
   otherwise carry the game loop's compiling), alternated A, B, A, B, ... in
   rounds of the same seeds, CPU seconds and games/s; the bar: the candidate at
   least 80% of `neural`'s games/s;
3. a duplicate-dice duel, candidate against `neural`, from the start (seed 77,
   one worker); the bar: at least +0.05 points a game, the 95% interval above 0.

It prints one block of text (with the load average at the start and the end) and,
with `--json FILE`, writes every figure there.  The command-line equivalents:
`nardy benchmark --db yardstick --policy neural --against blocks_policy:candidate`
with `experiments/` on PYTHONPATH and `NARDY_CANDIDATE=FILE` (`blocks_policy.py`).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from nardy_cli.analysis.rollout import rollout
from nardy_cli.benchmark.db import benchmark_path, read_benchmark
from nardy_cli.benchmark.measure import compare, measure_policy
from nardy_cli.core.position import START
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.duel import duel
from nardy_cli.policies.builtin import NEURAL, network_policy
from nardy_cli.policies.network import load_network

FED = PRESETS["federation"]


def load() -> str:
    """The load averages (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def paired(db: str, shipped, candidate) -> dict:
    """Both policies' error rates on database `db` and the paired difference, by phase."""
    bench = read_benchmark(benchmark_path(db))
    a = measure_policy(bench, shipped)
    b = measure_policy(bench, candidate)
    frame = compare(a, b).frame()
    rows = {}
    for _, r in frame.iterrows():
        gain = float(r["diff_mp"])              # shipped minus candidate: > 0 is a gain
        se = float(r["diff_se_mp"])
        rows[str(r["phase"])] = {
            "decisions": int(r["decisions"]), "neural_mp": float(r["first_mp"]),
            "candidate_mp": float(r["second_mp"]), "gain_mp": gain, "gain_se_mp": se,
            "gain_ci95": [gain - 1.96 * se, gain + 1.96 * se],
            "gain_share": gain / float(r["first_mp"]) if r["first_mp"] else 0.0}
    return rows


def databases(candidate) -> dict:
    """`paired` on both databases (yardstick, then the first benchmark), each phase printed."""
    out = {}
    for db in ("yardstick", "benchmark"):
        t0 = time.perf_counter()
        out[db] = paired(db, NEURAL, candidate)
        print(f"{db} ({time.perf_counter() - t0:.0f} s, load {load()}):", flush=True)
        for phase, r in out[db].items():
            print(f"  {phase:8} neural {r['neural_mp']:6.2f}  candidate {r['candidate_mp']:6.2f}  "
                  f"gain {r['gain_mp']:+6.2f} ± {r['gain_se_mp']:.2f} "
                  f"[{r['gain_ci95'][0]:+.2f}, {r['gain_ci95'][1]:+.2f}]  "
                  f"{100 * r['gain_share']:+.0f}%", flush=True)
    return out


def speed(policies: dict, games: int, rounds: int) -> dict:
    """Each policy's plain 0-ply games from the start, alternated round by round: games/s by CPU
    time and by wall time."""
    for policy in policies.values():       # compiled and warm before the clock starts
        rollout(START, policy, games=200, seed=99, workers=1, rules=FED)
    cpu = {name: 0.0 for name in policies}
    wall = {name: 0.0 for name in policies}
    for k in range(rounds):
        for name, policy in policies.items():
            c0, w0 = time.process_time(), time.perf_counter()
            rollout(START, policy, games=games, seed=100 + k, workers=1, rules=FED)
            cpu[name] += time.process_time() - c0
            wall[name] += time.perf_counter() - w0
    return {name: {"games": games * rounds, "cpu_s": round(cpu[name], 2),
                   "games_per_cpu_s": round(games * rounds / cpu[name], 1),
                   "games_per_wall_s": round(games * rounds / wall[name], 1)}
            for name in policies}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", type=Path, help="the candidate network file")
    ap.add_argument("--duel-games", type=int, default=20_000)
    ap.add_argument("--duel-seed", type=int, default=77)
    ap.add_argument("--speed-games", type=int, default=1_000, help="games per round")
    ap.add_argument("--speed-rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--skip-duel", action="store_true", help="measure the databases and speed only")
    args = ap.parse_args()
    candidate = network_policy("blocks", load_network(args.candidate))
    out = {"candidate": str(args.candidate), "load_start": load(),
           "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    out.update(databases(candidate))
    out["speed"] = speed({"neural": NEURAL, "candidate": candidate}, args.speed_games,
                         args.speed_rounds)
    print(f"speed (load {load()}): {json.dumps(out['speed'])}", flush=True)
    if args.skip_duel:
        if args.json is not None:
            args.json.write_text(json.dumps(out, indent=1) + "\n")
        return
    t0 = time.perf_counter()
    d = duel(candidate, NEURAL, games=args.duel_games, seed=args.duel_seed, workers=1, rules=FED)
    out["duel"] = {"games": d.games, "points_per_game": d.points_per_game, "se": d.se,
                   "ci95": list(d.ci95), "win_share": d.win_share,
                   "seconds": round(time.perf_counter() - t0, 1)}
    print(f"duel candidate vs neural ({out['duel']['seconds']} s, load {load()}): "
          f"{d.points_per_game:+.4f} [{d.ci95[0]:+.4f}, {d.ci95[1]:+.4f}] over {d.games} games",
          flush=True)
    ys = out["yardstick"]
    s = out["speed"]
    out["bars"] = {
        "overall": ys["all"]["gain_share"] >= 0.15 and ys["all"]["gain_ci95"][0] > 0,
        "blocked": ys["blocked"]["gain_share"] >= 0.25 and ys["blocked"]["gain_ci95"][0] > 0,
        "duel": d.points_per_game >= 0.05 and d.ci95[0] > 0,
        "speed": s["candidate"]["games_per_cpu_s"] >= 0.8 * s["neural"]["games_per_cpu_s"]}
    out["load_end"] = load()
    out["ended"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(f"bars: {out['bars']}  (load at the end {out['load_end']})")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
