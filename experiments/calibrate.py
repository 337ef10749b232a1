"""Fit the static outcome model of `nardy eval` on heuristic self-play games.

Usage: python experiments/calibrate.py [--games 1500] [--seed 7]
Writes nardy_cli/data/estimate.json and prints the fit's log-loss on held-out games.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nardy_cli import START
from nardy_cli.policies.estimate import CLASSES, feature_vector
from nardy_cli.games import MAX_PLIES, GameSpec
from nardy_cli.games.python_loop import play_game
from nardy_cli.kernels import board as kb
from nardy_cli.kernels.game import N_DEFICIT
from nardy_cli.policies import Policy, Turn
from nardy_cli.policies.builtin import HEURISTIC
from nardy_cli.core.rules import make_rules

OUT = Path(__file__).resolve().parent.parent / "nardy_cli" / "data" / "estimate.json"


@dataclass(frozen=True)
class Explorer(Policy):
    """The heuristic with a little exploration (a uniform play 10% of the time), noting the features
    of every board it leaves, so the model also sees positions off the heuristic's path."""

    rows: list = field(default_factory=list)   # (features after the play, mover is White)
    name: str = "heuristic+explore"
    description: str = "heuristic, uniform 10% of the time"
    source: str | None = None

    def pick(self, turn: Turn) -> int:
        if turn.rng.random() < 0.1:
            idx = int(turn.rng.integers(len(turn.plays)))
        else:
            idx = HEURISTIC.pick(turn)
        self.rows.append((feature_vector(turn.boards[idx]), turn.position.turn == "w"))
        return idx


def self_play(games: int, seed: int):
    """Feature rows (after each chosen play) and the class of the game's end for the side that
    played.

    The games are the games layer's Python turn loop (dice of game g from (seed, g));
    forced plays (one legal result) carry no decision and are not recorded.
    """
    spec = GameSpec(START, make_rules(), HEURISTIC, HEURISTIC, seed, False)
    deficit = np.zeros((2, N_DEFICIT), dtype=np.int64)
    xs, ys, game_ids = [], [], []
    for g in range(games):
        bot = Explorer()
        white_result, _, _ = play_game(spec, bot, bot, g, MAX_PLIES, deficit)
        if white_result == kb.UNFINISHED:
            continue
        for feats, white in bot.rows:
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


def fit(x: np.ndarray, y: np.ndarray, steps: int = 3000, lr: float = 0.5,
        l2: float = 1e-4) -> np.ndarray:
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
          "(class frequencies alone: "
          f"{float(-np.log(np.maximum(base[y[held]], 1e-12)).mean()):.4f})")
    coef = fit(x, y)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"classes": list(CLASSES), "games": args.games, "seed": args.seed,
                               "coefficients": coef.round(6).tolist()}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
