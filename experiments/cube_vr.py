"""Variance reduction with the cube (issue 42, item 2): its efficiency on the study positions.

For each position of positions/study.txt (dice dropped, a position in play) one cubeful rollout
with the neural bots using the cube, the cube centred, money or at a match score: the same games
with and without subtracting each roll's cubeful luck (the plain figures come from the same
games, `cube_figures`' `plain_equity`), and separately timed without VR.  Reported per position:
both equities and SEs, the variance ratio (plain / reduced: the games VR saves), and the CPU
seconds a game of each, so the efficiency per CPU second is the variance ratio x (plain's seconds
/ VR's seconds).

    python experiments/cube_vr.py --games 648 --log logs/cube_vr.jsonl    # resumes from the log
    python experiments/cube_vr.py --report --log logs/cube_vr.jsonl
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from nardy_cli.analysis.match_cube_rollout import match_cube_rollout
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.positions_file import read_positions
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.scoring import Scoring
from nardy_cli.match.cube import Cube
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.state import MatchState

RULES = PRESETS["federation"]
MATCH = Stakes(MatchState(7, (4, 5)), Cube())


def measure(name: str, position, games: int, seed: int, match: bool) -> dict:
    """Plain and reduced figures of one position's cubeful rollout, and the time a game of each."""
    def run(vr: bool):
        start = time.process_time()
        if match:
            r = match_cube_rollout(position, "neural", stakes=MATCH, rules=RULES, games=games,
                                   seed=seed, scoring=Scoring(vr=vr))
            out = (r.no_double.mean, r.no_double.se,
                   r.params["plain"]["no_double"]["mwc"] if vr else None,
                   r.params["plain"]["no_double"]["se"] if vr else None)
        else:
            r = rollout(position, "neural", games=games, seed=seed, rules=RULES, workers=1,
                        stakes=Stakes(cube=Cube()), scoring=Scoring(vr=vr))
            c = r.cube
            out = (c["equity"], c["equity_se"], c.get("plain_equity"), c.get("plain_equity_se"))
        return out, (time.process_time() - start) / games
    (plain, plain_se, _, _), plain_cpu = run(False)
    (reduced, reduced_se, same_plain, _), vr_cpu = run(True)
    assert same_plain is not None and abs(same_plain - plain) < 1e-9
    return {"name": name, "position": str(position), "unit": "mwc" if match else "points",
            "games": games, "seed": seed, "plain": plain, "plain_se": plain_se,
            "reduced": reduced, "reduced_se": reduced_se,
            "variance_ratio": (plain_se / reduced_se) ** 2 if reduced_se > 0 else None,
            "plain_cpu_per_game": plain_cpu, "vr_cpu_per_game": vr_cpu}


def report(rows: list[dict]) -> str:
    """A Markdown table of the log, with the medians."""
    lines = ["| position | unit | plain ± SE | reduced ± SE | variance ratio | CPU ms a game "
             "(plain / VR) | per CPU second |", "|---|---|---|---|---|---|---|"]
    ratios, per_cpu = [], []
    for r in rows:
        vr, cost = r["variance_ratio"], r["plain_cpu_per_game"] / r["vr_cpu_per_game"]
        if vr is None or not 1e-6 < vr < 1e6:
            # a position whose games all end alike (plain SE 0) or whose luck is exact (reduced
            # SE 0): no ratio to speak of
            lines.append(f"| {r['name']} | {r['unit']} | {r['plain']:+.3f} ± {r['plain_se']:.3f} | "
                         f"{r['reduced']:+.3f} ± {r['reduced_se']:.3f} | - | "
                         f"{1000 * r['plain_cpu_per_game']:.1f} / "
                         f"{1000 * r['vr_cpu_per_game']:.1f} | - |")
            continue
        ratios.append(vr)
        per_cpu.append(vr * cost)
        lines.append(f"| {r['name']} | {r['unit']} | {r['plain']:+.3f} ± {r['plain_se']:.3f} | "
                     f"{r['reduced']:+.3f} ± {r['reduced_se']:.3f} | {vr:.1f} | "
                     f"{1000 * r['plain_cpu_per_game']:.1f} / {1000 * r['vr_cpu_per_game']:.1f} | "
                     f"{vr * cost:.2f} |")
    mid = sorted(ratios)[len(ratios) // 2], sorted(per_cpu)[len(per_cpu) // 2]
    lines.append(f"\nmedian variance ratio {mid[0]:.1f}, median efficiency per CPU second "
                 f"{mid[1]:.2f} ({len(rows)} rollouts)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=648)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, default=Path("logs/cube_vr.jsonl"))
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    done = ([json.loads(line) for line in args.log.read_text().splitlines()]
            if args.log.exists() else [])
    if not args.report:
        args.log.parent.mkdir(parents=True, exist_ok=True)
        have = {(r["name"], r["unit"]) for r in done}
        for item in read_positions("positions/study.txt"):
            pos = item.position.with_dice(None)
            for match in (False, True):
                if (item.name, "mwc" if match else "points") in have:
                    continue
                row = measure(item.name, pos, args.games, args.seed, match)
                with args.log.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                done.append(row)
                print(json.dumps(row), flush=True)
    print(report(done))


if __name__ == "__main__":
    main()
