"""The network's one-ply inconsistency on positions met in self-play from each study position.

For a position P (side to roll), the inconsistency is the mean over the 21 rolls
of the equity after the play the network prefers, minus the network's static
equity of P (both in the roller's view). VR's residual is the sum of these over
a game's turns, so where their RMS is large VR removes little variance
(docs/rollouts.md, experiments/variance-results.md).

Usage: python experiments/consistency.py [--games 300] [--seed 7] [--network FILE] [--by-phase]
                                     [--positions A,B] [--residual] [--luck-networks F1,F2]

--by-phase also splits each position's inconsistency by who still has checkers on
their own points 1-12 (both sides, one, neither): the share of its sum of squares.

--residual scores every position (not every third) and sums each game's
inconsistencies in the root side's view. For a `neural` rollout with VR that sum
is exactly what the luck adjustment leaves of the game's result (up to the
root's constant value; the game's end is valued exactly), so the variance of the
per-game sums over the variance of the games' results predicts VR's variance
ratio without a rollout (with the full reply search; the rollouts' screened one
differs a little).

--luck-networks values the luck by other networks (the plays stay the policy
network's): VR's luck may be any function fixed before the roll, so a network
that plays worse but contradicts itself less could still serve as the luck's
evaluator. It prints each one's predicted ratio and that of their mean.
"""

from __future__ import annotations

import argparse

import numpy as np
from numba import njit

from nardy_cli.policies.bearoff import tables
from nardy_cli.kernels.board import IN_PLAY, KernelRules, flip, game_status, on_board, opp_on_board
from nardy_cli.kernels.bearoff import both_home
from nardy_cli.kernels.evaluate import (NEURAL, NO_SCREEN, ROLL_WEIGHT, EvalArgs, best_replies,
    choice_scratch, choose_play)
from nardy_cli.kernels.movegen import PlaySpace, enumerate_plays, memo_arrays
from nardy_cli.kernels.neural import H_LAST_ROLL, single_precision
from nardy_cli.kernels.value import equity_of_probs, position_probs, value_probs, value_scratch
from nardy_cli.policies.network import default_network, load_network
from nardy_cli.core.positions_file import read_positions
from nardy_cli.core.rules import PRESETS
from nardy_cli.games.scoring import logistic_coefficients
from nardy_cli.core.outcomes import money_valuation

# the plays: money under federation points
MONEY = money_valuation(PRESETS["federation"]).kernel_values()


MAX_POSITIONS = 60000     # positions kept per study position (300 games need about 24,000)


@njit
def self_play_positions(params, root, root_white, seed, games, head_rule, block_check, last_roll,
                        out, out_white, finals, finals_white, starts):
    """Positions (side to roll, before both sides are home) of `games` neural 0-ply games from
    `root`.

    Game g's positions start at out[starts[g]]; its last position (over, or both sides home) is
    finals[g].
    """
    np.random.seed(seed)
    boards = np.zeros((4096, 24), np.int8)
    steps_from = np.zeros((4096, 4), np.int8)
    steps_die = np.zeros((4096, 4), np.int8)
    memo, stamp = memo_arrays()
    s_boards = np.zeros((4096, 24), np.int8)
    s_from = np.zeros((4096, 4), np.int8)
    s_die = np.zeros((4096, 4), np.int8)
    s_memo, s_stamp = memo_arrays()
    choice = choice_scratch()
    rstate = np.zeros(1, np.uint64)
    board = np.empty(24, np.int8)
    k = 0
    for g in range(games):
        board[:] = root
        white = root_white
        starts[g] = k
        while game_status(board, white, last_roll) == IN_PLAY and not (
                both_home(board) and opp_on_board(board) > 0 and on_board(board) > 0):
            if k < out.shape[0]:
                out[k] = board
                out_white[k] = white
                k += 1
            d1, d2 = np.random.randint(1, 7), np.random.randint(1, 7)
            if d1 < d2:
                d1, d2 = d2, d1
            n, _ = enumerate_plays(board, 15 - opp_on_board(board), d1, d2, head_rule, block_check,
                                   boards, steps_from, steps_die, memo, stamp)
            pick = choose_play(boards, n, EvalArgs(NEURAL, params, MONEY), False, rstate, white,
                               KernelRules(head_rule, block_check, last_roll),
                               PlaySpace(s_boards, s_from, s_die, s_memo, s_stamp), choice)
            flip(boards[pick], board)
            white = not white
        finals[g] = board
        finals_white[g] = white
    return k


@njit
def best_replies_of(params, boards, white, head_rule, block_check, out):
    """out[i, r]: the network's preferred result of roll r from boards[i] (full search, no
    screen)."""
    choice = choice_scratch()
    s_boards = np.zeros((4096, 24), np.int8)
    s_from = np.zeros((4096, 4), np.int8)
    s_die = np.zeros((4096, 4), np.int8)
    memo, stamp = memo_arrays()
    net = single_precision(params)
    rules = KernelRules(head_rule, block_check, params[H_LAST_ROLL] != 0.0)   # the network's rules
    judge = EvalArgs(NEURAL, params, MONEY)
    space = PlaySpace(s_boards, s_from, s_die, memo, stamp)
    for i in range(boards.shape[0]):
        best_replies(boards[i], white[i], judge, rules, net, NO_SCREEN, choice, space, out[i])


@njit
def inconsistency(params, boards, white, replies, last_roll, tabs, coefs, values, out):
    """out[i] = one-ply minus static equity of boards[i] for its side to roll, both by `params`.

    replies[i, r] is the play chosen for roll r (`best_replies_of`, possibly by another network).
    """
    choice = choice_scratch()
    scratch = value_scratch()
    flipped = np.empty(24, np.int8)
    p = np.zeros(9)
    for i in range(boards.shape[0]):
        one = 0.0
        for r in range(21):
            value_probs(replies[i, r], white[i], last_roll, NEURAL, params, tabs, coefs, choice,
                        scratch, p)
            one += ROLL_WEIGHT[r] * equity_of_probs(p, values, white[i])
        position_probs(boards[i], white[i], last_roll, NEURAL, params, tabs, coefs, choice, scratch,
                       flipped, p)
        out[i] = one - equity_of_probs(p, values, white[i])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--network", default=None, help="a network file (default: the shipped one)")
    ap.add_argument("--by-phase", action="store_true",
                    help="split by who still has checkers on points 1-12")
    ap.add_argument("--positions", default=None,
                    help="comma-separated study position names (default: all)")
    ap.add_argument("--residual", action="store_true",
                    help="every position; per-game sums and VR's predicted ratio")
    ap.add_argument("--luck-networks", default=None,
                    help="comma-separated network files: also predict VR with the luck valued by "
                         "each of them, and by the mean of all (plays still chosen by --network); "
                         "implies --residual")
    args = ap.parse_args()
    args.residual = args.residual or bool(args.luck_networks)
    rules = PRESETS["federation"]
    luck_files = args.luck_networks.split(",") if args.luck_networks else []
    luck_params = [load_network(f).kernel_params(rules) for f in luck_files]
    params = (load_network(args.network) if args.network
              else default_network()).kernel_params(rules)
    tabs, coefs = tables(rules).arrays(), logistic_coefficients()
    values = money_valuation(rules).kernel_values()
    codes = (int(rules.head_code), int(rules.block_code), bool(rules.last_roll))
    names = args.positions.split(",") if args.positions else None
    for entry in read_positions("positions/study.txt"):
        if names is not None and entry.name not in names:
            continue
        board = entry.position.board()[0]
        boards, white = np.zeros((MAX_POSITIONS, 24), np.int8), np.zeros(MAX_POSITIONS, np.bool_)
        finals, finals_white = np.zeros((args.games, 24), np.int8), np.zeros(args.games, np.bool_)
        starts = np.zeros(args.games, np.int64)
        k = self_play_positions(params, board, entry.position.turn == "w", args.seed, args.games,
                                *codes, boards, white, finals, finals_white, starts)
        if k < 50:
            continue
        step = 1 if args.residual else 3                     # every position, or every third
        b, w = boards[:k:step].copy(), white[:k:step].copy()
        replies = np.zeros((len(b), 21, 24), np.int8)
        best_replies_of(params, b, w, codes[0], codes[1], replies)
        out = np.zeros(len(b))
        inconsistency(params, b, w, replies, *codes[2:], tabs, coefs, values, out)
        print(f"{entry.name:24s} positions {len(b):6,d}   RMS one-ply - static "
              f"{np.sqrt(np.mean(out ** 2)):.4f}",
              flush=True)
        if args.by_phase:
            print_phases(b, out)
        if not args.residual:
            continue
        if k >= MAX_POSITIONS:
            print("    (position buffer full: residual skipped)")
            continue
        root_white = entry.position.turn == "w"
        results = np.zeros(args.games)
        final_equity(params, finals, finals_white, root_white, codes[2], tabs, coefs, values,
                     results)
        sums = [residual_sums(out, w, starts, k, root_white)]
        print_residual(results, sums[0], "")
        for file, luck in zip(luck_files, luck_params):
            out_l = np.zeros(len(b))
            inconsistency(luck, b, w, replies, *codes[2:], tabs, coefs, values, out_l)
            sums.append(residual_sums(out_l, w, starts, k, root_white))
            print_residual(results, sums[-1],
                           f"luck by {file} (RMS {np.sqrt(np.mean(out_l ** 2)):.4f}): ")
        if luck_params:
            print_residual(results, np.mean(sums, axis=0),
                           f"luck by the mean of all {len(sums)} networks: ")


def residual_sums(out: np.ndarray, white: np.ndarray, starts: np.ndarray, k: int,
                  root_white: bool) -> np.ndarray:
    """Each game's sum of inconsistencies `out` in the root side's view."""
    game_of = np.searchsorted(starts, np.arange(k), side="right") - 1
    signed = np.where(white == root_white, out, -out)
    return np.bincount(game_of, weights=signed, minlength=len(starts))


def print_residual(results: np.ndarray, sums: np.ndarray, label: str) -> None:
    """Variance of the games' results and of their sums of inconsistencies, and their ratio."""
    plain, left = float(np.var(results)), float(np.var(sums))
    print(f"    {label}per game: variance of results {plain:.4f}, of summed inconsistencies "
          f"{left:.4f}, predicted VR variance ratio {plain / max(left, 1e-12):.2f}", flush=True)


@njit
def final_equity(params, finals, finals_white, root_white, last_roll, tabs, coefs, values, out):
    """out[g]: the root side's equity of game g's last position (exact: over, or both sides
    home)."""
    choice = choice_scratch()
    scratch = value_scratch()
    flipped = np.empty(24, np.int8)
    p = np.zeros(9)
    for g in range(finals.shape[0]):
        position_probs(finals[g], finals_white[g], last_roll, NEURAL, params, tabs, coefs, choice,
                       scratch, flipped, p)
        e = equity_of_probs(p, values, finals_white[g])
        out[g] = e if finals_white[g] == root_white else -e


def print_phases(boards: np.ndarray, out: np.ndarray) -> None:
    """Each phase's count, RMS and share of the sum of squares (boards in the roller's view)."""
    mover_back = (boards[:, :12] > 0).any(axis=1)         # the roller's own points 1-12
    opp_back = (boards[:, 12:] < 0).any(axis=1)           # the opponent's own points 1-12
    total = max(float(np.sum(out ** 2)), 1e-300)
    for name, m in (("both sides on points 1-12", mover_back & opp_back),
                    ("roller only", mover_back & ~opp_back),
                    ("opponent only", ~mover_back & opp_back),
                    ("neither", ~mover_back & ~opp_back)):
        if m.any():
            print(f"    {name:26s} positions {m.sum():6,d}   RMS "
                  f"{np.sqrt(np.mean(out[m] ** 2)):.4f}   "
                  f"share of squares {np.sum(out[m] ** 2) / total:.2f}", flush=True)


if __name__ == "__main__":
    main()
