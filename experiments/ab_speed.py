"""Warm speed of two checkouts side by side, alternated: games per second and the 2-ply search.

    python experiments/ab_speed.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 3]

Each measurement runs in a process of its own with `PYTHONPATH` set to one
checkout (each uses its own kernel cache, compiled before timing), one core, the
same seeds; the two checkouts alternate round by round, so a change of the
machine's speed hits both. Prints CPU seconds of each measurement and the ratio
of the medians (new / old: above 1 is slower). Issue 49 held the compile-time cuts
to within 5% of the old warm speed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CASES = {"random": 20000, "heuristic": 8000, "neural": 3000, "lookahead:neural": 60,
         "2-ply": 12}

PROBE = r"""
import json, sys, time
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.position import parse_position
name, n = sys.argv[1], int(sys.argv[2])

def run(k):
    if name == "2-ply":
        from nardy_cli.core.dice import Dice
        from nardy_cli.core.engine import legal_plays
        from nardy_cli.core.outcomes import money_valuation
        from nardy_cli.core.rules import make_rules
        from nardy_cli.policies.registry import get_policy
        from nardy_cli.policies.two_ply import search_choice
        import numpy as np
        rules = make_rules("federation")
        base = get_policy("neural")
        values = money_valuation(rules).kernel_values()
        pos = parse_position("W:1x8,2,8,10,16,17,18,24 B:1x6,3,7,8,9,10,11,15,16,18 w")
        for i in range(k):
            dice = Dice(6 - i % 6, 1 + (i // 6) % (6 - i % 6)) if i % 6 != 5 else Dice(1, 1)
            boards = np.array([p.result.board()[0] for p in legal_plays(pos, dice)])
            search_choice(base, boards, True, rules, values)
        return
    rollout(parse_position("W:1x14,12 B:1x15 b"), name, games=k, seed=11, workers=1)

run(max(1, n // 50))                      # compile or load, and warm up
start = time.process_time()
run(n)
print(json.dumps({"cpu": time.process_time() - start}))
"""


def measure(tree: str, name: str, n: int) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    # run outside both checkouts: `python -c` puts the working folder before PYTHONPATH
    out = subprocess.run([sys.executable, "-c", PROBE, name, str(n)], env=env, check=True,
                         capture_output=True, text=True, timeout=3600, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])["cpu"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cases", default=",".join(CASES))
    opts = ap.parse_args()
    for name in opts.cases.split(","):
        times: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(opts.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for which in order:
                times[which].append(measure(getattr(opts, which), name, CASES[name]))
        old, new = statistics.median(times["old"]), statistics.median(times["new"])
        print(f"{name:<18} n={CASES[name]:<6} old {' '.join(f'{t:.2f}' for t in times['old'])}"
              f"  new {' '.join(f'{t:.2f}' for t in times['new'])}  new/old {new / old:.3f}",
              flush=True)


if __name__ == "__main__":
    main()
