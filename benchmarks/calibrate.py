"""Fit the static outcome model of `nardy eval` on heuristic self-play games.

Usage: python benchmarks/calibrate.py [--games 1500] [--seed 7]
Writes nardy_cli/data/estimate.json and prints the fit's log-loss on held-out games.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from nardy_cli import START
from nardy_cli.dice import Dice
from nardy_cli.engine import enumerate_board
from nardy_cli.estimate import CLASSES, feature_vector
from nardy_cli.kernels import board as kb
from nardy_cli.kernels.evaluate import choice_scratch, choose_play
from nardy_cli.kernels.game import final_result
from nardy_cli.kernels.movegen import Workspace
from nardy_cli.policies.builtin import HEURISTIC
from nardy_cli.rules import make_rules

OUT = Path(__file__).resolve().parent.parent / "nardy_cli" / "data" / "estimate.json"


def self_play(games: int, seed: int):
    """Feature rows (after each play) and the class of the game's end for the side that played."""
    rules = make_rules()
    rng = np.random.default_rng(seed)
    scratch = Workspace()
    weights = HEURISTIC.weight_array()
    xs, ys, game_ids = [], [], []
    for g in range(games):
        pos = START
        rows = []  # (features, mover is white)
        rstate = np.array([g], dtype=np.uint64)
        while True:
            board, _, opp_off = pos.board()
            status = kb.game_status(board, pos.turn == "w", rules.last_roll)
            if status != kb.IN_PLAY:
                break
            a, b = rng.integers(1, 7, size=2)
            dice = Dice(int(max(a, b)), int(min(a, b)))
            boards, sf, sd, n, nsteps = enumerate_board(board, opp_off, dice, rules)
            boards = boards.copy()
            # a little exploration so the model sees positions off the heuristic's path
            if rng.random() < 0.1:
                idx = int(rng.integers(n))
            else:
                idx = choose_play(boards, n, HEURISTIC.kind, weights, False, rstate, True, 0, 0, *scratch.arrays(),
                                  choice_scratch())
            rows.append((feature_vector(boards[idx]), pos.turn == "w"))
            from nardy_cli.engine import plays_from_kernel
            pos = plays_from_kernel(pos, dice, boards, sf, sd, n, nsteps)[idx].result
        white_result = final_result(board, pos.turn == "w", True, status)
        for feats, white in rows:
            r = white_result if white else _swap(white_result)
            xs.append(feats)
            ys.append(_class(r))
            game_ids.append(g)
    return np.array(xs), np.array(ys), np.array(game_ids)


def _swap(r: int) -> int:
    if r == kb.DRAW:
        return r
    return r + 4 if r < 4 else r - 4


def _class(r: int) -> int:
    if r == kb.DRAW:
        return 6
    win = r < 4
    cls = r % 4
    group = 0 if cls == kb.OIN else (2 if cls == kb.KOKS else 1)
    return group if win else 3 + group


def fit(x: np.ndarray, y: np.ndarray, steps: int = 3000, lr: float = 0.5, l2: float = 1e-4) -> np.ndarray:
    """Multinomial logistic regression by full-batch gradient descent on standardised features."""
    mu, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd == 0] = 1.0
    xs = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    k = len(CLASSES)
    w = np.zeros((k, xs.shape[1]))
    onehot = np.eye(k)[y]
    for _ in range(steps):
        z = xs @ w.T
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - onehot).T @ xs / len(xs) + l2 * w
        w -= lr * grad
    # fold the standardisation back into raw-feature coefficients
    raw = np.zeros_like(w)
    raw[:, :-1] = w[:, :-1] / sd
    raw[:, -1] = w[:, -1] - (w[:, :-1] * mu / sd).sum(axis=1)
    return raw


def log_loss(x, y, coef) -> float:
    xs = np.hstack([x, np.ones((len(x), 1))])
    z = xs @ coef.T
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    return float(-np.log(np.maximum(p[np.arange(len(y)), y], 1e-12)).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    x, y, g = self_play(args.games, args.seed)
    train = g < int(args.games * 0.8)
    coef = fit(x[train], y[train])
    base = np.bincount(y[train], minlength=len(CLASSES)) / train.sum()
    held = ~train
    print(f"{len(x)} positions; held-out log-loss {log_loss(x[held], y[held], coef):.4f} "
          f"(class frequencies alone: {float(-np.log(np.maximum(base[y[held]], 1e-12)).mean()):.4f})")
    coef = fit(x, y)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"classes": list(CLASSES), "games": args.games, "seed": args.seed,
                               "coefficients": coef.round(6).tolist()}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
