"""Tune the heuristic's weights by self-play duels (coordinate ascent); see docs/tuning.md.

Usage: python experiments/tune.py [--games 2000] [--rounds 2] [--seed 1]
Prints every accepted change and the final weights as a Python dict.
"""

from __future__ import annotations

import argparse
import time

from nardy_cli.games.duel import duel
from nardy_cli.policies.base import CompiledPolicy
from nardy_cli.policies.builtin import HEURISTIC_WEIGHTS, heuristic_weights, weights_policy


def policy(weights: dict) -> CompiledPolicy:
    return weights_policy("candidate", "tuning candidate", heuristic_weights(**weights))


def objective(weights: dict, games: int, seed: int) -> tuple[float, dict]:
    """Points per game against random and racer plus win share against random (duplicate dice)."""
    cand = policy(weights)
    vs_random = duel(cand, "random", games=games, seed=seed, workers=2)
    vs_racer = duel(cand, "racer", games=games, seed=seed + 1, workers=2)
    score = vs_random.points_per_game + vs_racer.points_per_game + 2.0 * vs_random.win_share
    return score, {"ppg_random": round(vs_random.points_per_game, 4),
                   "win_random": round(vs_random.win_share, 4),
                   "ppg_racer": round(vs_racer.points_per_game, 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    weights = dict(HEURISTIC_WEIGHTS)
    best, info = objective(weights, args.games, args.seed)
    print(f"start {best:.4f} {info}", flush=True)
    step = 0.5
    for rnd in range(args.rounds):
        for key in list(weights):
            for factor in (1 + step, 1 - step, None):
                trial = dict(weights)
                if factor is not None and weights[key] != 0:
                    trial[key] = weights[key] * factor
                else:
                    trial[key] = (0.2 if factor is None and weights[key] == 0
                                  else -weights[key] if factor is None else 0.0)
                t0 = time.time()
                score, tinfo = objective(trial, args.games, args.seed)
                if score > best + 0.01:
                    best, info, weights = score, tinfo, trial
                    print(f"round {rnd} {key}={trial[key]:.3f} -> {best:.4f} {info} "
                          f"({time.time() - t0:.0f}s)",
                          flush=True)
                    break
        step /= 2
    print("final", {k: round(v, 4) for k, v in weights.items()}, info)


if __name__ == "__main__":
    main()
