"""Can a fitted correction of VR's luck evaluator make up for the network's inconsistency?

VR's luck may be valued by any function fixed before the roll, so the luck's
evaluator may be the network plus a correction c(B) = θ·h(B), h(B) being the
network's hidden units on the evaluated board B (0 where the value is exact),
with θ fitted on other games. The one-ply inconsistency of a position P then
becomes inc(P) + θ·A(P), A(P) = mean over the 21 rolls of h(chosen result) +
h(P seen by the side that just moved), and a game's VR residual (root side's view,
`consistency.py --residual`) becomes its sum over the game's positions.

For each position this plays `--games` 0-ply `neural` games, fits θ on the first
half of the games and scores the other half (and the reverse), two ways:
  per position: θ minimises the summed squared inconsistency (a Bellman
      residual fit over tens of thousands of positions);
  per game: θ minimises the variance of the games' residuals (a ridge regression
      over the games, as a control variate would).
It prints the held-out RMS inconsistency and the predicted VR variance ratio.

Usage: python experiments/luck_corrections.py [--games 1000] [--seed 13] [--positions A,B]
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from consistency import best_replies_of, final_equity, residual_sums, self_play_positions
from nardy_cli.policies.bearoff import tables
from nardy_cli.kernels.board import flip
from nardy_cli.kernels.evaluate import NEURAL, ROLL_WEIGHT, choice_scratch
from nardy_cli.kernels.value import equity_of_probs, value_probs, value_scratch
from nardy_cli.policies.network import default_network
from nardy_cli.core.positions_file import read_positions
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.scoring import logistic_coefficients
from nardy_cli.core.outcomes import money_valuation

PLIES_PER_GAME = 120          # position buffer per game


@njit
def hidden_value(params, board, white, last_roll, tabs, coefs, values, choice, scratch, p, h):
    """Equity of `board` for the side that just moved (White if `white`); its hidden units into h (0
    if exact)."""
    for j in range(h.shape[0]):
        choice.hidden[j] = 0.0
    value_probs(board, white, last_roll, NEURAL, params, tabs, coefs, choice, scratch, p)
    for j in range(h.shape[0]):
        h[j] = choice.hidden[j]
    return equity_of_probs(p, values, white)


@njit
def inconsistency_rows(params, boards, white, replies, last_roll, tabs, coefs, values, inc, a):
    """inc[i]: one-ply minus static equity of boards[i] for its roller; a[i]: the hidden-unit terms
    A(P)."""
    choice = choice_scratch()
    scratch = value_scratch()
    flipped = np.empty(24, np.int8)
    p = np.zeros(9)
    h = np.zeros(a.shape[1])
    for i in range(boards.shape[0]):
        one = 0.0
        for r in range(21):
            one += ROLL_WEIGHT[r] * hidden_value(params, replies[i, r], white[i], last_roll, tabs,
                                                 coefs, values, choice, scratch, p, h)
            a[i] += ROLL_WEIGHT[r] * h
        flip(boards[i], flipped)
        opponent_equity = hidden_value(params, flipped, not white[i], last_roll, tabs, coefs,
                                       values, choice, scratch, p, h)
        a[i] += h
        inc[i] = one + opponent_equity


def per_position_theta(a: np.ndarray, inc: np.ndarray, ridge: float) -> np.ndarray:
    """θ minimising Σ (inc + a·θ)² + ridge·n·|θ|²."""
    return -np.linalg.solve(a.T @ a + ridge * len(inc) * np.eye(a.shape[1]), a.T @ inc)


def per_game_theta(sums: np.ndarray, s: np.ndarray, ridge: float) -> np.ndarray:
    """θ minimising the variance of sums + s·θ over games (columns scaled to unit variance for the
    ridge)."""
    sc = s - s.mean(axis=0)
    y = sums - sums.mean()
    sd = sc.std(axis=0) + 1e-12
    z = sc / sd
    return -np.linalg.solve(z.T @ z + ridge * len(y) * np.eye(z.shape[1]), z.T @ y) / sd


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--positions", default="block-building,step-or-turn-end,forbidden-sixth-point")
    args = ap.parse_args()
    rules = PRESETS["federation"]
    params = default_network().kernel_params(rules)
    tabs, coefs = tables(rules).arrays(), logistic_coefficients()
    values = money_valuation(rules).kernel_values()
    codes = (int(rules.head_code), int(rules.block_code), bool(rules.last_roll))
    games, half = args.games, args.games // 2
    for entry in read_positions("positions/study.txt"):
        if entry.name not in args.positions.split(","):
            continue
        root_white = entry.position.turn == "w"
        boards = np.zeros((games * PLIES_PER_GAME, 24), np.int8)
        white = np.zeros(len(boards), np.bool_)
        finals, finals_white = np.zeros((games, 24), np.int8), np.zeros(games, np.bool_)
        starts = np.zeros(games, np.int64)
        k = self_play_positions(params, entry.position.board()[0], root_white, args.seed, games,
                                *codes, boards, white, finals, finals_white, starts)
        b, w = boards[:k], white[:k]
        replies = np.zeros((k, 21, 24), np.int8)
        best_replies_of(params, b, w, codes[0], codes[1], replies)
        inc, a = np.zeros(k), np.zeros((k, int(params[2])))
        inconsistency_rows(params, b, w, replies, codes[2], tabs, coefs, values, inc, a)
        results = np.zeros(games)
        final_equity(params, finals, finals_white, root_white, codes[2], tabs, coefs, values,
                     results)
        base = residual_sums(inc, w, starts, k, root_white)
        s = np.stack([residual_sums(a[:, j], w, starts, k, root_white) for j in range(a.shape[1])],
                     axis=1)
        game_of = np.searchsorted(starts, np.arange(k), side="right") - 1
        print(f"{entry.name}: {games} games, {k:,} positions; "
              f"RMS inconsistency {np.sqrt(np.mean(inc ** 2)):.4f}, "
              f"predicted VR variance ratio {results.var() / base.var():.2f}", flush=True)
        folds = ((game_of < half, slice(0, half)), (game_of >= half, slice(half, None)))
        for ridge in (1e-6, 1e-4, 1e-2):
            fitted = np.zeros(games)
            held_out = []
            for (fit_rows, _), (test_rows, test_games) in zip(folds, folds[::-1]):
                theta = per_position_theta(a[fit_rows], inc[fit_rows], ridge)
                fitted[test_games] = base[test_games] + s[test_games] @ theta
                held_out.append(inc[test_rows] + a[test_rows] @ theta)
            rms = np.sqrt(np.mean(np.concatenate(held_out) ** 2))
            print(f"    per position, ridge {ridge:g}: held-out RMS {rms:.4f}, "
                  f"predicted ratio {results.var() / fitted.var():.2f}", flush=True)
        for ridge in (0.01, 0.1, 1.0):
            fitted = np.zeros(games)
            for (_, fit_games), (_, test_games) in zip(folds, folds[::-1]):
                theta = per_game_theta(base[fit_games], s[fit_games], ridge)
                fitted[test_games] = base[test_games] + s[test_games] @ theta
            print(f"    per game, ridge {ridge:g}: "
                  f"predicted ratio {results.var() / fitted.var():.2f}", flush=True)


if __name__ == "__main__":
    main()
