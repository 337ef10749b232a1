"""The contact cube model against cubeful rollouts (issue 23 targets: the cube efficiency, 12 of 14
decisions).

For each position (dice dropped: the cube is turned before the roll) two
cubeful money rollouts with the neural bots using the cube (Janowski's model at
the shipped contact efficiency, `nardy_cli.match.cube.CONTACT_EFFICIENCY`), on the
same seed: no double (cube centred, the roller holds it before its first roll)
and double/take (the opponent owns a 2-cube; double/take = 2 x its equity per
starting cube).  The rollouts' decision is `cube.decide(ND, DT, 1)`; the model's
comes from the network's cubeless chances at x = 0, 0.1, ..., 1.  Reported: per
position both sets of equities and decisions, and per x the decisions that agree
and the mean squared error of ND and DT / 2; positions with both sides all home
are judged as `nardy eval` judges them (the race efficiency, or exact) and left
out of the x fit.

Results go line by line into a JSON-lines log, so an interrupted run resumes:
`python experiments/cube_rollouts.py --games 3888 --sampled 10 --window 12 --log
logs/cube_rollouts.jsonl` (then `--report` to print the tables from the log alone), and with
`--cubeless-games 1296` a cubeless neural rollout of each position, whose
chances through the model separate the cube efficiency's error from the
network's error in the cubeless chances.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from nardy_cli.policies.bearoff import is_bearoff
from nardy_cli.match.cube import Cube, CubeBots, decide, money_decision
from nardy_cli.match.stakes import Stakes
from nardy_cli.match.cube_decision import cube_decision
from nardy_cli.policies.estimate import neural_estimate
from nardy_cli.core.outcomes import RESULT_KEYS
from nardy_cli.core.position import parse_position
from nardy_cli.core.positions_file import read_positions
from nardy_cli.analysis.rollout import rollout
from nardy_cli.core.rules import PRESETS

XS = sorted({round(0.1 * i, 2) for i in range(11)} | {0.65, 0.68, 0.75, 0.85})
RULES = PRESETS["federation"]


def positions(sampled: int, window: int) -> list[tuple[str, object, str]]:
    """(name, position without dice, set) of the 14 study positions, `sampled` evenly spaced
    positions of positions/lopsided.txt (positions from bot games at plies 12, 24 and 36) and
    `window` evenly spaced contact positions of lopsided.txt and trapped.txt in the doubling window
    (the network gives the roller 62-85% winning chances, a draw half)."""
    out = [(i.name, i.position.with_dice(None), "study")
           for i in read_positions("positions/study.txt")]
    lop = read_positions("positions/lopsided.txt")
    step = max(1, len(lop) // max(sampled, 1))
    out += [(i.name, i.position.with_dice(None), "sampled") for i in lop[::step][:sampled]]
    if window:
        near = []
        for item in lop + read_positions("positions/trapped.txt"):
            pos = item.position.with_dice(None)
            if is_bearoff(pos):
                continue
            pr = neural_estimate(pos, RULES).probabilities
            if 0.62 <= pr["win"] + pr["draw"] / 2 <= 0.85:
                near.append((item.name, pos, "window"))
        out += near[::max(1, len(near) // window)][:window]
    return out


def model(position) -> dict:
    """The model's no-double and double/take equities and decision at each x, from the network's
    chances; for a bear-off (both sides all home) what `nardy eval --cube-owner centre` gives at
    every x (the race efficiency, or the exact cubeful database)."""
    if is_bearoff(position):
        d = cube_decision(position, Stakes(cube=Cube()), RULES)
        return {str(x): {"nd": d.no_double, "dt": d.double_take, "decision": d.decision}
                for x in XS}
    return model_of(neural_estimate(position, RULES).probabilities, position)


def model_of(probs: dict, position) -> dict:
    """The model at each x from named cubeless chances of the side on roll."""
    p = np.array([probs[k] for k in RESULT_KEYS])
    out = {}
    for x in XS:
        d = money_decision(p, RULES.points, Cube(), position.turn, x)
        out[str(x)] = {"nd": d.no_double, "dt": d.double_take, "decision": d.decision}
    return out


def add_cubeless(row: dict, games: int, seed: int) -> None:
    """Add the model from a cubeless neural rollout's chances (`model_rollout`): the model's error
    then leaves out the network's error in the cubeless chances, so it is the cube efficiency's
    alone."""
    position = parse_position(row["position"])
    r = rollout(position, "neural", games=games, seed=seed, rules=RULES)
    row["cubeless_games"] = games
    row["model_rollout"] = model_of(r.probabilities, position)


def measure(name, position, group, games: int, seed: int) -> dict:
    """The two cubeful rollouts of one position and the model beside them."""
    other = "black" if position.turn == "w" else "white"
    nd = rollout(position, "neural", games=games, seed=seed, rules=RULES,
                 stakes=Stakes(cube=Cube()), cube_bots=CubeBots(hold_first=True))
    dt = rollout(position, "neural", games=games, seed=seed, rules=RULES,
                 stakes=Stakes(cube=Cube(2, other)))
    nd_eq, dt_eq = nd.cube["equity"], 2.0 * dt.cube["equity"]
    return {"name": name, "position": str(position), "set": group, "games": games, "seed": seed,
            "nd": nd_eq, "nd_se": nd.cube["equity_se"], "dt": dt_eq,
            "dt_se": 2.0 * dt.cube["equity_se"], "cubeless": nd.equity,
            "doubled_share": nd.cube["doubled_share"], "decision": decide(nd_eq, dt_eq, 1.0),
            "model": model(position)}


def short(decision: str) -> str:
    """'ND', 'D/T', 'D/P', 'TG'."""
    return {"no double": "ND", "double, take": "D/T", "double, pass": "D/P",
            "too good": "TG"}[decision]


def report(rows: list[dict], chosen: float) -> None:
    """Print the per-position table at x = `chosen` and the agreement and error per x."""
    print(f"{'position':24} {'set':7} {'ND roll':>14} {'ND model':>8} {'DT roll':>14} "
          f"{'DT model':>8} {'rollout':>7} {'model':>6}")
    for r in rows:
        m = r["model"][str(chosen)]
        print(f"{r['name']:24} {r['set']:7} {r['nd']:+.3f} ±{r['nd_se']:.3f} {m['nd']:+8.3f} "
              f"{r['dt']:+.3f} ±{r['dt_se']:.3f} {m['dt']:+8.3f} {short(r['decision']):>7} "
              f"{short(m['decision']):>6}")
    study = [r for r in rows if r["set"] == "study"]
    agree = sum(r["model"][str(chosen)]["decision"] == r["decision"] for r in study)
    print("study positions: the model (bear-offs as eval judges them) agrees with the rollouts "
          f"on {agree} of {len(study)} at x = {chosen}")
    print()
    for group in ("study", "sampled", "window", "all"):
        rs = [r for r in rows if (group == "all" or r["set"] == group)
              and not is_bearoff(parse_position(r["position"]))]
        if not rs:
            continue
        both = [r for r in rs if "model_rollout" in r]
        print(f"{group} ({len(rs)} positions with contact or not all home): x, "
              "decisions agreeing, RMS error "
              f"of ND and DT/2; the same from a cubeless rollout's chances ({len(both)} positions)")
        for x in XS:
            line = f"  x={x:.2f}"
            for key, sub in (("model", rs), ("model_rollout", both)):
                ms = [r[key][str(x)] for r in sub]
                agree = sum(m["decision"] == r["decision"] for m, r in zip(ms, sub))
                err = [(m["nd"] - r["nd"]) ** 2 + ((m["dt"] - r["dt"]) / 2) ** 2 for m,
                       r in zip(ms, sub)]
                if sub:
                    line += f"   agree {agree:2d}/{len(sub)}  rms {np.sqrt(np.mean(err) / 2):.4f}"
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6480)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--sampled", type=int, default=10)
    parser.add_argument("--window", type=int, default=0)
    parser.add_argument("--cubeless-games", type=int, default=0,
                        help="also roll out each logged position cubeless with this many games "
                             "(model_rollout)")
    parser.add_argument("--log", default="logs/cube_rollouts.jsonl")
    parser.add_argument("--x", type=float, default=0.7, help="the x of the per-position table")
    parser.add_argument("--report", action="store_true", help="only print the tables from the log")
    args = parser.parse_args()
    log = Path(args.log)
    done = {}
    if log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            # logged with fewer x: recompute (cheap)
            if any(str(x) not in row["model"] for x in XS):
                row["model"] = model(parse_position(row["position"]))
            done[row["position"]] = row
    if not args.report:
        log.parent.mkdir(parents=True, exist_ok=True)
        for name, position, group in positions(args.sampled, args.window):
            if str(position) in done or (is_bearoff(position) and group != "study"):
                continue
            row = measure(name, position, group, args.games, args.seed)
            done[row["position"]] = row
            with log.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(f"{name}: ND {row['nd']:+.3f} ± {row['nd_se']:.3f}, "
                  f"DT {row['dt']:+.3f} ± {row['dt_se']:.3f}, {row['decision']}", flush=True)
    if args.cubeless_games and not args.report:
        for key, row in done.items():
            if "model_rollout" not in row and not is_bearoff(parse_position(key)):
                add_cubeless(row, args.cubeless_games, args.seed)
                print(f"{row['name']}: cubeless rollout done", flush=True)
                log.write_text("".join(json.dumps(r) + "\n" for r in done.values()))
    report(list(done.values()), args.x)


if __name__ == "__main__":
    main()
