"""Issue 9's targets, measured side by side in one run.

- Bear-off databases: CPU time to build the one-sided and two-sided databases.
- Variance reduction: on each in-play study position, the same policy and games
  plain and with VR (both with exact bear-offs); equity, SE, CPU seconds, the
  ratio of SE per CPU-second ((SE_plain^2 t_plain) / (SE_vr^2 t_vr): how much
  faster VR reaches a given SE) and the z of the difference.
- Staged analysis: CPU and wall time of `staged_rank` on a middlegame roll with
  at least 30 distinct plays, with the best play's SE.

Every rollout runs in this process (workers=1), so CPU time is this process's.
Usage: python experiments/variance.py [--games N] [--policy NAME] [--positions A,B] [--staged-policy
NAME]
       [--skip-vr] [--skip-staged] [--luck-network FILE]

--luck-network values the VR runs' luck by that network (`nardy rollout --luck-network`).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

from nardy_cli.core.engine import outcome
from nardy_cli.policies.network import load_network
from nardy_cli.core.position import Position
from nardy_cli.core.positions_file import read_positions
from nardy_cli.analysis.rollout import rollout
from nardy_cli.games.scoring import Scoring

MIDDLEGAME = "W:1x6,7x2,10x2,12,14,15,20,24 B:1x4,4x2,9x2,10,11,14,15x2,16,18 b"
MIDDLEGAME_ROLL = "6-5"


def bearoff_build() -> dict:
    """Build both databases in a fresh cache folder; CPU seconds of each (after compilation)."""
    from nardy_cli.kernels import bearoff as kb
    kb.build_one_sided(kb.COMP)          # compile first
    t = time.process_time()
    all_dist, _ = kb.build_one_sided(kb.COMP)
    one = time.process_time() - t
    kb.build_two_sided(kb.COMP, all_dist, True)
    t = time.process_time()
    kb.build_two_sided(kb.COMP, all_dist, True)
    return {"one_sided_cpu_s": round(one, 2), "two_sided_cpu_s": round(time.process_time() - t, 2)}


def timed(position, policy, games, scoring) -> tuple[object, float]:
    t = time.process_time()
    r = rollout(position, policy, games=games, scoring=scoring, workers=1)
    return r, time.process_time() - t


def vr_rows(games: int, policy: str, only: list[str] | None = None,
            luck_network: str | None = None) -> list[dict]:
    rows = []
    entries = read_positions("positions/study.txt")
    luck = load_network(luck_network) if luck_network else None
    for e in entries:
        if only and e.name not in only:
            continue
        pos = e.position
        if outcome(pos) is not None:
            continue
        timed(pos, policy, 36, Scoring())            # compile / warm up outside the timing
        plain, tp = timed(pos, policy, games, Scoring(exact_bearoff=True, vr=False))
        vr, tv = timed(pos, policy, games, Scoring(exact_bearoff=True, vr=True, luck_network=luck))
        ratio = ((plain.equity_se ** 2 * tp) / (vr.equity_se ** 2 * tv) if vr.equity_se > 0
                 else float("inf"))
        z = (vr.equity - plain.equity) / max((plain.equity_se ** 2 + vr.equity_se ** 2) ** 0.5,
                                             1e-12)
        rows.append({"name": e.name, "games": games, "plain_equity": round(plain.equity, 4),
                     "plain_se": round(plain.equity_se, 5), "plain_cpu_s": round(tp, 1),
                     "vr_equity": round(vr.equity, 4), "vr_se": round(vr.equity_se, 5),
                     "vr_cpu_s": round(tv, 1), "se_per_cpu_ratio": round(ratio, 2),
                     "z": round(z, 2)})
        if luck_network:
            rows[-1]["luck_network"] = luck_network
        print(json.dumps(rows[-1]), flush=True)
    return rows


def _cpu(usage) -> float:
    return usage.ru_utime + usage.ru_stime


def staged(policy: str, workers: int, games: int = 25920) -> dict:
    from nardy_cli.core.engine import legal_plays
    from nardy_cli.analysis.staged import staged_rank
    pos = Position.parse(MIDDLEGAME)
    n = len(legal_plays(pos, MIDDLEGAME_ROLL))
    import resource
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    t, c = time.time(), time.process_time()
    r = staged_rank(pos, MIDDLEGAME_ROLL, policy, games=games, until_se=0.01, workers=workers)
    best = r.plays[0]
    return {"plays": n, "after_0ply": len(r.stages[0].kept), "after_1ply": len(r.stages[1].kept),
            "wall_s": round(time.time() - t, 1), "main_cpu_s": round(time.process_time() - c, 1),
            "worker_cpu_s": round(_cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - _cpu(kids),
                                  1),
            "best": best.play, "best_equity": round(best.equity, 4),
            "best_se": round(best.equity_se, 5), "best_plain_se": round(best.plain_se, 5),
            "best_games": best.games, "policy": policy, "workers": workers}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2592)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--staged-policy", default="lookahead:heuristic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-staged", action="store_true")
    ap.add_argument("--skip-vr", action="store_true")
    ap.add_argument("--positions", default=None,
                    help="comma-separated study position names (default: all)")
    ap.add_argument("--luck-network", default=None,
                    help="a network file that values the VR runs' luck")
    args = ap.parse_args()
    os.environ.setdefault("NARDY_CACHE_DIR", tempfile.mkdtemp(prefix="nardy-bench-"))
    print(json.dumps({"bearoff_build": bearoff_build()}), flush=True)
    if not args.skip_vr:
        vr_rows(args.games, args.policy, args.positions.split(",") if args.positions else None,
                args.luck_network)
    if not args.skip_staged:
        staged(args.staged_policy, args.workers, games=72)   # warm-up (compilation in the workers)
        print(json.dumps({"staged": staged(args.staged_policy, args.workers)}), flush=True)


if __name__ == "__main__":
    main()
